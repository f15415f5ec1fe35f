//! Built-in functions and the global environment.
//!
//! **One table.** Every built-in function is a [`NativeDef`] in some module's `DEFS` list: where
//! it is installed (`owner`), its name, its arity and its Rust function. [`table`] concatenates the
//! lists once; a function object refers to its built-in by index ([`Native`]), so VM state stays
//! plain data. The first entries are internal helpers with fixed indices (the `Native::*` consts).
//!
//! **Resumable natives.** A built-in that calls back into JavaScript (`map`, `sort`, `replace` with
//! a function, ...) never calls it from Rust. It returns [`Step::Call`] with its state as a
//! [`Cont`]; the interpreter runs the callback as an ordinary frame and then calls [`resume`] with
//! the result. So fuel, call depth and snapshots work inside callbacks too.
//!
//! Owners: `""` is the global object; `"Object"` is the global `Object` constructor (statics);
//! `"Object.prototype"` and the like are the intrinsic prototypes; a name that is no constructor
//! (`"Math"`, `"JSON"`, `"console"`) becomes a plain namespace object; `"#internal"` is not
//! installed anywhere. A def whose owner is `""` and whose name has a prototype in
//! [`Vm::proto_named`] is a constructor: it gets `prototype`, and `construct` (when set) runs
//! for `new`.

mod array;
mod array_buffer;
mod array_from_async;
mod array_generic;
pub(crate) mod array_loop;
mod array_more;
pub(crate) mod async_disposable;
mod bigint;
mod clone;
mod collation;
mod console;
mod console_more;
mod console_table;
mod crypto;
mod data_view;
mod date;
mod date_locale;
mod date_math;
pub(crate) mod disposable;
mod error;
mod error_more;
pub(crate) mod extension;
mod function;
mod global;
mod group_by;
mod internal;
mod intl;
mod intl_parts;
mod iterator;
mod iterator_helpers;
pub(crate) mod iterator_statics;
pub(crate) mod iterator_zip;
mod json;
mod json_parse;
mod json_raw;
mod json_revive;
mod map_set;
mod math;
pub(crate) mod node_modules;
mod number;
mod object;
mod object_legacy;
mod object_model;
mod prim_args;
mod promise;
mod promise_combine;
mod promise_more;
mod promise_spec;
pub(crate) mod prop_walk;
mod proxy;
mod reflect;
mod regexp;
mod regexp_accessors;
mod regexp_protocol;
mod set_algebra;
mod species;
mod string;
mod string_split;
mod symbol;
mod text_codec;
mod thenable;
pub(crate) mod time_zone;
pub(crate) mod tojson;
mod typed_array;
mod typed_array_kind;
mod typed_array_loop;
mod typed_array_methods;
mod uint8_base64;
mod upsert;
mod uri;
mod url;
mod url_search_params;
mod using;
mod utf16;
mod weak;

use std::sync::LazyLock;

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub(crate) use array::{from as array_from, is_push as is_array_push};
pub use array_buffer::BufferData;
pub(crate) use array_loop::ArrayLoop;
pub use data_view::ViewData;
pub use iterator_helpers::Helper;
pub(crate) use iterator_helpers::{consume_caught, helper_caught, helper_next};
pub use iterator_statics::Joined;
pub(crate) use object_model::{Descriptor, descriptor_of, read_descriptor};
pub(crate) use promise_spec::internal_fn;
pub(crate) use reflect::reflect_ordinary;
pub use text_codec::Codec;
pub use typed_array::{BinaryProtos, TypedArrayData};
pub(crate) use typed_array::{index_keys, indexed_get, indexed_has, indexed_set};
pub(crate) use typed_array_methods::join_numbers as typed_join;
pub use url::UrlState;
pub use weak::WeakState;

/// A built-in function's Rust side: `(vm, this, args, data)` where `data` are the values the
/// function object was bound to.
pub type NativeFn = fn(&mut Vm, Value, &[Value], &[Value]) -> Result<Step, Throw>;

/// `new F(args)` for a built-in constructor.
pub type ConstructFn = fn(&mut Vm, &[Value]) -> Result<Step, Throw>;

#[derive(Clone, Copy)]
pub struct NativeDef {
    pub owner: &'static str,
    pub name: &'static str,
    pub arity: u8,
    pub f: NativeFn,
    pub construct: Option<ConstructFn>,
}

impl NativeDef {
    pub const fn new(owner: &'static str, name: &'static str, arity: u8, f: NativeFn) -> Self {
        NativeDef { owner, name, arity, f, construct: None }
    }

