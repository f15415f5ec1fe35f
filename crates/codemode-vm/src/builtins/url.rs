//! `URL`: the WHATWG URL API as Node has it (`new URL(input, base)`, its component getters and
//! setters, `searchParams`, `URL.canParse`, `URL.parse`).
//!
//! Parsing, serialization and every setter are the `url` crate's (its `quirks` module is the
//! WHATWG API surface); nothing here parses URL syntax. A URL's state is its serialization
//! ([`UrlState::Url`]), kept in the object's kind where no program can write it, and parsed
//! again by each operation (URLs are short; the text is the one form that saves and restores
//! as plain data). `searchParams` is made on first read and linked both ways with its URL
//! (`url_search_params.rs`): changing one updates the other.
//!
//! [`UrlState`] also holds `URLSearchParams` objects and their iterators, so the three share one
//! object kind.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};
use url::{Url, quirks};

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{HIDDEN, MapIterMode, ObjKind, READONLY};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("URL", 1, url_call, url_construct),
    NativeDef::new("URL", "parse", 1, parse),
    NativeDef::new("URL", "canParse", 1, can_parse),
    NativeDef::new("URL.prototype", "toString", 0, href),
    NativeDef::new("URL.prototype", "get href", 0, href),
    NativeDef::new("URL.prototype", "get origin", 0, |vm, this, _, _| part(vm, this, "origin")),
    NativeDef::new("URL.prototype", "get protocol", 0, |vm, this, _, _| part(vm, this, "protocol")),
    NativeDef::new("URL.prototype", "get username", 0, |vm, this, _, _| part(vm, this, "username")),
    NativeDef::new("URL.prototype", "get password", 0, |vm, this, _, _| part(vm, this, "password")),
    NativeDef::new("URL.prototype", "get host", 0, |vm, this, _, _| part(vm, this, "host")),
    NativeDef::new("URL.prototype", "get hostname", 0, |vm, this, _, _| part(vm, this, "hostname")),
    NativeDef::new("URL.prototype", "get port", 0, |vm, this, _, _| part(vm, this, "port")),
    NativeDef::new("URL.prototype", "get pathname", 0, |vm, this, _, _| part(vm, this, "pathname")),
    NativeDef::new("URL.prototype", "get search", 0, |vm, this, _, _| part(vm, this, "search")),
    NativeDef::new("URL.prototype", "get searchParams", 0, search_params),
    NativeDef::new("URL.prototype", "get hash", 0, |vm, this, _, _| part(vm, this, "hash")),
    NativeDef::new("URL.prototype", "toJSON", 0, href),
    // The setters, attached to the getters' accessors by `install_values`.
    NativeDef::new("#internal", "urlSetHref", 1, |vm, this, args, _| set(vm, this, args, "href")),
    NativeDef::new("#internal", "urlSetProtocol", 1, |vm, this, args, _| set(vm, this, args, "protocol")),
    NativeDef::new("#internal", "urlSetUsername", 1, |vm, this, args, _| set(vm, this, args, "username")),
    NativeDef::new("#internal", "urlSetPassword", 1, |vm, this, args, _| set(vm, this, args, "password")),
    NativeDef::new("#internal", "urlSetHost", 1, |vm, this, args, _| set(vm, this, args, "host")),
    NativeDef::new("#internal", "urlSetHostname", 1, |vm, this, args, _| set(vm, this, args, "hostname")),
    NativeDef::new("#internal", "urlSetPort", 1, |vm, this, args, _| set(vm, this, args, "port")),
    NativeDef::new("#internal", "urlSetPathname", 1, |vm, this, args, _| set(vm, this, args, "pathname")),
    NativeDef::new("#internal", "urlSetSearch", 1, |vm, this, args, _| set(vm, this, args, "search")),
    NativeDef::new("#internal", "urlSetHash", 1, |vm, this, args, _| set(vm, this, args, "hash")),
];

/// The accessors with a setter, and the setter's built-in.
const SETTERS: &[(&str, &str)] = &[
    ("href", "#internal.urlSetHref"),
    ("protocol", "#internal.urlSetProtocol"),
    ("username", "#internal.urlSetUsername"),
    ("password", "#internal.urlSetPassword"),
    ("host", "#internal.urlSetHost"),
    ("hostname", "#internal.urlSetHostname"),
    ("port", "#internal.urlSetPort"),
    ("pathname", "#internal.urlSetPathname"),
    ("search", "#internal.urlSetSearch"),
    ("hash", "#internal.urlSetHash"),
];

