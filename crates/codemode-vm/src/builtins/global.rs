//! Global functions and values: `parseInt`, `parseFloat`, `isNaN`, `isFinite`, the `String`,
//! `Number` and `Boolean` conversions, `NaN`, `Infinity`, `undefined`, `globalThis` and `tools`.

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::numconv::is_js_whitespace;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("", "parseInt", 2, parse_int),
    NativeDef::new("", "parseFloat", 1, parse_float),
    NativeDef::new("", "isNaN", 1, is_nan),
    NativeDef::new("", "isFinite", 1, is_finite),
    NativeDef::new("", "search", 1, search),
    NativeDef::ctor("String", 1, string_call, |vm, args| {
        let step = string_call(vm, Value::Undefined, args, &[])?;
        wrapped(vm, step, "String")
    }),
    NativeDef::ctor("Number", 1, number_call, |vm, args| {
        let step = number_call(vm, Value::Undefined, args, &[])?;
        wrapped(vm, step, "Number")
    }),
    NativeDef::ctor("Boolean", 1, boolean_call, |vm, args| {
        let step = boolean_call(vm, Value::Undefined, args, &[])?;
        wrapped(vm, step, "Boolean")
    }),
];

/// `new String(x)`/`new Number(x)`/`new Boolean(x)`: the converted primitive in a wrapper
/// object. (Their conversions of a program's objects run by replay, so `step` is a value.)
fn wrapped(vm: &mut Vm, step: Step, ctor: &str) -> Result<Step, Throw> {
    let Step::Return(v) = step else {
        let msg =
            format!("new {ctor}(...) of an object whose conversion is a program's method is not supported");
        return Err(vm.make_error(codemode_bytecode::ErrorKind::TypeError, &msg));
    };
    Ok(Step::Return(vm.box_primitive(v)?))
}

/// Values on the global object, and the `tools` root.
pub(super) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    let global = vm.realm.global;
    vm.define_hidden(global, "NaN", Value::Number(f64::NAN));
    vm.define_hidden(global, "Infinity", Value::Number(f64::INFINITY));
    vm.define_hidden(global, "undefined", Value::Undefined);
    vm.define_hidden(global, "globalThis", Value::Obj(global));
    let tools = vm.tool_value("")?;
    vm.define_hidden(global, "tools", tools);
    super::error::install_names(vm)?;
    let math = vm.owner_object("Math")?;
    for (name, v) in [
        ("PI", std::f64::consts::PI),
        ("E", std::f64::consts::E),
        ("LN2", std::f64::consts::LN_2),
        ("LN10", std::f64::consts::LN_10),
        ("LOG2E", std::f64::consts::LOG2_E),
        ("LOG10E", std::f64::consts::LOG10_E),
        ("SQRT2", std::f64::consts::SQRT_2),
        ("SQRT1_2", std::f64::consts::FRAC_1_SQRT_2),
    ] {
        vm.define_hidden(math, name, Value::Number(v));
    }
    Ok(())
}

fn parse_int(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = vm.to_rust_string(arg(args, 0))?;
    let radix = match arg(args, 1) {
        Value::Undefined => 0,
        v => crate::numconv::to_int32(vm.to_number(v)?),
    };
    Ok(Step::Return(Value::Number(parse_int_str(&s, radix))))
}

/// `parseInt` on a Rust string.
pub(crate) fn parse_int_str(s: &str, radix: i32) -> f64 {
    let t = s.trim_start_matches(is_js_whitespace);
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut radix = radix;
    let mut t = t;
    if (radix == 0 || radix == 16) && t.len() >= 2 && (t.starts_with("0x") || t.starts_with("0X")) {
        t = &t[2..];
        radix = 16;
    }
    if radix == 0 {
        radix = 10;
    }
    if !(2..=36).contains(&radix) {
        return f64::NAN;
    }
    let mut n = 0.0f64;
    let mut any = false;
    for c in t.chars() {
        match c.to_digit(radix as u32) {
            Some(d) => {
                n = n * radix as f64 + d as f64;
                any = true;
            }
            None => break,
        }
    }
    if !any {
        return f64::NAN;
    }
    if negative { -n } else { n }
}

fn parse_float(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = vm.to_rust_string(arg(args, 0))?;
    let t = s.trim_start_matches(is_js_whitespace);
    // The longest prefix that is a decimal literal.
    let bytes = t.as_bytes();
    let mut end = 0;
    let mut i = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    if t[i..].starts_with("Infinity") {
        let v = if bytes.first() == Some(&b'-') { f64::NEG_INFINITY } else { f64::INFINITY };
        return Ok(Step::Return(Value::Number(v)));
    }
    let mut seen_digit = false;
    let mut seen_dot = false;
    while i < bytes.len() {
        match bytes[i] {
            b'0'..=b'9' => {
                seen_digit = true;
                end = i + 1;
            }
            b'.' if !seen_dot => seen_dot = true,
            b'e' | b'E' if seen_digit => {
                let mut j = i + 1;
                if matches!(bytes.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                let start = j;
                while matches!(bytes.get(j), Some(b'0'..=b'9')) {
                    j += 1;
                }
                if j > start {
                    end = j;
                }
                break;
            }
            _ => break,
        }
        i += 1;
    }
    let n = if seen_digit { t[..end].parse::<f64>().unwrap_or(f64::NAN) } else { f64::NAN };
    Ok(Step::Return(Value::Number(n)))
}

/// `search({ query?, namespace?, limit?, offset? })`: a synchronous host call answered from the
/// host's tool catalog.
fn search(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    vm.call_host(crate::host::HostTarget::Search, arg(args, 0), false)
}

fn is_nan(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Bool(vm.to_number(arg(args, 0))?.is_nan())))
}

fn is_finite(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Bool(vm.to_number(arg(args, 0))?.is_finite())))
}

fn string_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if args.is_empty() {
        return Ok(Step::Return(vm.new_string("")?));
    }
    if let Value::Symbol(symbol) = arg(args, 0) {
        let text = vm.symbol_descriptive_string(symbol);
        return Ok(Step::Return(vm.new_string(&text)?));
    }
    if let Some(step) = vm.conversion_step(crate::to_primitive::ConvertOp::ToString, arg(args, 0))? {
        return Ok(step);
    }
    Ok(Step::Return(vm.to_string_value(arg(args, 0))?))
}

fn number_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if args.is_empty() {
        return Ok(Step::Return(Value::Number(0.0)));
    }
    let plus = crate::to_primitive::ConvertOp::Unary(codemode_bytecode::UnOp::Plus);
    if let Some(step) = vm.conversion_step(plus, arg(args, 0))? {
        return Ok(step);
    }
    // `Number(1n)` converts (the operators refuse to).
    if let Value::BigInt(b) = vm.to_primitive(arg(args, 0))? {
        return Ok(Step::Return(Value::Number(crate::bigint::bigint_to_number(vm.big(b)))));
    }
    Ok(Step::Return(Value::Number(vm.to_number(arg(args, 0))?)))
}

fn boolean_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Bool(vm.to_boolean(arg(args, 0)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_int_cases() {
        assert_eq!(parse_int_str("  42px", 0), 42.0);
        assert_eq!(parse_int_str("0x1F", 0), 31.0);
        assert_eq!(parse_int_str("-12", 10), -12.0);
        assert!(parse_int_str("abc", 10).is_nan());
        assert_eq!(parse_int_str("101", 2), 5.0);
    }
}