    pub const fn ctor(name: &'static str, arity: u8, f: NativeFn, construct: ConstructFn) -> Self {
        NativeDef { owner: "", name, arity, f, construct: Some(construct) }
    }

    /// The function's `name`: `"@@iterator"` is `"[Symbol.iterator]"`, `"get size"` a getter's
    /// `"get size"` as written.
    pub fn function_name(&self) -> String {
        // Internal functions (resolving functions, `revoke`, ...) are anonymous.
        if self.owner == "#internal" {
            return String::new();
        }
        let (prefix, name) = match self.name.strip_prefix("get ") {
            Some(rest) => ("get ", rest),
            None => ("", self.name),
        };
        match name.strip_prefix("@@") {
            Some(symbol) => format!("{prefix}[Symbol.{symbol}]"),
            None => format!("{prefix}{name}"),
        }
    }
}

/// A built-in, by index into [`table`].
///
/// **Stable identity in snapshots.** Saved state names a built-in by `owner.name`
/// (`"Array.prototype.map"`), never by its position, so adding or reordering built-ins cannot
/// silently remap a saved run; a name this build does not have is a decoding error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Native(pub u16);

impl Native {
    /// The stable name of this built-in: `owner.name`.
    pub fn stable_name(self) -> String {
        match table().get(self.0 as usize) {
            Some(d) => format!("{}.{}", d.owner, d.name),
            None => format!("#{}", self.0),
        }
    }

    pub(crate) fn by_stable_name(name: &str) -> Option<Native> {
        // Table indices by a hash of their stable names: 2 bytes a built-in, built and searched
        // without making any `owner.name` string (a restored snapshot looks up hundreds).
        static INDEX: LazyLock<hashbrown::HashTable<u16>> = LazyLock::new(|| {
            let mut index = hashbrown::HashTable::with_capacity(COUNT);
            for i in 0..COUNT as u16 {
                index.insert_unique(bytes_hash(stable_name_bytes(i)), i, |&j| {
                    bytes_hash(stable_name_bytes(j))
                });
            }
            index
        });
        INDEX.find(bytes_hash(name.bytes()), |&i| stable_name_bytes(i).eq(name.bytes())).copied().map(Native)
    }
}

/// FNV-1a over `bytes`, then mixed (so the high bits the index compares first are mixed too):
/// a byte-at-a-time hash gives `owner.name` in pieces the same value as the whole text.
fn bytes_hash(bytes: impl Iterator<Item = u8>) -> u64 {
    let h = bytes.fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    (h ^ (h >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The bytes of `owner.name` of the built-in at `index`, without building the string.
fn stable_name_bytes(index: u16) -> impl Iterator<Item = u8> {
    let (owner, name) = TABLE.get(index as usize).map_or(("", ""), |d| (d.owner, d.name));
    owner.bytes().chain(std::iter::once(b'.')).chain(name.bytes())
}

impl Serialize for Native {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.stable_name())
    }
}

impl<'de> Deserialize<'de> for Native {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Native, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Native::by_stable_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown built-in function '{name}'")))
    }
}

impl Native {
    pub const FINALLY_PASS: Native = Native(0);
    pub const PROMISE_RESOLVE_FUNCTION: Native = Native(1);
    pub const PROMISE_REJECT_FUNCTION: Native = Native(2);
}

/// What a built-in did.
pub enum Step {
    /// Finished with this value.
    Return(Value),
    /// Call `callee` and resume `cont` with its result.
    Call { callee: Value, this: Value, args: Vec<Value>, cont: Cont },
    /// Call `callee`; its result is the built-in's result.
    TailCall { callee: Value, this: Value, args: Vec<Value> },
    /// `new callee(...args)` with `new_target` (any constructor: a class, a bound function, a
    /// closure, a built-in), resuming `cont` with the object made.
    Construct { callee: ObjId, new_target: ObjId, args: Vec<Value>, cont: Cont },
    /// A synchronous host call was issued: the program stops until the host completes call
    /// `id`, whose value is then the built-in's result.
    Block(u32),
    /// Resume `generator` (a frame is pushed); what it yields or returns, as an iterator result,
    /// is the built-in's result, or goes to `cont` when given (then the built-in goes on).
    Resume { generator: ObjId, mode: crate::generator::ResumeMode, value: Value, cont: Option<Cont> },
}