/// Bytes charged per query pair besides its text (two `String` headers).
pub(super) const PAIR_BYTES: usize = 2 * std::mem::size_of::<String>();

/// The internal state of a `URL`, a `URLSearchParams` or a `URLSearchParams` iterator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum UrlState {
    /// A URL: its serialization (`href`), and its `searchParams` object once one was read.
    Url { href: String, params: Option<ObjId> },
    /// A query's name/value pairs, and the URL whose query they are (`url.searchParams`).
    Params { list: Vec<(String, String)>, url: Option<ObjId> },
    /// `keys()`/`values()`/`entries()`: live over `params`, as Node's are.
    Iter { params: ObjId, next: u32, mode: MapIterMode },
}

impl UrlState {
    /// Pushes the objects it refers to (GC roots).
    pub fn trace(&self, out: &mut Vec<Value>) {
        match self {
            UrlState::Url { params, .. } => out.extend(params.map(Value::Obj)),
            UrlState::Params { url, .. } => out.extend(url.map(Value::Obj)),
            UrlState::Iter { params, .. } => out.push(Value::Obj(*params)),
        }
    }

    /// Bytes held besides the object (memory accounting).
    pub fn extra_bytes(&self) -> usize {
        std::mem::size_of::<UrlState>()
            + match self {
                UrlState::Url { href, .. } => href.capacity(),
                UrlState::Params { list, .. } => {
                    list.capacity() * PAIR_BYTES + list.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>()
                }
                UrlState::Iter { .. } => 0,
            }
    }

    /// Whether a restored state is one this build could have made: a URL's text parses to
    /// itself (see `restore.rs`).
    pub fn is_valid(&self) -> bool {
        match self {
            UrlState::Url { href, .. } => Url::parse(href).is_ok_and(|u| u.as_str() == href),
            UrlState::Params { .. } | UrlState::Iter { .. } => true,
        }
    }
}

fn url_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Class constructor URL cannot be invoked without 'new'"))
}

fn url_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let (input, base) = inputs(vm, args)?;
    match parse_text(&input, base.as_deref()) {
        Some(url) => Ok(Step::Return(Value::Obj(new_url(vm, url)?))),
        None => Err(invalid_url(vm, &input, base.as_deref())),
    }
}

/// `URL.canParse(input, base)`.
fn can_parse(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (input, base) = inputs(vm, args)?;
    Ok(Step::Return(Value::Bool(parse_text(&input, base.as_deref()).is_some())))
}

/// `URL.parse(input, base)`: the URL, or `null` where `new URL` throws.
fn parse(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (input, base) = inputs(vm, args)?;
    Ok(Step::Return(match parse_text(&input, base.as_deref()) {
        Some(url) => Value::Obj(new_url(vm, url)?),
        None => Value::Null,
    }))
}

/// The input and base arguments as text (`undefined` base: none), charged for the parse.
fn inputs(vm: &mut Vm, args: &[Value]) -> Result<(String, Option<String>), Throw> {
    if args.is_empty() {
        let e = vm.make_error(ErrorKind::TypeError, "The \"url\" argument must be specified");
        return Err(super::url_search_params::with_code(vm, e, "ERR_MISSING_ARGS"));
    }
    let input = url_text(vm, arg(args, 0))?;
    let base = match arg(args, 1) {
        Value::Undefined => None,
        v => Some(url_text(vm, v)?),
    };
    let len = input.len() + base.as_ref().map_or(0, String::len);
    vm.charge(Work::Scan(len));
    // Percent-encoding at most triples the text; the parse builds it in Rust first.
    vm.ensure_fits(len.saturating_mul(3))?;
    Ok((input, base))
}

/// A URL argument's text: a URL's `href`, else `String(v)`.
fn url_text(vm: &mut Vm, v: Value) -> Result<String, Throw> {
    if let Value::Obj(id) = v
        && let ObjKind::Url(state) = &vm.heap.obj(id).kind
        && let UrlState::Url { href, .. } = &**state
    {
        return Ok(href.clone());
    }
    vm.to_rust_string(v)
}

fn parse_text(input: &str, base: Option<&str>) -> Option<Url> {
    match base {
        None => Url::parse(input).ok(),
        Some(base) => Url::parse(base).ok()?.join(input).ok(),
    }
}

