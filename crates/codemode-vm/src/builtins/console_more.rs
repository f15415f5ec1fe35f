//! The rest of `console`, with Node's text where it is deterministic: `group`/`groupCollapsed`/
//! `groupEnd` (indent later lines by two spaces), `count`/`countReset` (`label: N`), `time`/
//! `timeLog`/`timeEnd` on the run's clock (`VmConfig::now_ms`, so `label: 0ms` unless the host
//! moves it), `assert` (`[warn] Assertion failed: …`, as Node writes it with `console.warn`),
//! `trace` (`[error] Trace: …` and the stack, as `Error.prototype.stack` shows it) and `dir`
//! (the value as `console.log` shows it). `table` is in `console_table.rs`. Their state is
//! [`crate::output::ConsoleState`]: plain data in the snapshot.

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("console", "group", 0, group),
    NativeDef::new("console", "groupCollapsed", 0, group),
    NativeDef::new("console", "groupEnd", 0, group_end),
    NativeDef::new("console", "count", 0, count),
    NativeDef::new("console", "countReset", 0, count_reset),
    NativeDef::new("console", "time", 0, time),
    NativeDef::new("console", "timeLog", 0, time_log),
    NativeDef::new("console", "timeEnd", 0, time_end),
    NativeDef::new("console", "assert", 0, assert),
    NativeDef::new("console", "trace", 0, trace),
    NativeDef::new("console", "dir", 0, dir),
];

/// Bytes charged per counter or timer besides its label (the map's node).
const LABEL_OVERHEAD: usize = 64;

fn done() -> Result<Step, Throw> {
    Ok(Step::Return(Value::Undefined))
}

/// `console.group(...labels)`: prints the labels (if any), then indents.
fn group(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !args.is_empty() {
        let text = vm.display_all(args)?;
        vm.push_console("", text)?;
    }
    vm.console.group_depth = vm.console.group_depth.saturating_add(1);
    done()
}

fn group_end(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    vm.console.group_depth = vm.console.group_depth.saturating_sub(1);
    done()
}

/// A label argument: `"default"` when absent, else its string.
fn label(vm: &mut Vm, args: &[Value]) -> Result<String, Throw> {
    match arg(args, 0) {
        Value::Undefined => Ok("default".into()),
        v => vm.to_rust_string(v),
    }
}

fn count(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let label = label(vm, args)?;
    let n = match vm.console.counts.get_mut(&label) {
        Some(n) => {
            *n += 1;
            *n
        }
        None => {
            vm.charge_retained(label.len() + LABEL_OVERHEAD)?;
            vm.console.counts.insert(label.clone(), 1);
            1
        }
    };
    vm.push_console("", format!("{label}: {n}"))?;
    done()
}

/// `console.countReset(label)`: back to zero (Node's warning for an unknown label goes to the
/// process, not the console: nothing is printed).
fn count_reset(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let label = label(vm, args)?;
    if let Some(n) = vm.console.counts.get_mut(&label) {
        *n = 0;
    }
    done()
}

fn time(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let label = label(vm, args)?;
    let now = vm.config.now_ms;
    if !vm.console.timers.contains_key(&label) {
        vm.charge_retained(label.len() + LABEL_OVERHEAD)?;
        vm.console.timers.insert(label, now);
    }
    done()
}

/// `label: <elapsed>` (and `timeLog`'s extra values) for a running timer; nothing for an
/// unknown one (Node warns the process).
fn report(vm: &mut Vm, args: &[Value], end: bool) -> Result<Step, Throw> {
    let label = label(vm, args)?;
    let Some(&start) = vm.console.timers.get(&label) else { return done() };
    if end {
        vm.console.timers.remove(&label);
    }
    let elapsed = format_time(vm, vm.config.now_ms - start)?;
    let mut text = format!("{label}: {elapsed}");
    if !end && args.len() > 1 {
        text.push(' ');
        text.push_str(&vm.display_all(args.get(1..).unwrap_or(&[]))?);
    }
    vm.push_console("", text)?;
    done()
}

fn time_log(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    report(vm, args, false)
}

fn time_end(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    report(vm, args, true)
}

/// Node's `formatTime`: `1.5ms`, `2.000s`, `1:05.000 (m:ss.mmm)`, `1:01:05.000 (h:mm:ss.mmm)`.
fn format_time(vm: &mut Vm, ms: f64) -> Result<String, Throw> {
    let ms = if ms.is_finite() { ms.max(0.0) } else { 0.0 };
    let (hour, minute, second) = (3_600_000.0, 60_000.0, 1000.0);
    if ms >= minute {
        let hours = (ms / hour).floor();
        let rest = ms % hour;
        let minutes = (rest / minute).floor();
        let seconds = format!("{:.3}", (rest % minute) / second);
        let (whole, frac) = seconds.split_once('.').unwrap_or((&seconds, "000"));
        return Ok(if hours > 0.0 {
            format!("{hours}:{minutes:02}:{whole:0>2}.{frac} (h:mm:ss.mmm)")
        } else {
            format!("{minutes}:{whole:0>2}.{frac} (m:ss.mmm)")
        });
    }
    if ms >= second {
        return Ok(format!("{:.3}s", ms / second));
    }
    // `Number(ms.toFixed(3))`: the shortest form of the rounded value.
    let rounded: f64 = format!("{ms:.3}").parse().unwrap_or(0.0);
    Ok(format!("{}ms", vm.to_rust_string(Value::Number(rounded))?))
}

/// `console.assert(cond, ...data)`: nothing when `cond` is truthy; else, as Node,
/// `Assertion failed` or `Assertion failed: <first>` and the rest, written as a warning.
fn assert(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if vm.to_boolean(arg(args, 0)) {
        return done();
    }
    let mut text = String::from("Assertion failed");
    if let Some((first, rest)) = args.get(1..).and_then(|a| a.split_first()) {
        text.push_str(": ");
        text.push_str(&vm.to_rust_string(*first)?);
        if !rest.is_empty() {
            text.push(' ');
            text.push_str(&vm.display_all(rest)?);
        }
    }
    vm.push_console("[warn] ", text)?;
    done()
}

/// `console.trace(...data)`: `Trace: <data>` and the running frames, written as an error.
fn trace(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut text = String::from("Trace");
    if !args.is_empty() {
        text.push_str(": ");
        text.push_str(&vm.display_all(args)?);
    }
    if let Some(stack) = vm.capture_stack() {
        text.push_str(&vm.stack_lines(&stack));
    }
    vm.push_console("[error] ", text)?;
    done()
}

/// `console.dir(value)`: the value as `console.log` shows it (options are ignored).
fn dir(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let text = vm.display(arg(args, 0))?;
    vm.push_console("", text)?;
    done()
}