/// The saved state of a built-in waiting for a callback's result. Plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Cont {
    /// Array iteration methods (`map`, `filter`, `reduce`, ...).
    ArrayLoop(Box<ArrayLoop>),
    /// `sort` with a comparator (bottom-up merge sort).
    Sort(Box<array::SortState>),
    /// `new Promise(executor)` waiting for the executor: returns `promise`; a throw rejects it.
    PromiseExecutor { promise: ObjId },
    /// `new C(executor)` for NewPromiseCapability, then what to do with it (`promise_spec.rs`).
    Capability(Box<promise_spec::CapStep>),
    /// A capability's body: its return value goes to `resolve` (when callable) and the built-in
    /// returns `result`; a throw out of it calls `reject` instead (caught by the unwinder).
    CatchReject { resolve: Value, reject: Value, result: Value },
    /// `finally`'s thenFinally/catchFinally: after `onFinally()` (`resolved` false) or after
    /// `PromiseResolve(c, its result)` (`resolved` true); `value` is the outcome passed on.
    Finally { c: Value, value: Value, rejected: bool, resolved: bool },
    /// `Promise.all` & co by the specification's steps (`promise_combine.rs`).
    Combine(Box<promise_combine::Combine>),
    /// `replace`/`replaceAll` with a replacement function.
    Replace(Box<string::ReplaceState>),
    /// `Map.prototype.forEach` / `Set.prototype.forEach`.
    MapForEach(map_set::ForEachState),
    /// JSON serialization waiting for a `toJSON` call.
    ToJson(Box<tojson::Walk>),
    /// Reading own properties with getters (`prop_walk.rs`).
    PropWalk(Box<prop_walk::PropWalk>),
    /// An operator waiting for a user `valueOf`/`toString` (`to_primitive.rs`).
    Convert(Box<crate::to_primitive::Conversion>),
    /// `JSON.parse` with a reviver.
    Revive(Box<json_revive::Revive>),
    /// `Object.groupBy` / `Map.groupBy`.
    GroupBy(Box<group_by::GroupByState>),
    /// Collecting a generator's values (`[...gen]`, `Array.from(gen)`).
    GenDrain(Box<crate::generator::GenDrain>),
    /// Collecting a program-defined iterable's values (`user_iter.rs`).
    IterDrain(Box<crate::user_iter::IterDrain>),
    /// Whatever the callback returns, the built-in returns this (`Reflect.set` through a setter).
    ReturnValue(Value),
    /// `Reflect.construct` of an ordinary function: its result if that is an object, else this
    /// (the object made for it).
    Constructed(Value),
    /// An iterator helper's `next()` waiting for a call (`iterator_helpers.rs`).
    Helper { helper: ObjId, phase: iterator_helpers::Phase },
    /// `toArray`, `forEach`, `reduce`, `some`, `every`, `find` of an iterator.
    Consume(Box<iterator_helpers::Consume>),
    /// `Iterator.from`, `Iterator.concat`, IteratorClose and IteratorCloseAll
    /// (`iterator_statics.rs`); a throw is caught by `iterator_statics::caught`.
    IterStatics(Box<iterator_statics::Statics>),
    /// `Iterator.zip`/`zipKeyed` opening their inputs or stepping them (`iterator_zip.rs`); a
    /// throw is caught by `iterator_zip::caught`.
    IterZip(Box<iterator_zip::ZipCont>),
    /// Typed array methods that call back (`typed_array_loop.rs`).
    TypedLoop(Box<typed_array_loop::TypedLoop>),
    /// A typed array sorted with a comparator: the sorted copy is written back into `target`.
    TypedSorted { target: ObjId },
    /// A built-in's arguments converted by program `valueOf`/`toString` first (`prim_args.rs`).
    PrimArgs(Box<prim_args::PrimArgs>),
    /// Reading an iterator result whose `done` or `value` is a getter (`user_iter.rs`):
    /// `done_of` is the result while its `done` getter runs, `Undefined` while `value`'s does.
    IterResult { done_of: Value },
    /// Whatever the call returns, the built-in throws this (an iterator closed before an
    /// argument error is thrown).
    ThrowAfter(Value),
    /// `getOrInsertComputed` waiting for its callback (`upsert.rs`).
    Upsert { map: ObjId, key: Value },
    /// `DisposableStack.prototype.dispose` calling the disposers (`disposable.rs`); a throw
    /// out of one is caught here by the unwinder and disposal goes on.
    Dispose(Box<disposable::DisposeLoop>),
    /// An asynchronous disposal (`AsyncDisposableStack`, `await using`) calling a disposer; its
    /// state is in `stack` (`async_disposable.rs`). A throw is caught here by the unwinder too.
    AsyncDispose { stack: ObjId, how: disposable::Disposal, awaited: bool },
    /// A proxy operation waiting for its trap or the trap's result (`proxy.rs`).
    Proxy(Box<crate::proxy::ProxyCall>),
    /// A strict operation on a proxy waiting for its `true`/`false` (`proxy.rs`).
    ProxyRefusal(Box<crate::proxy::Refusal>),
    /// `instanceof` with a proxy involved (`proxy_ops.rs`).
    InstanceOf(Box<crate::proxy_ops::InstanceOf>),
    /// The callee's result, as a boolean.
    Truthy,
    /// The callee's result is a property descriptor or `undefined`: whether it is enumerable.
    Enumerable,
    /// Listing a proxy's keys through its traps (`proxy_keys.rs`).
    ProxyKeys(Box<crate::proxy_keys::KeysWalk>),
    /// A built-in waiting for a getter or trap its reads need, to run again (`replay.rs`).
    Replay(Box<crate::replay::Replayed>),
    /// `URLSearchParams.prototype.forEach` (`url_search_params.rs`).
    UrlForEach(Box<url_search_params::ForEach>),
}

