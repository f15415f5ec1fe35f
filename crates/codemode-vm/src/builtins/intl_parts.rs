//! `formatToParts` of `Intl.NumberFormat` and `Intl.DateTimeFormat`: the formatted string in
//! typed pieces, as an array of `{ type, value }`. The pieces always concatenate to what
//! `format` gives: dates are built in pieces by [`super::date_locale::date_parts`] (which `format`
//! joins), numbers are the formatted text split by what each character is (the options say which
//! separators and currency symbol the text uses).

use super::date_locale::DateParts;
use super::number::{LocaleOptions, currency_symbol};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::props::Key;
use crate::value::Value;

/// The pieces of `text`, a number [`super::number::format_locale`] formatted with `opts`, typed
/// as ICU types them (`minusSign`, `currency`, `integer`, `group`, `decimal`, `fraction`,
/// `percentSign`, `compact`, `exponentSeparator`, `exponentMinusSign`, `exponentInteger`,
/// `nan`, `infinity`, `literal`).
pub(super) fn number_parts(text: &str, opts: &LocaleOptions) -> DateParts {
    let symbol = (opts.style == "currency").then(|| currency_symbol(&opts.currency).trim_end().to_string());
    let exponent = matches!(opts.notation.as_str(), "scientific" | "engineering");
    let (mut after_decimal, mut after_exponent) = (false, false);
    let mut parts: DateParts = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let (kind, len) = if rest.starts_with("NaN") {
            ("nan", 3)
        } else if c == '∞' {
            ("infinity", c.len_utf8())
        } else if c == '-' {
            (if after_exponent { "exponentMinusSign" } else { "minusSign" }, 1)
        } else if let Some(sym) = symbol.as_deref().filter(|s| !s.is_empty() && rest.starts_with(s)) {
            ("currency", sym.len())
        } else if c.is_ascii_digit() {
            let len = rest.find(|d: char| !d.is_ascii_digit()).unwrap_or(rest.len());
            let kind = if after_exponent {
                "exponentInteger"
            } else if after_decimal {
                "fraction"
            } else {
                "integer"
            };
            (kind, len)
        } else if !after_decimal && !after_exponent && rest.starts_with(opts.decimal_sep) {
            after_decimal = true;
            ("decimal", opts.decimal_sep.len())
        } else if !after_decimal && !opts.group_sep.is_empty() && rest.starts_with(opts.group_sep) {
            ("group", opts.group_sep.len())
        } else if c == '%' {
            ("percentSign", 1)
        } else if exponent && c == 'E' {
            after_exponent = true;
            ("exponentSeparator", 1)
        } else if c.is_alphabetic() {
            ("compact", rest.find(|a: char| !a.is_alphabetic()).unwrap_or(rest.len()))
        } else {
            ("literal", c.len_utf8())
        };
        let (piece, tail) = rest.split_at(len.min(rest.len()).max(c.len_utf8()));
        match parts.last_mut() {
            // One literal for a run of them, as ICU gives.
            Some(("literal", prev)) if kind == "literal" => prev.push_str(piece),
            _ => parts.push((kind, piece.to_string())),
        }
        rest = tail;
    }
    parts
}

/// `[{ type, value }, ...]` for the program.
pub(super) fn parts_array(vm: &mut Vm, parts: DateParts) -> Result<Value, Throw> {
    vm.charge(Work::Elements(parts.len()));
    let (type_key, value_key) = (Key::Atom(vm.intern("type")?), Key::Atom(vm.intern("value")?));
    let mut items = Vec::with_capacity(parts.len());
    for (kind, text) in parts {
        let part = vm.new_object()?;
        let kind = vm.new_string(kind)?;
        let text = vm.new_string_owned(text)?;
        vm.define(part, type_key, kind)?;
        vm.define(part, value_key, text)?;
        items.push(part);
    }
    vm.new_array(items)
}
