//! `URLSearchParams`: a query's name/value pairs, as Node has them.
//!
//! The pairs live in the object's kind ([`UrlState::Params`]); the query text is read and
//! written by the `form_urlencoded` crate (`+` for a space, the WHATWG percent-encode set). A
//! URL's `searchParams` is linked to its URL: every change here rewrites the URL's query
//! (none when no pair is left), and `url.search = …` replaces the pairs (`url.rs`).
//! `keys()`/`values()`/`entries()` are live the way Node's are: an index into the current
//! pairs, so pairs appended later are still reached and a pair deleted before the index shifts
//! the rest; a finished iterator goes on when pairs are appended. `forEach` reads the pairs
//! again after each call.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::url::{PAIR_BYTES, UrlState, store_url};
use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{MapIterMode, ObjKind};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("URLSearchParams", 0, params_call, params_construct),
    NativeDef::new("URLSearchParams.prototype", "get size", 0, size),
    NativeDef::new("URLSearchParams.prototype", "append", 2, append),
    NativeDef::new("URLSearchParams.prototype", "delete", 1, delete),
    NativeDef::new("URLSearchParams.prototype", "get", 1, get),
    NativeDef::new("URLSearchParams.prototype", "getAll", 1, get_all),
    NativeDef::new("URLSearchParams.prototype", "has", 1, has),
    NativeDef::new("URLSearchParams.prototype", "set", 2, set),
    NativeDef::new("URLSearchParams.prototype", "sort", 0, sort),
    NativeDef::new("URLSearchParams.prototype", "entries", 0, |vm, this, _, _| {
        iterate(vm, this, MapIterMode::Entries)
    }),
    NativeDef::new("URLSearchParams.prototype", "forEach", 1, for_each),
    NativeDef::new("URLSearchParams.prototype", "keys", 0, |vm, this, _, _| {
        iterate(vm, this, MapIterMode::Keys)
    }),
    NativeDef::new("URLSearchParams.prototype", "values", 0, |vm, this, _, _| {
        iterate(vm, this, MapIterMode::Values)
    }),
    NativeDef::new("URLSearchParams.prototype", "toString", 0, to_string),
    NativeDef::new("URLSearchParamsIterator.prototype", "next", 0, next),
];

type Pairs = Vec<(String, String)>;

/// The pairs of a query string (no leading `?`).
pub(super) fn parse_query(query: &str) -> Pairs {
    form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

/// The query string of the pairs (`a=1&b=2`), charged before it is built.
fn serialize(vm: &mut Vm, list: &Pairs) -> Result<String, Throw> {
    let text: usize = list.iter().map(|(k, v)| k.len() + v.len() + 2).sum();
    vm.charge(Work::Bytes(text));
    vm.ensure_fits(text.saturating_mul(3))?;
    Ok(form_urlencoded::Serializer::new(String::new()).extend_pairs(list.iter()).finish())
}

fn pairs_bytes(list: &[(String, String)]) -> usize {
    list.iter().map(|(k, v)| PAIR_BYTES + k.len() + v.len()).sum()
}

/// A new `URLSearchParams` holding `list`, linked to `url` when it is a URL's `searchParams`.
pub(super) fn new_params(vm: &mut Vm, list: Pairs, url: Option<ObjId>) -> Result<ObjId, Throw> {
    vm.charge(Work::Elements(list.len()));
    let proto = Some(vm.realm.url_protos[1]);
    vm.alloc(ObjKind::Url(Box::new(UrlState::Params { list, url })), proto)
}

fn params_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let msg = "Class constructor URLSearchParams cannot be invoked without 'new'";
    Err(vm.make_error(ErrorKind::TypeError, msg))
}

fn invalid_tuple(vm: &mut Vm) -> Throw {
    let e = vm.make_error(ErrorKind::TypeError, "Each query pair must be an iterable [name, value] tuple");
    with_code(vm, e, "ERR_INVALID_TUPLE")
}

/// `e` with Node's `code` property.
pub(super) fn with_code(vm: &mut Vm, e: Value, code: &str) -> Throw {
    let defined = vm
        .new_string(code)
        .and_then(|v| Ok((vm.intern("code")?, v)))
        .and_then(|(a, v)| vm.define(e, Key::Atom(a), v));
    match defined {
        Ok(()) => e,
        Err(oom) => oom,
    }
}