impl Cont {
    /// Bytes of Rust data sized by the program that the continuation holds while it waits on
    /// program code (a `JSON.stringify` tree half built): every collection counts them
    /// (`gc.rs`), so the memory limit sees them for as long as they live.
    pub fn held_bytes(&self) -> usize {
        match self {
            Cont::ToJson(w) => w.held,
            Cont::IterZip(z) => z.held_bytes(),
            _ => 0,
        }
    }

    /// Pushes every value the continuation holds (GC roots).
    pub fn trace(&self, out: &mut Vec<Value>) {
        match self {
            Cont::ArrayLoop(l) => l.trace(out),
            Cont::Sort(s) => s.trace(out),
            Cont::PromiseExecutor { promise } => out.push(Value::Obj(*promise)),
            Cont::Capability(c) => c.trace(out),
            Cont::CatchReject { resolve, reject, result } => out.extend([*resolve, *reject, *result]),
            Cont::Combine(c) => c.trace(out),
            Cont::Finally { c, value, .. } => out.extend([*c, *value]),
            Cont::ToJson(w) => w.trace(out),
            Cont::Replace(r) => r.trace(out),
            Cont::MapForEach(s) => s.trace(out),
            Cont::Convert(c) => c.trace(out),
            Cont::PropWalk(w) => w.trace(out),
            Cont::GroupBy(s) => s.trace(out),
            Cont::Revive(r) => r.trace(out),
            Cont::GenDrain(d) => d.trace(out),
            Cont::IterDrain(d) => d.trace(out),
            Cont::ReturnValue(v) | Cont::Constructed(v) => out.push(*v),
            Cont::Helper { helper, phase } => {
                out.push(Value::Obj(*helper));
                if let iterator_helpers::Phase::Callback { value } = phase {
                    out.push(*value);
                }
            }
            Cont::Consume(c) => c.trace(out),
            Cont::IterStatics(s) => s.trace(out),
            Cont::IterZip(z) => z.trace(out),
            Cont::TypedLoop(l) => l.trace(out),
            Cont::TypedSorted { target } => out.push(Value::Obj(*target)),
            Cont::PrimArgs(p) => p.trace(out),
            Cont::IterResult { done_of } => out.push(*done_of),
            Cont::ThrowAfter(v) => out.push(*v),
            Cont::Upsert { map, key } => out.extend([Value::Obj(*map), *key]),
            Cont::Dispose(d) => d.trace(out),
            Cont::AsyncDispose { stack, .. } => out.push(Value::Obj(*stack)),
            Cont::Proxy(p) => p.trace(out),
            Cont::ProxyRefusal(r) => out.push(r.value),
            Cont::InstanceOf(i) => i.trace(out),
            Cont::Truthy | Cont::Enumerable => {}
            Cont::ProxyKeys(w) => w.trace(out),
            Cont::Replay(r) => r.trace(out),
            Cont::UrlForEach(f) => f.trace(out),
        }
    }
}

