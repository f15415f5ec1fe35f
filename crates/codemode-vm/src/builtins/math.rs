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

fn hypot(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut sum = 0.0;
    for a in args {
        let x = vm.to_number(*a)?;
        sum += x * x;
    }
    Ok(Step::Return(Value::Number(sum.sqrt())))
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

/// xorshift64*: small, fast, and its state is one number in the snapshot.
fn random(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut x = vm.rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    vm.rng = x;
    let bits = x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
    Ok(Step::Return(Value::Number(bits as f64 / (1u64 << 53) as f64)))
}
