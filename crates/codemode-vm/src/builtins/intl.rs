//! A small `Intl`: `NumberFormat` and `DateTimeFormat` (`format`, `formatToParts`) and `Collator`, enough for the formatting
//! idioms programs use (`new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
//! .format(x)`, `new Intl.Collator(undefined, { numeric: true }).compare`).
//!
//! They are thin wrappers over the built-ins that already do the work: `format` is
//! `Number.prototype.toLocaleString` / `Date.prototype.toLocaleDateString` with the locales and
//! options given to the constructor, `compare` is `localeCompare` with them. The constructed
//! object holds `format`/`compare` as an own function bound (as plain data) to those arguments.
//! Output is `en-US` (a few other locales' number separators), dates in UTC or the `timeZone`
//! given; see [`super::number`], [`super::date_locale`] and [`super::string`].

use super::collation::collate_options;
use super::date_locale::{Defaults, locale_format, locale_parts, time_of};
use super::intl_parts::{number_parts, parts_array};
use super::number::{format_locale, resolve_locale_options};
use super::{Native, NativeDef, Step, arg, table};
use crate::Vm;
use crate::call::Throw;
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
    NativeDef::new("#internal", "intlNumberFormatFormatToParts", 1, nf_format_to_parts),
    NativeDef::new("#internal", "intlDateTimeFormatFormatToParts", 1, dtf_format_to_parts),
];

/// The index of an internal helper of this module.
fn native(name: &str) -> Native {
    let i = table().iter().position(|d| d.owner == "#internal" && d.name == name).unwrap_or(0);
    Native(i as u16)
}

/// `{ <method>: bound(locales, options), ... }` for each `(method, helper)`.
fn formatter(vm: &mut Vm, methods: &[(&str, &str)], args: &[Value]) -> Result<Step, Throw> {
    let obj = vm.new_object()?;
    for (method, helper) in methods {
        let f = vm.alloc_native(native(helper), vec![arg(args, 0), arg(args, 1)])?;
        if let Value::Obj(id) = obj {
            vm.define_hidden(id, method, f);
        }
    }
    Ok(Step::Return(obj))
}

fn nf_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    // Validate the options now, as the constructor does.
    resolve_locale_options(vm, arg(args, 0), arg(args, 1))?;
    let methods = [("format", "intlNumberFormatFormat"), ("formatToParts", "intlNumberFormatFormatToParts")];
    formatter(vm, &methods, args)
}

fn number_format(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    nf_construct(vm, args)
}

fn nf_format(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let opts = resolve_locale_options(vm, arg(data, 0), arg(data, 1))?;
    let x = vm.to_number(arg(args, 0))?;
    Ok(Step::Return(vm.new_string_owned(format_locale(x, &opts))?))
}

/// `formatToParts(x)`: [`format_locale`]'s text in typed pieces (`intl_parts.rs`).
fn nf_format_to_parts(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let opts = resolve_locale_options(vm, arg(data, 0), arg(data, 1))?;
    let x = vm.to_number(arg(args, 0))?;
    let text = format_locale(x, &opts);
    let parts = number_parts(&text, &opts);
    Ok(Step::Return(parts_array(vm, parts)?))
}

fn dtf_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    locale_format(vm, 0.0, arg(args, 1), Defaults::Any)?;
    let methods =
        [("format", "intlDateTimeFormatFormat"), ("formatToParts", "intlDateTimeFormatFormatToParts")];
    formatter(vm, &methods, args)
}

fn date_time_format(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    dtf_construct(vm, args)
}

fn dtf_format(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let t = time_of(vm, arg(args, 0))?;
    let s = locale_format(vm, t, arg(data, 1), Defaults::Any)?;
    Ok(Step::Return(vm.new_string_owned(s)?))
}

fn dtf_format_to_parts(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let t = time_of(vm, arg(args, 0))?;
    let parts = locale_parts(vm, t, arg(data, 1), Defaults::Any)?;
    Ok(Step::Return(parts_array(vm, parts)?))
}

fn collator_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    collate_options(vm, arg(args, 1))?;
    formatter(vm, &[("compare", "intlCollatorCompare")], args)
}

fn collator(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    collator_construct(vm, args)
}

fn collator_compare(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let options = collate_options(vm, arg(data, 1))?;
    let a = vm.to_rust_string(arg(args, 0))?;
    let b = vm.to_rust_string(arg(args, 1))?;
    let order = super::collation::collate_charged(vm, &a, &b, options)?;
    Ok(Step::Return(Value::Number(match order {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    })))
}