/// Every module's built-ins, in table order (internal helpers first).
const LISTS: &[&[NativeDef]] = &[
    internal::DEFS,
    global::DEFS,
    object::DEFS,
    object_legacy::DEFS,
    object_model::DEFS,
    function::DEFS,
    array::DEFS,
    array_more::DEFS,
    console::DEFS,
    array_from_async::DEFS,
    console_more::DEFS,
    console_table::DEFS,
    crypto::DEFS,
    error::DEFS,
    error_more::DEFS,
    json::DEFS,
    json_raw::DEFS,
    math::DEFS,
    promise::DEFS,
    promise_more::DEFS,
    promise_spec::DEFS,
    promise_combine::DEFS,
    clone::DEFS,
    string::DEFS,
    symbol::DEFS,
    regexp::DEFS,
    regexp_accessors::DEFS,
    regexp_protocol::DEFS,
    reflect::DEFS,
    proxy::DEFS,
    number::DEFS,
    bigint::DEFS,
    date::DEFS,
    map_set::DEFS,
    set_algebra::DEFS,
    group_by::DEFS,
    intl::DEFS,
    iterator::DEFS,
    iterator_helpers::DEFS,
    iterator_statics::DEFS,
    iterator_zip::DEFS,
    crate::generator::DEFS,
    crate::async_generator::DEFS,
    thenable::DEFS,
    extension::DEFS,
    uri::DEFS,
    url::DEFS,
    url_search_params::DEFS,
    node_modules::DEFS,
    weak::DEFS,
    array_buffer::DEFS,
    typed_array::DEFS,
    typed_array_methods::DEFS,
    typed_array_loop::DEFS,
    data_view::DEFS,
    text_codec::DEFS,
    uint8_base64::DEFS,
    species::DEFS,
    upsert::DEFS,
    disposable::DEFS,
    async_disposable::DEFS,
    using::DEFS,
];

/// How many built-ins there are ([`Native`] numbers them with a `u16`).
const COUNT: usize = {
    let mut count = 0;
    let mut i = 0;
    while i < LISTS.len() {
        count += LISTS[i].len();
        i += 1;
    }
    count
};

const _: () = assert!(COUNT <= u16::MAX as usize);

/// [`LISTS`] laid end to end at compile time: the table is read-only data of the binary, not a
/// copy built on the heap of every process that starts a runtime.
static TABLE: [NativeDef; COUNT] = {
    let mut table = [LISTS[0][0]; COUNT];
    let (mut list, mut k) = (0, 0);
    while list < LISTS.len() {
        let mut i = 0;
        while i < LISTS[list].len() {
            table[k] = LISTS[list][i];
            k += 1;
            i += 1;
        }
        list += 1;
    }
    table
};

/// The table of every built-in, internal helpers first.
pub fn table() -> &'static [NativeDef] {
    &TABLE
}

/// Calls a built-in; its reads of getters and proxies replay (`replay.rs`).
pub(crate) fn call_native(
    vm: &mut Vm,
    native: Native,
    this: Value,
    args: &[Value],
    data: &[Value],
) -> Result<Step, Throw> {
    let entry = crate::replay::Entry { native, construct: false, this, args, data };
    crate::replay::run_native(vm, entry)
}

/// One run of a built-in's code (`replay.rs` calls it, with the log in place).
pub(crate) fn call_direct(
    vm: &mut Vm,
    native: Native,
    this: Value,
    args: &[Value],
    data: &[Value],
) -> Result<Step, Throw> {
    match table().get(native.0 as usize) {
        Some(def) => (def.f)(vm, this, args, data),
        None => Err(vm.make_error(ErrorKind::TypeError, "unknown built-in")),
    }
}

/// Whether the built-in is an abstract class: `new` of it alone is a `TypeError`, a subclass's
/// `super()` makes a plain object (`Iterator`).
pub(crate) fn is_abstract(native: Native) -> bool {
    table().get(native.0 as usize).is_some_and(|def| def.owner.is_empty() && def.name == "Iterator")
}

/// Whether the built-in can be called with `new`.
pub(crate) fn is_constructor(native: Native) -> bool {
    table().get(native.0 as usize).is_some_and(|def| def.construct.is_some())
}

/// Constructs with a built-in; its reads of getters and proxies replay (`replay.rs`).
pub(crate) fn construct_native(vm: &mut Vm, native: Native, args: &[Value]) -> Result<Step, Throw> {
    let entry = crate::replay::Entry { native, construct: true, this: Value::Undefined, args, data: &[] };
    crate::replay::run_native(vm, entry)
}

/// One run of a built-in constructor's code (see [`call_direct`]).
pub(crate) fn construct_direct(vm: &mut Vm, native: Native, args: &[Value]) -> Result<Step, Throw> {
    match table().get(native.0 as usize) {
        Some(NativeDef { construct: Some(c), .. }) => c(vm, args),
        Some(def) => {
            let msg = format!("{} is not a constructor", def.name);
            Err(vm.make_error(ErrorKind::TypeError, &msg))
        }
        None => Err(vm.make_error(ErrorKind::TypeError, "unknown built-in")),
    }
}