/// `new URLSearchParams(init)`: a query string (a leading `?` dropped), an iterable of
/// `[name, value]` pairs (another `URLSearchParams` too), or an object's own enumerable
/// properties.
fn params_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let init = arg(args, 0);
    let list = match init {
        Value::Undefined | Value::Null => Vec::new(),
        Value::Obj(id) => {
            if let ObjKind::Url(state) = &vm.heap.obj(id).kind
                && let UrlState::Params { list, .. } = &**state
            {
                let list = list.clone();
                return Ok(Step::Return(Value::Obj(new_params(vm, list, None)?)));
            }
            let method = vm.get_value(init, Key::Atom(vm.realm.symbols.iterator))?;
            if method.is_nullish() {
                record_pairs(vm, id)?
            } else {
                if !vm.is_callable(method) {
                    let e = vm.make_error(ErrorKind::TypeError, "Query pairs must be iterable");
                    return Err(with_code(vm, e, "ERR_ARG_NOT_ITERABLE"));
                }
                let items =
                    match vm.collect_or_reenter(".URLSearchParams", true, Value::Undefined, args, 0)? {
                        Ok(items) => items,
                        Err(step) => return Ok(step),
                    };
                tuple_pairs(vm, items)?
            }
        }
        v => {
            let text = vm.to_rust_string(v)?;
            vm.charge(Work::Scan(text.len()));
            vm.ensure_fits(text.len().saturating_mul(2))?;
            parse_query(text.strip_prefix('?').unwrap_or(&text))
        }
    };
    Ok(Step::Return(Value::Obj(new_params(vm, list, None)?)))
}

/// The pairs of an iterable's items, each an iterable of exactly two values.
fn tuple_pairs(vm: &mut Vm, items: Vec<Value>) -> Result<Pairs, Throw> {
    vm.charge(Work::Elements(items.len()));
    let mut list = Vec::with_capacity(items.len());
    for item in items {
        let pair = match item {
            Value::Obj(id) => match &vm.heap.obj(id).kind {
                ObjKind::Array(values) => values.to_vec(),
                _ => vm.collect_iterable(item).map_err(|_| invalid_tuple(vm))?,
            },
            _ => return Err(invalid_tuple(vm)),
        };
        let [name, value] = pair[..] else { return Err(invalid_tuple(vm)) };
        let name = vm.to_rust_string(name)?;
        let value = vm.to_rust_string(value)?;
        vm.charge_memory(PAIR_BYTES + name.len() + value.len())?;
        list.push((name, value));
    }
    Ok(list)
}

/// The pairs of an object's own enumerable string-keyed properties (a later duplicate name,
/// which only a proxy could give, replaces the earlier value in place, as in Node).
fn record_pairs(vm: &mut Vm, id: ObjId) -> Result<Pairs, Throw> {
    let keys = vm.own_keys(id)?;
    vm.charge(Work::Elements(keys.len()));
    let mut list: Pairs = Vec::with_capacity(keys.len());
    for key in keys {
        let name = match key {
            Key::Atom(a) => vm.heap.atoms.name(a).to_string(),
            Key::Index(i) => i.to_string(),
        };
        let v = vm.get_value(Value::Obj(id), key)?;
        let value = vm.to_rust_string(v)?;
        vm.charge_memory(PAIR_BYTES + name.len() + value.len())?;
        list.push((name, value));
    }
    Ok(list)
}

/// The `URLSearchParams` behind `this`, or Node's `TypeError` for another receiver.
fn this_params(vm: &mut Vm, this: Value) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && let ObjKind::Url(state) = &vm.heap.obj(id).kind
        && let UrlState::Params { .. } = &**state
    {
        return Ok(id);
    }
    let e = vm.make_error(ErrorKind::TypeError, "Value of \"this\" must be of type URLSearchParams");
    Err(with_code(vm, e, "ERR_INVALID_THIS"))
}

/// The pairs of a `URLSearchParams` (empty for anything else), and the fuel to look through them.
fn list_of(vm: &mut Vm, id: ObjId) -> &Pairs {
    static EMPTY: Pairs = Vec::new();
    let n = match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Params { list, .. } => list.len(),
            _ => 0,
        },
        _ => 0,
    };
    vm.charge(Work::Elements(n));
    match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Params { list, .. } => list,
            _ => &EMPTY,
        },
        _ => &EMPTY,
    }
}

/// Changes the pairs with `f` (the caller charged what it looks through), then rewrites the
/// linked URL's query.
fn update(vm: &mut Vm, id: ObjId, growth: usize, f: impl FnOnce(&mut Pairs)) -> Result<(), Throw> {
    vm.charge_memory(growth)?;
    if let ObjKind::Url(state) = &mut vm.heap.obj_mut(id).kind
        && let UrlState::Params { list, .. } = &mut **state
    {
        f(list);
    }
    url_follows_params(vm, id)
}

