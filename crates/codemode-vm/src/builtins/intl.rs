//! A small `Intl`: `NumberFormat`, `DateTimeFormat` and `Collator`, enough for the formatting
//! idioms programs use (`new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
//! .format(x)`, `new Intl.Collator(undefined, { numeric: true }).compare`).
//!
//! They are thin wrappers over the built-ins that already do the work: `format` is
//! `Number.prototype.toLocaleString` / `Date.prototype.toLocaleDateString` with the locales and
//! options given to the constructor, `compare` is `localeCompare` with them. The constructed
//! object holds `format`/`compare` as an own function bound (as plain data) to those arguments.
//! Output is `en-US` (a few other locales' number separators), dates in UTC; see
//! [`super::number`], [`super::date`] and [`super::string`].

use super::collation::{collate_options, collate_with};
use super::date::{Defaults, locale_format, time_of};
use super::number::{format_locale, resolve_locale_options};
use super::{Native, NativeDef, Step, arg, table};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef {
        owner: "Intl",
        name: "NumberFormat",
        arity: 0,
        f: number_format,
        construct: Some(nf_construct),
    },
    NativeDef {
        owner: "Intl",
        name: "DateTimeFormat",
        arity: 0,
        f: date_time_format,
        construct: Some(dtf_construct),
    },
    NativeDef { owner: "Intl", name: "Collator", arity: 0, f: collator, construct: Some(collator_construct) },
    NativeDef::new("#internal", "intlNumberFormatFormat", 1, nf_format),
    NativeDef::new("#internal", "intlDateTimeFormatFormat", 1, dtf_format),
    NativeDef::new("#internal", "intlCollatorCompare", 2, collator_compare),
];

/// The index of an internal helper of this module.
fn native(name: &str) -> Native {
    let i = table().iter().position(|d| d.owner == "#internal" && d.name == name).unwrap_or(0);
    Native(i as u16)
}

/// `{ <method>: bound(locales, options) }`.
fn formatter(vm: &mut Vm, method: &str, helper: &str, args: &[Value]) -> Result<Step, Throw> {
    let obj = vm.new_object()?;
    let f = vm.alloc_native(native(helper), vec![arg(args, 0), arg(args, 1)])?;
    if let Value::Obj(id) = obj {
        vm.define_hidden(id, method, f);
    }
    Ok(Step::Return(obj))
}

fn nf_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    // Validate the options now, as the constructor does.
    resolve_locale_options(vm, arg(args, 0), arg(args, 1))?;
    formatter(vm, "format", "intlNumberFormatFormat", args)
}

fn number_format(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    nf_construct(vm, args)
}

fn nf_format(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let opts = resolve_locale_options(vm, arg(data, 0), arg(data, 1))?;
    let x = vm.to_number(arg(args, 0))?;
    Ok(Step::Return(vm.new_string_owned(format_locale(x, &opts))?))
}

fn dtf_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    locale_format(vm, 0.0, arg(args, 1), Defaults::Date)?;
    formatter(vm, "format", "intlDateTimeFormatFormat", args)
}

fn date_time_format(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    dtf_construct(vm, args)
}

fn dtf_format(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let t = time_of(vm, arg(args, 0))?;
    let s = locale_format(vm, t, arg(data, 1), Defaults::Date)?;
    Ok(Step::Return(vm.new_string_owned(s)?))
}

fn collator_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    collate_options(vm, arg(args, 1))?;
    formatter(vm, "compare", "intlCollatorCompare", args)
}

fn collator(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    collator_construct(vm, args)
}

fn collator_compare(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let options = collate_options(vm, arg(data, 1))?;
    let a = vm.to_rust_string(arg(args, 0))?;
    let b = vm.to_rust_string(arg(args, 1))?;
    vm.charge(Work::Scan(a.len() + b.len()));
    let order = collate_with(&a, &b, options);
    Ok(Step::Return(Value::Number(match order {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    })))
}