/// Resumes a built-in with the result of the callback it asked for.
pub(crate) fn resume(vm: &mut Vm, cont: Cont, result: Value) -> Result<Step, Throw> {
    match cont {
        Cont::ArrayLoop(l) => array_loop::resume_loop(vm, l, result),
        Cont::Sort(s) => array::resume_sort(vm, s, result),
        Cont::PromiseExecutor { promise } => Ok(Step::Return(Value::Obj(promise))),
        Cont::Capability(c) => promise_spec::resume_capability(vm, *c, result),
        Cont::CatchReject { resolve, result: r, .. } => promise_spec::resume_catch(vm, resolve, r, result),
        Cont::Combine(c) => promise_combine::resume(vm, c, result),
        Cont::Finally { c, value, rejected, resolved } => {
            promise_spec::resume_finally(vm, c, value, rejected, resolved, result)
        }
        Cont::ToJson(w) => tojson::resume(vm, *w, result),
        Cont::Replace(r) => string::resume_replace(vm, *r, result),
        Cont::MapForEach(s) => map_set::resume_for_each(vm, s, result),
        Cont::Convert(c) => vm.resume_conversion(*c, result),
        Cont::PropWalk(w) => prop_walk::resume(vm, *w, result),
        Cont::GroupBy(s) => group_by::resume(vm, s, result),
        Cont::Revive(r) => json_revive::resume(vm, *r, result),
        Cont::GenDrain(d) => crate::generator::resume_drain(vm, *d, result),
        Cont::IterDrain(d) => crate::user_iter::resume_drain(vm, *d, result),
        Cont::ReturnValue(v) => Ok(Step::Return(v)),
        Cont::Constructed(this) => {
            Ok(Step::Return(if matches!(result, Value::Obj(_)) { result } else { this }))
        }
        Cont::Helper { helper, phase } => iterator_helpers::resume_helper(vm, helper, phase, result),
        Cont::Consume(c) => iterator_helpers::resume_consume(vm, c, result),
        Cont::IterStatics(s) => iterator_statics::resume(vm, *s, result),
        Cont::IterZip(z) => iterator_zip::resume(vm, *z, result),
        Cont::TypedLoop(l) => typed_array_loop::resume_loop(vm, l, result),
        Cont::TypedSorted { target } => typed_array_loop::resume_sorted(vm, target, result),
        Cont::PrimArgs(p) => prim_args::resume(vm, p, result),
        Cont::IterResult { done_of } => crate::user_iter::resume_iter_result(vm, done_of, result),
        Cont::ThrowAfter(error) => Err(error),
        Cont::Upsert { map, key } => upsert::resume(vm, map, key, result),
        Cont::Dispose(d) => disposable::next_disposal(vm, *d),
        Cont::AsyncDispose { stack, how, awaited } => {
            async_disposable::resume(vm, stack, how, awaited, result)
        }
        Cont::Proxy(p) => crate::proxy::resume(vm, *p, result),
        Cont::ProxyRefusal(r) => crate::proxy::resume_refusal(vm, *r, result),
        Cont::InstanceOf(i) => crate::proxy_ops::resume_instance_of(vm, *i, result),
        Cont::Truthy => Ok(Step::Return(Value::Bool(vm.to_boolean(result)))),
        Cont::Enumerable => {
            let enumerable = match result {
                Value::Obj(_) => vm.get_named(result, "enumerable")?,
                _ => Value::Bool(false),
            };
            Ok(Step::Return(Value::Bool(vm.to_boolean(enumerable))))
        }
        Cont::ProxyKeys(w) => crate::proxy_keys::resume(vm, *w, result),
        Cont::Replay(r) => crate::replay::resume(vm, *r, result),
        Cont::UrlForEach(f) => url_search_params::resume_for_each(vm, *f),
    }
}