/// Replaces the pairs (the URL's query was set): the URL is not rewritten.
pub(super) fn replace_list(vm: &mut Vm, id: ObjId, pairs: Pairs) -> Result<(), Throw> {
    vm.charge(Work::Elements(pairs.len()));
    vm.charge_memory(pairs_bytes(&pairs))?;
    if let ObjKind::Url(state) = &mut vm.heap.obj_mut(id).kind
        && let UrlState::Params { list, .. } = &mut **state
    {
        *list = pairs;
    }
    Ok(())
}

/// The URL's update steps: its query becomes the serialized pairs, or none when that is empty.
fn url_follows_params(vm: &mut Vm, id: ObjId) -> Result<(), Throw> {
    let (url, list) = match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Params { list, url: Some(url) } => (*url, list.clone()),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    let Some(href) = super::url::href_of(vm, url) else { return Ok(()) };
    let query = serialize(vm, &list)?;
    vm.charge(Work::Scan(href.len()));
    let Ok(mut parsed) = url::Url::parse(&href) else { return Ok(()) };
    parsed.set_query((!query.is_empty()).then_some(query.as_str()));
    store_url(vm, url, parsed)
}

fn text_arg(vm: &mut Vm, args: &[Value], i: usize) -> Result<String, Throw> {
    vm.to_rust_string(arg(args, i))
}

fn missing(vm: &mut Vm, args: &[Value], needed: usize) -> Result<(), Throw> {
    if args.len() >= needed {
        return Ok(());
    }
    let msg = if needed == 2 {
        "The \"name\" and \"value\" arguments must be specified"
    } else {
        "The \"name\" argument must be specified"
    };
    let e = vm.make_error(ErrorKind::TypeError, msg);
    Err(with_code(vm, e, "ERR_MISSING_ARGS"))
}

fn size(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    let n = match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Params { list, .. } => list.len(),
            _ => 0,
        },
        _ => 0,
    };
    Ok(Step::Return(Value::Number(n as f64)))
}

fn append(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    missing(vm, args, 2)?;
    let (name, value) = (text_arg(vm, args, 0)?, text_arg(vm, args, 1)?);
    let growth = PAIR_BYTES + name.len() + value.len();
    update(vm, id, growth, |list| list.push((name, value)))?;
    Ok(Step::Return(Value::Undefined))
}

/// `delete(name)`, or with a value only the pairs with that value too.
fn delete(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    missing(vm, args, 1)?;
    let name = text_arg(vm, args, 0)?;
    let value = match arg(args, 1) {
        Value::Undefined => None,
        v => Some(vm.to_rust_string(v)?),
    };
    list_of(vm, id);
    update(vm, id, 0, |list| {
        list.retain(|(k, v)| *k != name || value.as_ref().is_some_and(|value| v != value))
    })?;
    Ok(Step::Return(Value::Undefined))
}

fn get(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    missing(vm, args, 1)?;
    let name = text_arg(vm, args, 0)?;
    let found = list_of(vm, id).iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
    Ok(Step::Return(match found {
        Some(v) => vm.new_string_owned(v)?,
        None => Value::Null,
    }))
}

fn get_all(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    missing(vm, args, 1)?;
    let name = text_arg(vm, args, 0)?;
    let found: Vec<String> =
        list_of(vm, id).iter().filter(|(k, _)| *k == name).map(|(_, v)| v.clone()).collect();
    let mut values = Vec::with_capacity(found.len());
    for v in found {
        values.push(vm.new_string_owned(v)?);
    }
    Ok(Step::Return(vm.new_array(values)?))
}

/// `has(name)`, or with a value whether that pair is there.
fn has(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    missing(vm, args, 1)?;
    let name = text_arg(vm, args, 0)?;
    let value = match arg(args, 1) {
        Value::Undefined => None,
        v => Some(vm.to_rust_string(v)?),
    };
    let found =
        list_of(vm, id).iter().any(|(k, v)| *k == name && value.as_ref().is_none_or(|value| v == value));
    Ok(Step::Return(Value::Bool(found)))
}

/// `set(name, value)`: the first pair of that name takes the value, the others go; none: appended.
fn set(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    missing(vm, args, 2)?;
    let (name, value) = (text_arg(vm, args, 0)?, text_arg(vm, args, 1)?);
    let growth = PAIR_BYTES + name.len() + value.len();
    list_of(vm, id);
    update(vm, id, growth, |list| match list.iter().position(|(k, _)| *k == name) {
        Some(first) => {
            let mut i = 0;
            list.retain(|(k, _)| {
                i += 1;
                i - 1 <= first || *k != name
            });
            if let Some(pair) = list.get_mut(first) {
                pair.1 = value;
            }
        }
        None => list.push((name, value)),
    })?;
    Ok(Step::Return(Value::Undefined))
}

