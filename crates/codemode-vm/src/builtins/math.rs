//! `Math`. `random` draws from the run's seeded generator (deterministic per seed).

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Math", "floor", 1, |vm, _t, a, _d| unary(vm, a, f64::floor)),
    NativeDef::new("Math", "ceil", 1, |vm, _t, a, _d| unary(vm, a, f64::ceil)),
    NativeDef::new("Math", "round", 1, |vm, _t, a, _d| unary(vm, a, js_round)),
    NativeDef::new("Math", "trunc", 1, |vm, _t, a, _d| unary(vm, a, f64::trunc)),
    NativeDef::new("Math", "abs", 1, |vm, _t, a, _d| unary(vm, a, f64::abs)),
    NativeDef::new("Math", "sqrt", 1, |vm, _t, a, _d| unary(vm, a, f64::sqrt)),
    NativeDef::new("Math", "cbrt", 1, |vm, _t, a, _d| unary(vm, a, f64::cbrt)),
    NativeDef::new("Math", "sign", 1, |vm, _t, a, _d| unary(vm, a, js_sign)),
    NativeDef::new("Math", "log", 1, |vm, _t, a, _d| unary(vm, a, f64::ln)),
    NativeDef::new("Math", "log2", 1, |vm, _t, a, _d| unary(vm, a, f64::log2)),
    NativeDef::new("Math", "log10", 1, |vm, _t, a, _d| unary(vm, a, f64::log10)),
    NativeDef::new("Math", "exp", 1, |vm, _t, a, _d| unary(vm, a, f64::exp)),
    NativeDef::new("Math", "sin", 1, |vm, _t, a, _d| unary(vm, a, f64::sin)),
    NativeDef::new("Math", "cos", 1, |vm, _t, a, _d| unary(vm, a, f64::cos)),
    NativeDef::new("Math", "tan", 1, |vm, _t, a, _d| unary(vm, a, f64::tan)),
    NativeDef::new("Math", "atan", 1, |vm, _t, a, _d| unary(vm, a, f64::atan)),
    NativeDef::new("Math", "asin", 1, |vm, _t, a, _d| unary(vm, a, f64::asin)),
    NativeDef::new("Math", "acos", 1, |vm, _t, a, _d| unary(vm, a, f64::acos)),
    NativeDef::new("Math", "sinh", 1, |vm, _t, a, _d| unary(vm, a, f64::sinh)),
    NativeDef::new("Math", "cosh", 1, |vm, _t, a, _d| unary(vm, a, f64::cosh)),
    NativeDef::new("Math", "tanh", 1, |vm, _t, a, _d| unary(vm, a, f64::tanh)),
    NativeDef::new("Math", "asinh", 1, |vm, _t, a, _d| unary(vm, a, js_asinh)),
    NativeDef::new("Math", "acosh", 1, |vm, _t, a, _d| unary(vm, a, f64::acosh)),
    NativeDef::new("Math", "atanh", 1, |vm, _t, a, _d| unary(vm, a, js_atanh)),
    NativeDef::new("Math", "expm1", 1, |vm, _t, a, _d| unary(vm, a, f64::exp_m1)),
    NativeDef::new("Math", "log1p", 1, |vm, _t, a, _d| unary(vm, a, f64::ln_1p)),
    NativeDef::new("Math", "fround", 1, |vm, _t, a, _d| unary(vm, a, |x| x as f32 as f64)),
    NativeDef::new("Math", "clz32", 1, |vm, _t, a, _d| {
        unary(vm, a, |x| crate::numconv::to_uint32(x).leading_zeros() as f64)
    }),
    NativeDef::new("Math", "imul", 2, imul),
    NativeDef::new("Math", "pow", 2, pow),
    NativeDef::new("Math", "atan2", 2, atan2),
    NativeDef::new("Math", "max", 2, max),
    NativeDef::new("Math", "min", 2, min),
    NativeDef::new("Math", "random", 0, random),
    NativeDef::new("Math", "hypot", 2, hypot),
];

fn unary(vm: &mut Vm, args: &[Value], f: fn(f64) -> f64) -> Result<Step, Throw> {
    let x = vm.to_number(arg(args, 0))?;
    Ok(Step::Return(Value::Number(f(x))))
}

/// asinh with the sign of zero kept and no overflow for large arguments.
fn js_asinh(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() { x } else { x.asinh() }
}

/// atanh with the sign of zero kept (`atanh(-0)` is `-0`).
fn js_atanh(x: f64) -> f64 {
    if x == 0.0 { x } else { x.atanh() }
}

fn imul(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let a = crate::numconv::to_int32(vm.to_number(arg(args, 0))?);
    let b = crate::numconv::to_int32(vm.to_number(arg(args, 1))?);
    Ok(Step::Return(Value::Number(a.wrapping_mul(b) as f64)))
}

/// Math.round: halves round towards +∞.
fn js_round(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let r = (x + 0.5).floor();
    if r == 0.0 && x < 0.0 { -0.0 } else { r }
}

fn js_sign(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 { x } else { x.signum() }
}

fn pow(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = (arg(args, 0), arg(args, 1));
    vm.binary(codemode_bytecode::BinOp::Exp, a, b).map(Step::Return)
}

fn atan2(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (y, x) = (vm.to_number(arg(args, 0))?, vm.to_number(arg(args, 1))?);
    Ok(Step::Return(Value::Number(y.atan2(x))))
}

/// Math.hypot: every argument converted first; an infinity wins over NaN; scaled by the largest
/// magnitude so that squares neither overflow nor underflow (`hypot(1e200, 1e200)`).
fn hypot(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    vm.charge(Work::Elements(args.len()));
    let mut xs = Vec::with_capacity(args.len());
    for a in args {
        xs.push(vm.to_number(*a)?.abs());
    }
    if xs.iter().any(|x| x.is_infinite()) {
        return Ok(Step::Return(Value::Number(f64::INFINITY)));
    }
    if xs.iter().any(|x| x.is_nan()) {
        return Ok(Step::Return(Value::Number(f64::NAN)));
    }
    let scale = xs.iter().copied().fold(0.0, f64::max);
    if scale == 0.0 {
        return Ok(Step::Return(Value::Number(0.0)));
    }
    let sum: f64 = xs.iter().map(|x| (x / scale) * (x / scale)).sum();
    Ok(Step::Return(Value::Number(sum.sqrt() * scale)))
}

fn extreme(vm: &mut Vm, args: &[Value], want_max: bool) -> Result<Step, Throw> {
    let mut best = if want_max { f64::NEG_INFINITY } else { f64::INFINITY };
    vm.charge(Work::Elements(args.len()));
    for a in args {
        let x = vm.to_number(*a)?;
        if x.is_nan() {
            best = f64::NAN;
        } else if !best.is_nan() {
            let better = if want_max {
                x > best || (x == 0.0 && best == 0.0 && best.is_sign_negative())
            } else {
                x < best || (x == 0.0 && best == 0.0 && x.is_sign_negative())
            };
            if better {
                best = x;
            }
        }
    }
    Ok(Step::Return(Value::Number(best)))
}

fn max(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    extreme(vm, args, true)
}

fn min(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    extreme(vm, args, false)
}

/// The run's next 64 random bits (`Math.random`, `crypto`). xorshift64*: small, fast, and its
/// state is one number in the snapshot.
pub(crate) fn next_random(vm: &mut Vm) -> u64 {
    let mut x = vm.rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    vm.rng = x;
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

fn random(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let bits = next_random(vm) >> 11;
    Ok(Step::Return(Value::Number(bits as f64 / (1u64 << 53) as f64)))
}