/// Installs every built-in into the realm's global object and prototypes. Their `name` and
/// `length` are answered lazily by `props.rs` (eager properties would give several hundred
/// functions a property map that every run copies).
pub(crate) fn install(vm: &mut Vm) -> Result<(), Throw> {
    let defs = table();
    // Constructors and plain globals first, so statics find their owner.
    for (i, def) in defs.iter().enumerate() {
        if def.owner.is_empty() {
            let f = vm.alloc_native(Native(i as u16), Vec::new())?;
            if let Some(proto) = vm.proto_named(def.name) {
                if let Value::Obj(fid) = f {
                    vm.define_constructor_prototype(fid, Value::Obj(proto));
                }
                vm.define_hidden(proto, "constructor", f);
            }
            let global = vm.realm.global;
            vm.define_hidden(global, def.name, f);
        }
    }
    for (i, def) in defs.iter().enumerate() {
        if def.owner.is_empty() || def.owner == "#internal" {
            continue;
        }
        let owner = vm.owner_object(def.owner)?;
        let f = vm.alloc_native(Native(i as u16), Vec::new())?;
        match def.name.strip_prefix("get ") {
            // A built-in getter (`get description`): a non-enumerable accessor.
            Some(name) => {
                let key = vm.builtin_key(name);
                vm.define_accessor(Value::Obj(owner), crate::props::Key::Atom(key), Some(f), None)?;
                let props = &mut vm.heap.obj_mut(owner).props;
                if let Some(slot) = props.find(key).and_then(|i| props.slot_mut(i)) {
                    slot.flags |= crate::object::HIDDEN;
                }
            }
            None => vm.define_hidden(owner, def.name, f),
        }
    }
    // `Function.prototype` is an object here, not a function; it still has the `name` ("") and
    // `length` (0) that functions inherit once their own are deleted.
    let function_proto = vm.realm.function_proto;
    let (name, length) = (vm.realm.atoms.name, vm.realm.atoms.length);
    let empty = vm.new_string("")?;
    let props = &mut vm.heap.obj_mut(function_proto).props;
    props.set(length, Value::Number(0.0), crate::object::READONLY | crate::object::HIDDEN);
    props.set(name, empty, crate::object::READONLY | crate::object::HIDDEN);
    global::install_values(vm)?;
    function::install_values(vm)?;
    number::install_values(vm)?;
    error_more::install_values(vm)?;
    symbol::install_values(vm)?;
    bigint::install_values(vm)?;
    typed_array::install_values(vm)?;
    url::install_values(vm)?;
    Ok(())
}

impl Vm {
    /// The intrinsic prototype of the constructor `name`, if it is one.
    pub(crate) fn proto_named(&self, name: &str) -> Option<ObjId> {
        let r = &self.realm;
        Some(match name {
            "Object" => r.object_proto,
            "Function" => r.function_proto,
            "Array" => r.array_proto,
            "String" => r.string_proto,
            "Number" => r.number_proto,
            "BigInt" => r.bigint_proto,
            "Boolean" => r.boolean_proto,
            "Symbol" => r.symbol_proto,
            "Promise" => r.promise_proto,
            "RegExp" => r.regexp_proto,
            "Date" => r.date_proto,
            "Map" => r.map_proto,
            "Set" => r.set_proto,
            "WeakMap" => r.weak_protos[0],
            "WeakSet" => r.weak_protos[1],
            "WeakRef" => r.weak_protos[2],
            "FinalizationRegistry" => r.weak_protos[3],
            "DisposableStack" => r.disposable_protos[0],
            "AsyncDisposableStack" => r.disposable_protos[1],
            "URL" => r.url_protos[0],
            "URLSearchParams" => r.url_protos[1],
            "URLSearchParamsIterator" => r.url_protos[2],
            "Error" => r.error_protos[0],
            "TypeError" => r.error_protos[1],
            "RangeError" => r.error_protos[2],
            "ReferenceError" => r.error_protos[3],
            "SyntaxError" => r.error_protos[4],
            "Iterator" => r.iterator_proto,
            "IteratorHelper" => r.iterator_protos[0],
            "WrapForValidIterator" => r.iterator_protos[1],
            "Generator" => r.generator_proto,
            "AsyncGenerator" => r.async_generator_proto,
            _ => return r.binary.named(name),
        })
    }

    /// The object an owner path names, creating namespace objects (`Math`) on first use.
    pub(crate) fn owner_object(&mut self, owner: &str) -> Result<ObjId, Throw> {
        if let Some(ctor) = owner.strip_suffix(".prototype")
            && let Some(p) = self.proto_named(ctor)
        {
            return Ok(p);
        }
        let global = self.realm.global;
        let atom = self.heap.atoms.intern(owner);
        if let Some(slot) = self.heap.obj(global).props.get(atom)
            && let Value::Obj(id) = slot.value()
        {
            return Ok(id);
        }
        let ns = self.new_object()?;
        let Value::Obj(id) = ns else { return Ok(global) };
        self.define_hidden(global, owner, ns);
        Ok(id)
    }
}

// ---- small helpers shared by the built-in modules ----

/// The i-th argument or `undefined`.
#[inline]
pub(crate) fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::Undefined)
}