/// Node's error for a text that is no URL: `TypeError: Invalid URL`, with `code` and `input`
/// (and `base` when one was given).
fn invalid_url(vm: &mut Vm, input: &str, base: Option<&str>) -> Throw {
    let e = vm.make_error(ErrorKind::TypeError, "Invalid URL");
    let mut fields = vec![("code", "ERR_INVALID_URL"), ("input", input)];
    fields.extend(base.map(|b| ("base", b)));
    for (name, text) in fields {
        let defined = vm
            .new_string(text)
            .and_then(|v| Ok((vm.intern(name)?, v)))
            .and_then(|(atom, v)| vm.define(e, Key::Atom(atom), v));
        if let Err(oom) = defined {
            return oom;
        }
    }
    e
}

fn new_url(vm: &mut Vm, url: Url) -> Result<ObjId, Throw> {
    let state = UrlState::Url { href: url.into(), params: None };
    let proto = Some(vm.realm.url_protos[0]);
    vm.alloc(ObjKind::Url(Box::new(state)), proto)
}

/// The URL behind `this`, parsed, or Node's `TypeError` for another receiver.
fn this_url(vm: &mut Vm, this: Value) -> Result<(ObjId, Url), Throw> {
    if let Value::Obj(id) = this
        && let ObjKind::Url(state) = &vm.heap.obj(id).kind
        && let UrlState::Url { href, .. } = &**state
    {
        let len = href.len();
        let parsed = Url::parse(href).ok();
        vm.charge(Work::Scan(len));
        return match parsed {
            Some(url) => Ok((id, url)),
            // Restore checks every saved URL; this is not reached.
            None => Err(vm.make_error(ErrorKind::TypeError, "the URL's saved state is invalid")),
        };
    }
    Err(vm.make_error(ErrorKind::TypeError, "Receiver must be an instance of class URL"))
}

/// `href`, `toString()` and `toJSON()`.
fn href(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, url) = this_url(vm, this)?;
    Ok(Step::Return(vm.new_string(url.as_str())?))
}

fn part(vm: &mut Vm, this: Value, name: &str) -> Result<Step, Throw> {
    let (_, url) = this_url(vm, this)?;
    let text = match name {
        "origin" => return Ok(Step::Return(vm.new_string(&quirks::origin(&url))?)),
        "protocol" => quirks::protocol(&url),
        "username" => quirks::username(&url),
        "password" => quirks::password(&url),
        "host" => quirks::host(&url),
        "hostname" => quirks::hostname(&url),
        "port" => quirks::port(&url),
        "pathname" => quirks::pathname(&url),
        "search" => quirks::search(&url),
        _ => quirks::hash(&url),
    };
    Ok(Step::Return(vm.new_string(text)?))
}

/// A component's setter: what the WHATWG setter ignores is ignored; only `href` throws.
fn set(vm: &mut Vm, this: Value, args: &[Value], name: &str) -> Result<Step, Throw> {
    let (id, mut url) = this_url(vm, this)?;
    let value = vm.to_rust_string(arg(args, 0))?;
    vm.charge(Work::Scan(value.len()));
    vm.ensure_fits(url.as_str().len().saturating_add(value.len().saturating_mul(3)))?;
    // Whether the query may have changed (the linked `searchParams` follows it).
    let mut query = false;
    match name {
        "href" => {
            if quirks::set_href(&mut url, &value).is_err() {
                return Err(invalid_url(vm, &value, None));
            }
            query = true;
        }
        "protocol" => drop(quirks::set_protocol(&mut url, &value)),
        "username" => drop(quirks::set_username(&mut url, &value)),
        "password" => drop(quirks::set_password(&mut url, &value)),
        "host" => drop(quirks::set_host(&mut url, &value)),
        "hostname" => drop(quirks::set_hostname(&mut url, &value)),
        "port" => drop(quirks::set_port(&mut url, &value)),
        "pathname" => quirks::set_pathname(&mut url, &value),
        "search" => {
            quirks::set_search(&mut url, &value);
            query = true;
        }
        _ => quirks::set_hash(&mut url, &value),
    }
    store_url(vm, id, url)?;
    if query {
        params_follow_url(vm, id)?;
    }
    Ok(Step::Return(Value::Undefined))
}

/// Stores a URL's new serialization (its growth charged first).
pub(super) fn store_url(vm: &mut Vm, id: ObjId, url: Url) -> Result<(), Throw> {
    let href: String = url.into();
    let old = match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Url { href, .. } => href.capacity(),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    vm.charge_memory(href.capacity().saturating_sub(old))?;
    if let ObjKind::Url(state) = &mut vm.heap.obj_mut(id).kind
        && let UrlState::Url { href: slot, .. } = &mut **state
    {
        *slot = href;
    }
    Ok(())
}

