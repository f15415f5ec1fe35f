//! The RegExp protocol: `RegExp.prototype[Symbol.match | matchAll | replace | search | split]`,
//! and the step the String methods take first: an object argument with a matcher of its own (a
//! program's `{ [Symbol.replace](s, r) { … } }`, a RegExp subclass overriding `[Symbol.split]`)
//! is called instead of being read as a pattern.
//!
//! The built-in matchers run the String methods' RegExp paths (`*_impl`), which never look for a
//! matcher again, so a subclass's matcher calling `super[Symbol.split]` cannot loop. They take a
//! RegExp `this` only: a program's object with an `exec` of its own (which the specification's
//! generic algorithms call) is refused with a TypeError saying so.

use std::sync::LazyLock;

use codemode_bytecode::ErrorKind;

use super::{Native, NativeDef, Step, arg, regexp, string, string_split};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, IterState, ObjKind};
use crate::props::Key;
use crate::value::{Atom, ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("RegExp.prototype", "@@match", 1, symbol_match),
    NativeDef::new("RegExp.prototype", "@@matchAll", 1, symbol_match_all),
    NativeDef::new("RegExp.prototype", "@@replace", 2, symbol_replace),
    NativeDef::new("RegExp.prototype", "@@search", 1, symbol_search),
    NativeDef::new("RegExp.prototype", "@@split", 2, symbol_split),
];

/// Which matcher a String method asks its argument for.
#[derive(Clone, Copy)]
pub(super) enum Matcher {
    Match,
    MatchAll,
    Replace,
    Search,
    Split,
}

impl Matcher {
    fn symbol(self, vm: &Vm) -> Atom {
        let s = &vm.realm.symbols;
        match self {
            Matcher::Match => s.match_,
            Matcher::MatchAll => s.match_all,
            Matcher::Replace => s.replace,
            Matcher::Search => s.search,
            Matcher::Split => s.split,
        }
    }

    /// The built-in matcher, which the String method's own path stands for.
    fn builtin(self) -> Option<Native> {
        static BUILTINS: LazyLock<[Option<Native>; 5]> = LazyLock::new(|| {
            ["@@match", "@@matchAll", "@@replace", "@@search", "@@split"]
                .map(|name| Native::by_stable_name(&format!("RegExp.prototype.{name}")))
        });
        BUILTINS[self as usize]
    }

    /// How many of the String method's arguments the matcher gets after the string.
    fn extra_args(self) -> usize {
        match self {
            Matcher::Replace | Matcher::Split => 1,
            Matcher::Match | Matcher::MatchAll | Matcher::Search => 0,
        }
    }
}

/// The specification's first step of `String.prototype.match` & co: when the argument is an
/// object whose matcher is not the built-in one, the step that calls it with the receiver (not
/// converted) and the method's other arguments; `None` to go on with the built-in path.
pub(super) fn delegate(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    matcher: Matcher,
) -> Result<Option<Step>, Throw> {
    let pattern = arg(args, 0);
    if this.is_nullish() || !matches!(pattern, Value::Obj(_)) {
        return Ok(None);
    }
    let symbol = matcher.symbol(vm);
    let method = vm.get_value(pattern, Key::Atom(symbol))?;
    if method.is_nullish() || is_native(vm, method, matcher.builtin()) {
        return Ok(None);
    }
    if !vm.is_callable(method) {
        let msg = format!("{} is not a function", vm.key_display(Key::Atom(symbol)));
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let mut call_args = Vec::with_capacity(1 + matcher.extra_args());
    call_args.push(this);
    call_args.extend((1..=matcher.extra_args()).map(|i| arg(args, i)));
    Ok(Some(Step::TailCall { callee: method, this: pattern, args: call_args }))
}

/// `replaceAll` and `matchAll` refuse an argument that is a RegExp (or says it is one through a
/// truthy `[Symbol.match]`) without the `g` flag in its `flags`.
pub(super) fn require_global(vm: &mut Vm, this: Value, pattern: Value, method: &str) -> Result<(), Throw> {
    if this.is_nullish() || !matches!(pattern, Value::Obj(_)) {
        return Ok(());
    }
    let says = vm.get_value(pattern, Key::Atom(vm.realm.symbols.match_))?;
    let is_regexp =
        if says == Value::Undefined { regexp::as_regexp(vm, pattern).is_some() } else { vm.to_boolean(says) };
    if !is_regexp {
        return Ok(());
    }
    let flags = vm.get_named(pattern, "flags")?;
    if flags.is_nullish() {
        let msg = format!(
            "The .flags property of the argument to String.prototype.{method} cannot be null or undefined"
        );
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    if !vm.to_rust_string(flags)?.contains('g') {
        let msg = format!("String.prototype.{method} called with a non-global RegExp argument");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    Ok(())
}

fn is_native(vm: &Vm, v: Value, native: Option<Native>) -> bool {
    match v {
        Value::Obj(f) => matches!(
            vm.heap.obj(f).kind,
            ObjKind::Function(Callable::Native { native: n, .. }) if Some(n) == native
        ),
        _ => false,
    }
}

/// The RegExp `this` of a built-in matcher, with its string argument converted (a program's
/// `toString` runs first, through [`super::prim_args`]).
fn receiver(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    name: &str,
) -> Result<Result<(ObjId, Value), Step>, Throw> {
    let Some(re) = regexp::as_regexp(vm, this) else {
        let msg = if matches!(this, Value::Obj(_)) {
            format!(
                "RegExp.prototype[Symbol.{name}] called on an object that is not a RegExp (objects with \
                 their own exec are not supported)"
            )
        } else {
            format!("RegExp.prototype[Symbol.{name}] called on a non-object")
        };
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    };
    let stable = format!("RegExp.prototype.@@{name}");
    if let Some(step) = super::prim_args::convert_args(vm, &stable, false, this, args, 0)? {
        return Ok(Err(step));
    }
    let text = vm.to_rust_string(arg(args, 0))?;
    let subject = match arg(args, 0) {
        s @ Value::Str(_) => s,
        _ => vm.new_string(&text)?,
    };
    Ok(Ok((re, subject)))
}

fn symbol_match(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    match receiver(vm, this, args, "match")? {
        Ok((re, subject)) => string::match_impl(vm, subject, &[Value::Obj(re)]),
        Err(step) => Ok(step),
    }
}

fn symbol_match_all(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (re, subject) = match receiver(vm, this, args, "matchAll")? {
        Ok(pair) => pair,
        Err(step) => return Ok(step),
    };
    if regexp::flags_of(vm, re).contains('g') {
        return string::match_all_impl(vm, subject, &[Value::Obj(re)]);
    }
    // A non-global expression gives its first match only.
    let first = regexp::exec(vm, re, subject)?;
    let items = if first == Value::Null { Vec::new() } else { vec![first] };
    Ok(Step::Return(vm.new_iterator(IterState::List { items, next: 0 })?))
}

fn symbol_replace(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    match receiver(vm, this, args, "replace")? {
        Ok((re, subject)) => string::replace_impl(vm, subject, &[Value::Obj(re), arg(args, 1)], false),
        Err(step) => Ok(step),
    }
}

fn symbol_search(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    match receiver(vm, this, args, "search")? {
        Ok((re, subject)) => string::search_impl(vm, subject, &[Value::Obj(re)]),
        Err(step) => Ok(step),
    }
}

fn symbol_split(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    match receiver(vm, this, args, "split")? {
        Ok((re, subject)) => string_split::split_impl(vm, subject, &[Value::Obj(re), arg(args, 1)]),
        Err(step) => Ok(step),
    }
}