/// The array object behind `this`, or a TypeError naming the method.
pub(crate) fn this_array(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && let obj = vm.heap.obj(id)
        && let ObjKind::Array(items) = &obj.kind
    {
        let sealing = obj.props.integrity;
        if sealing != 0 {
            use crate::object::integrity::{FROZEN_ELEMENTS, NON_EXTENSIBLE, SEALED_ELEMENTS};
            let refused = match method {
                "push" | "unshift" => sealing & NON_EXTENSIBLE != 0,
                "pop" | "shift" => sealing & SEALED_ELEMENTS != 0,
                "splice" => sealing & (SEALED_ELEMENTS | NON_EXTENSIBLE) != 0,
                "reverse" | "fill" | "sort" | "copyWithin" => sealing & FROZEN_ELEMENTS != 0,
                _ => false,
            };
            if refused {
                let msg = if sealing & FROZEN_ELEMENTS != 0 {
                    format!(
                        "Cannot assign to read only property '0' of object '[object Array]' ({method} on a frozen array)"
                    )
                } else if matches!(method, "push" | "unshift") {
                    format!("Cannot add property {}, object is not extensible", items.len())
                } else {
                    format!("Cannot delete property '{}' of [object Array]", items.len().saturating_sub(1))
                };
                return Err(vm.make_error(ErrorKind::TypeError, &msg));
            }
        }
        return Ok(id);
    }
    // The methods that only read are generic: another object (`arguments`, `{ length, 0: .. }`,
    // a string) is read as an array-like into a copy they work on.
    // (`array_generic.rs` runs the mutating ones but `sort` on a copy of an array-like object and
    // writes it back; a string cannot be changed.)
    const MUTATING: &[&str] =
        &["push", "pop", "shift", "unshift", "splice", "reverse", "fill", "sort", "copyWithin"];
    let refused = method == "sort" || (MUTATING.contains(&method) && !matches!(this, Value::Obj(_)));
    if !refused && !this.is_nullish() {
        let items = match this {
            Value::Str(_) => {
                let s = vm.to_string_value(this)?;
                vm.collect_iterable(s)?
            }
            Value::Obj(_) => vm.array_like_to_vec(this)?,
            _ => Vec::new(),
        };
        if let Value::Obj(copy) = vm.new_array(items)? {
            return Ok(copy);
        }
    }
    let msg = if this.is_nullish() {
        format!("Array.prototype.{method} called on null or undefined")
    } else {
        format!("Array.prototype.{method} called on a non-array (sort takes arrays only)")
    };
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

/// Checks that `f` is callable, else `TypeError: <desc> is not a function`.
pub(crate) fn require_callable(vm: &mut Vm, f: Value) -> Result<(), Throw> {
    if vm.is_callable(f) { Ok(()) } else { Err(vm.not_a_function(f)) }
}

/// Relative index as `slice`/`at` interpret it (negative counts from the end), clamped to `0..=len`.
pub(crate) fn relative_index(vm: &mut Vm, v: Value, len: usize, default: usize) -> Result<usize, Throw> {
    if v == Value::Undefined {
        return Ok(default);
    }
    let n = vm.to_number(v)?;
    let n = if n.is_nan() { 0.0 } else { n.trunc() };
    Ok(if n < 0.0 { (len as f64 + n).max(0.0) as usize } else { n.min(len as f64) as usize })
}

pub(crate) use date_math::{date_to_iso, date_to_string};
pub(crate) use error_more::aggregate_error;
pub(crate) use map_set::{compact_maps, map_size};
pub(crate) use promise_combine::close_then_throw as combine_close;
pub(crate) use promise_spec::caught as capability_caught;
pub(crate) use promise_spec::plain_promise;
pub(crate) use regexp::new_regexp;
pub(crate) use url::{href_of as url_href, to_text as url_text};
pub(crate) use url_search_params::query_of as url_query;
pub(crate) use utf16::{Text, Utf16Index};

#[cfg(test)]
mod stable_name_tests {
    use super::{Native, table};

    /// Every built-in has a distinct stable name, and names round-trip through serde.
    #[test]
    fn builtins_have_distinct_stable_names() {
        let mut seen = std::collections::HashSet::new();
        for (i, d) in table().iter().enumerate() {
            let name = Native(i as u16).stable_name();
            assert!(seen.insert(name.clone()), "two built-ins are named {name} ({})", d.name);
            let json = serde_json::to_string(&Native(i as u16)).unwrap_or_default();
            assert_eq!(serde_json::from_str::<Native>(&json).ok(), Some(Native(i as u16)), "{name}");
        }
        assert!(serde_json::from_str::<Native>("\"Array.prototype.nosuch\"").is_err());
    }
}