/// The URL's query as name/value pairs (none without a query).
fn query_pairs(url: &Url) -> Vec<(String, String)> {
    url.query().map_or_else(Vec::new, super::url_search_params::parse_query)
}

/// After the URL's query changed: its `searchParams` (if one was made) lists the new pairs.
fn params_follow_url(vm: &mut Vm, id: ObjId) -> Result<(), Throw> {
    let (params, href) = match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Url { params: Some(p), href } => (*p, href.clone()),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    let pairs = Url::parse(&href).map(|u| query_pairs(&u)).unwrap_or_default();
    super::url_search_params::replace_list(vm, params, pairs)
}

/// `url.searchParams`: the same `URLSearchParams` object every time, made on first read.
fn search_params(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, url) = this_url(vm, this)?;
    if let ObjKind::Url(state) = &vm.heap.obj(id).kind
        && let UrlState::Url { params: Some(p), .. } = &**state
    {
        return Ok(Step::Return(Value::Obj(*p)));
    }
    let list = query_pairs(&url);
    let params = super::url_search_params::new_params(vm, list, Some(id))?;
    if let ObjKind::Url(state) = &mut vm.heap.obj_mut(id).kind
        && let UrlState::Url { params: slot, .. } = &mut **state
    {
        *slot = Some(params);
    }
    Ok(Step::Return(Value::Obj(params)))
}

/// The href of a URL object, for the JSON boundary (`None` for anything else).
pub(crate) fn href_of(vm: &Vm, id: ObjId) -> Option<String> {
    match &vm.heap.obj(id).kind {
        ObjKind::Url(state) => match &**state {
            UrlState::Url { href, .. } => Some(href.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// What `String(v)` gives for a URL (its href) or a `URLSearchParams` (its query string), when
/// their built-in `toString` is the one that runs; `None` for an iterator.
pub(crate) fn to_text(vm: &mut Vm, id: ObjId) -> Result<Option<String>, Throw> {
    match href_of(vm, id) {
        Some(href) => Ok(Some(href)),
        None => super::url_search_params::query_of(vm, id),
    }
}

/// The setters, `@@toStringTag`s and `URLSearchParams.prototype[@@iterator]` (which is
/// `entries`, as in Node).
pub(crate) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    let [url_proto, params_proto, iter_proto] = vm.realm.url_protos;
    for (name, setter) in SETTERS {
        let Some(native) = super::Native::by_stable_name(setter) else { continue };
        let f = vm.alloc_native(native, Vec::new())?;
        let key = vm.builtin_key(name);
        vm.define_accessor(Value::Obj(url_proto), Key::Atom(key), None, Some(f))?;
    }
    let tag = vm.realm.symbols.to_string_tag;
    for (owner, name) in
        [(url_proto, "URL"), (params_proto, "URLSearchParams"), (iter_proto, "URLSearchParams Iterator")]
    {
        let text = vm.new_string(name)?;
        vm.heap.obj_mut(owner).props.set(tag, text, READONLY | HIDDEN);
    }
    // Web IDL members are enumerable (`for (k in url)` lists them in Node), unlike
    // ECMAScript built-ins.
    let global = vm.realm.global;
    let url_ctor = vm.get_named(Value::Obj(global), "URL")?;
    let (constructor, prototype) = (vm.realm.atoms.constructor, vm.realm.atoms.prototype);
    let owners = [url_proto, params_proto, iter_proto].into_iter().chain(match url_ctor {
        Value::Obj(id) => Some(id),
        _ => None,
    });
    for owner in owners.collect::<Vec<_>>() {
        let keys: Vec<_> = vm.heap.obj(owner).props.iter().map(|slot| slot.key).collect();
        for key in keys {
            if key == constructor || key == prototype || vm.heap.atoms.is_symbol(key) {
                continue;
            }
            let props = &mut vm.heap.obj_mut(owner).props;
            if let Some(slot) = props.find(key).and_then(|i| props.slot_mut(i)) {
                slot.flags &= !HIDDEN;
            }
        }
    }
    let entries = vm.heap.atoms.intern("entries");
    if let Some(slot) = vm.heap.obj(params_proto).props.get(entries).copied() {
        let iterator = vm.realm.symbols.iterator;
        vm.heap.obj_mut(params_proto).props.set(iterator, slot.value(), HIDDEN);
    }
    Ok(())
}