/// `sort()`: stable, by the names' UTF-16 code units (as JavaScript compares strings).
fn sort(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    let (n, text) = {
        let list = list_of(vm, id);
        (list.len(), list.iter().map(|(k, _)| k.len()).sum::<usize>())
    };
    // Each of the n log n comparisons reads up to a name's length.
    let rounds = (usize::BITS - n.leading_zeros()) as usize;
    vm.charge(Work::Sort(n));
    vm.charge(Work::Bytes(text.saturating_mul(rounds)));
    update(vm, id, 0, |list| list.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16())))?;
    Ok(Step::Return(Value::Undefined))
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_params(vm, this)?;
    let list = list_of(vm, id).clone();
    let text = serialize(vm, &list)?;
    Ok(Step::Return(vm.new_string_owned(text)?))
}

/// The query string of a `URLSearchParams` object, for the JSON boundary (`None` for anything
/// else).
pub(crate) fn query_of(vm: &mut Vm, id: ObjId) -> Result<Option<String>, Throw> {
    let list = match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Params { list, .. } => list.clone(),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    serialize(vm, &list).map(Some)
}

// ---- iteration ----

fn iterate(vm: &mut Vm, this: Value, mode: MapIterMode) -> Result<Step, Throw> {
    let params = this_params(vm, this)?;
    let proto = Some(vm.realm.url_protos[2]);
    let it = vm.alloc(ObjKind::Url(Box::new(UrlState::Iter { params, next: 0, mode })), proto)?;
    Ok(Step::Return(Value::Obj(it)))
}

/// The iterator's `next()`: the pair at its index in the pairs as they are now.
fn next(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let state = match this {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::Url(state) => match &**state {
                UrlState::Iter { params, next, mode } => Some((id, *params, *next, *mode)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let Some((it, params, index, mode)) = state else {
        let msg = "Value of \"this\" must be of type URLSearchParamsIterator";
        let e = vm.make_error(ErrorKind::TypeError, msg);
        return Err(with_code(vm, e, "ERR_INVALID_THIS"));
    };
    let pair = match &vm.heap.obj(params).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Params { list, .. } => list.get(index as usize).cloned(),
            _ => None,
        },
        _ => None,
    };
    let Some((name, value)) = pair else {
        return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?));
    };
    if let ObjKind::Url(state) = &mut vm.heap.obj_mut(it).kind
        && let UrlState::Iter { next, .. } = &mut **state
    {
        *next = index.saturating_add(1);
    }
    let item = match mode {
        MapIterMode::Keys => vm.new_string_owned(name)?,
        MapIterMode::Values => vm.new_string_owned(value)?,
        MapIterMode::Entries => {
            let (k, v) = (vm.new_string_owned(name)?, vm.new_string_owned(value)?);
            vm.new_array(vec![k, v])?
        }
    };
    Ok(Step::Return(vm.iter_result(item, false)?))
}

/// `forEach(callback, thisArg)` between two calls: the next pair to visit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForEach {
    params: ObjId,
    callback: Value,
    this_arg: Value,
    next: u32,
}

impl ForEach {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([Value::Obj(self.params), self.callback, self.this_arg]);
    }
}

fn for_each(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let params = this_params(vm, this)?;
    let callback = arg(args, 0);
    if !vm.is_callable(callback) {
        let msg = "The \"callback\" argument must be of type function";
        let e = vm.make_error(ErrorKind::TypeError, msg);
        return Err(with_code(vm, e, "ERR_INVALID_ARG_TYPE"));
    }
    for_each_step(vm, ForEach { params, callback, this_arg: arg(args, 1), next: 0 })
}

/// Calls the callback with the pair at the index in the pairs as they are now, or finishes.
fn for_each_step(vm: &mut Vm, mut state: ForEach) -> Result<Step, Throw> {
    vm.charge(Work::Elements(1));
    let pair = match &vm.heap.obj(state.params).kind {
        ObjKind::Url(s) => match &**s {
            UrlState::Params { list, .. } => list.get(state.next as usize).cloned(),
            _ => None,
        },
        _ => None,
    };
    let Some((name, value)) = pair else { return Ok(Step::Return(Value::Undefined)) };
    state.next = state.next.saturating_add(1);
    let (k, v) = (vm.new_string_owned(name)?, vm.new_string_owned(value)?);
    Ok(Step::Call {
        callee: state.callback,
        this: state.this_arg,
        args: vec![v, k, Value::Obj(state.params)],
        cont: Cont::UrlForEach(Box::new(state)),
    })
}

pub(super) fn resume_for_each(vm: &mut Vm, state: ForEach) -> Result<Step, Throw> {
    for_each_step(vm, state)
}
