//! `Map` and `Set`.
//!
//! Entries live in `ObjKind::Map { entries, .. }` in insertion order; a deleted entry becomes
//! `None` so live iterators keep their place (`iter.rs` walks them). Keys compare with
//! SameValueZero.
//!
//! **O(1) lookups as plain data, in internal slots.** Beside the entries, every Map/Set keeps its
//! live entry count (what `size` reports) and an open-addressing hash table whose slots are entry
//! positions ([`EMPTY_SLOT`] = empty) in its `ObjKind` — never in a property, so no program can
//! reach them. A slot whose entry was deleted is a tombstone. Tables are built once a map has
//! [`INDEX_MIN`] entries and rebuilt (doubling) when half full, so `get`/`set`/`has`/`delete` are
//! O(1) amortized; the table is serialized with the map and charged to the memory budget
//! (`Object::extra_bytes`).

use crate::meter::Work;
use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{Cont, NativeDef, Step, arg, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::object::{IterState, MapIndex, MapIterMode, ObjKind};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Map", 0, map_call, map_construct),
    NativeDef::ctor("Set", 0, set_call, set_construct),
    NativeDef::new("Map.prototype", "get", 1, get),
    NativeDef::new("Map.prototype", "set", 2, set),
    NativeDef::new("Map.prototype", "has", 1, has),
    NativeDef::new("Map.prototype", "delete", 1, delete),
    NativeDef::new("Map.prototype", "clear", 0, clear),
    NativeDef::new("Map.prototype", "forEach", 1, for_each),
    NativeDef::new("Map.prototype", "keys", 0, keys),
    NativeDef::new("Map.prototype", "values", 0, values),
    NativeDef::new("Map.prototype", "entries", 0, entries),
    NativeDef::new("Set.prototype", "add", 1, add),
    NativeDef::new("Set.prototype", "has", 1, has),
    NativeDef::new("Set.prototype", "delete", 1, delete),
    NativeDef::new("Set.prototype", "clear", 0, clear),
    NativeDef::new("Set.prototype", "forEach", 1, for_each),
    NativeDef::new("Set.prototype", "values", 0, values),
    NativeDef::new("Set.prototype", "keys", 0, values),
    NativeDef::new("Set.prototype", "entries", 0, entries),
];

/// A free slot of a map's hash table.
const EMPTY_SLOT: u32 = u32::MAX;
/// Maps with fewer entry slots than this are searched linearly.
const INDEX_MIN: usize = 8;

// ---- hashing (SameValueZero-compatible) ----

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The key's hash; reading a string key's bytes is charged by the callers through
/// [`charge_key`].
fn hash_key(vm: &Vm, v: Value) -> u64 {
    match v {
        Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) => 1,
        Value::Null => 2,
        Value::Bool(b) => 3 + b as u64,
        Value::Number(n) => {
            let n = if n == 0.0 { 0.0 } else { n };
            let bits = if n.is_nan() { 0x7ff8_0000_0000_0000 } else { n.to_bits() };
            mix(bits ^ 0x1234_5678)
        }
        Value::Str(s) => {
            // FNV-1a over the UTF-8 bytes (equal strings have equal bytes).
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in vm.heap.str(s).bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            mix(h)
        }
        Value::Obj(id) => mix(id.0 as u64 ^ 0x9e37_79b9_0000_0000),
        // By value: equal BigInts are one key (SameValueZero).
        Value::BigInt(b) => {
            let mut h: u64 = 0x8422_2325_cbf2_9ce4;
            for d in vm.heap.bigint(b).iter_u64_digits() {
                h = (h ^ d).wrapping_mul(0x0100_0000_01b3);
            }
            mix(h ^ vm.heap.bigint(b).sign() as u64)
        }
        Value::Symbol(a) => mix(a.0 as u64 ^ 0x5bd1_e995_0000_0000),
    }
}

/// Charges hashing (and comparing) `key`: a string key is read whole.
fn charge_key(vm: &mut Vm, key: Value) {
    if let Value::Str(s) = key {
        let n = vm.heap.str(s).len();
        vm.charge(Work::Bytes(n));
    }
}

// ---- raw access ----

pub(super) fn entries_of(vm: &Vm, id: ObjId) -> &[Option<(Value, Value)>] {
    match &vm.heap.obj(id).kind {
        ObjKind::Map { entries, .. } => entries,
        _ => &[],
    }
}

fn entries_mut(vm: &mut Vm, id: ObjId) -> Option<&mut Vec<Option<(Value, Value)>>> {
    match &mut vm.heap.obj_mut(id).kind {
        ObjKind::Map { entries, .. } => Some(entries),
        _ => None,
    }
}

/// The hash table of `id` (empty for a small map or one whose table was dropped).
fn table_of(vm: &Vm, id: ObjId) -> &[u32] {
    match &vm.heap.obj(id).kind {
        ObjKind::Map { table, .. } => table.slots(),
        _ => &[],
    }
}

/// The number of live entries (`size`).
pub(crate) fn map_size(vm: &mut Vm, id: ObjId) -> usize {
    match &vm.heap.obj(id).kind {
        ObjKind::Map { live, .. } => *live as usize,
        _ => 0,
    }
}

/// Rebuilds the hash table of `id` from its entries (none below [`INDEX_MIN`] entry slots).
fn rebuild_index(vm: &mut Vm, id: ObjId) -> Result<(), Throw> {
    let slots_len = entries_of(vm, id).len();
    vm.charge(Work::Elements(slots_len));
    let mut table = Vec::new();
    if slots_len >= INDEX_MIN {
        // Sized by entry slots (deleted ones included), so a map that churns (set, delete, set,
        // ...) rebuilds only when its entries double: O(1) amortized.
        let cap = (slots_len * 4).next_power_of_two();
        vm.charge_memory(cap * std::mem::size_of::<u32>())?;
        table = vec![EMPTY_SLOT; cap];
        let mask = cap - 1;
        for (i, entry) in entries_of(vm, id).iter().enumerate() {
            let Some((k, _)) = entry else { continue };
            let mut h = hash_key(vm, *k) as usize & mask;
            while table.get(h).is_some_and(|s| *s != EMPTY_SLOT) {
                h = (h + 1) & mask;
            }
            if let Some(slot) = table.get_mut(h) {
                *slot = i as u32;
            }
        }
    }
    if let ObjKind::Map { table: t, .. } = &mut vm.heap.obj_mut(id).kind {
        *t = MapIndex::new(table);
    }
    Ok(())
}

/// Rebuilds the table when it is missing, or too full for `extra` more entries.
fn ensure_index(vm: &mut Vm, id: ObjId, extra: usize) -> Result<(), Throw> {
    let slots_len = entries_of(vm, id).len() + extra;
    let table = table_of(vm, id).len();
    if slots_len < INDEX_MIN || (table > 0 && slots_len * 2 <= table) {
        return Ok(());
    }
    rebuild_index(vm, id)
}

/// Where `key` lives: `Ok(Some(entry position))` or `Ok(None)`.
pub(super) fn find(vm: &mut Vm, id: ObjId, key: Value) -> Result<Option<usize>, Throw> {
    charge_key(vm, key);
    ensure_index(vm, id, 0)?;
    let table = table_of(vm, id);
    let entries = entries_of(vm, id);
    if table.is_empty() {
        let pos = entries.iter().position(|e| matches!(e, Some((k, _)) if vm.same_value_zero(*k, key)));
        return Ok(pos);
    }
    let mask = table.len() - 1;
    let mut h = hash_key(vm, key) as usize & mask;
    for _ in 0..table.len() {
        match table.get(h) {
            Some(&p) if p != EMPTY_SLOT => {
                if let Some(Some((k, _))) = entries.get(p as usize)
                    && vm.same_value_zero(*k, key)
                {
                    return Ok(Some(p as usize));
                }
            }
            _ => return Ok(None),
        }
        h = (h + 1) & mask;
    }
    Ok(None)
}

/// Adds `delta` to the live entry count.
fn count_live(vm: &mut Vm, id: ObjId, delta: i32) {
    if let ObjKind::Map { live, .. } = &mut vm.heap.obj_mut(id).kind {
        *live = live.saturating_add_signed(delta);
    }
}

/// Inserts or updates `key`.
pub(super) fn insert(vm: &mut Vm, id: ObjId, key: Value, value: Value) -> Result<(), Throw> {
    // -0 keys are stored as +0.
    let key = if let Value::Number(n) = key { Value::Number(n + 0.0) } else { key };
    if let Some(p) = find(vm, id, key)? {
        if let Some(Some(pair)) = entries_mut(vm, id).and_then(|e| e.get_mut(p)) {
            pair.1 = value;
        }
        return Ok(());
    }
    ensure_index(vm, id, 1)?;
    let (len, cap) = match entries_mut(vm, id) {
        Some(entries) => (entries.len(), entries.capacity()),
        None => return Ok(()),
    };
    if len >= crate::heap::MAX_ARRAY_LENGTH {
        return Err(vm.make_error(ErrorKind::RangeError, "Map maximum size exceeded"));
    }
    // Growth is charged before the entries grow.
    let grow = if len == cap { cap.max(4) } else { 0 };
    if grow > 0 {
        vm.charge_memory(grow * 2 * crate::heap::VALUE_SIZE)?;
    }
    let pos = match entries_mut(vm, id) {
        Some(entries) => {
            entries.reserve_exact(grow);
            entries.push(Some((key, value)));
            entries.len() - 1
        }
        None => return Ok(()),
    };
    count_live(vm, id, 1);
    let table_len = table_of(vm, id).len();
    if table_len == 0 {
        if pos + 1 >= INDEX_MIN {
            rebuild_index(vm, id)?;
        }
        return Ok(());
    }
    let mask = table_len - 1;
    let mut h = hash_key(vm, key) as usize & mask;
    // First empty slot or tombstone (the key is known to be absent).
    for _ in 0..table_len {
        let free = match table_of(vm, id).get(h) {
            Some(&p) if p != EMPTY_SLOT => !matches!(entries_of(vm, id).get(p as usize), Some(Some(_))),
            _ => true,
        };
        if free {
            if let ObjKind::Map { table, .. } = &mut vm.heap.obj_mut(id).kind
                && let Some(slot) = table.slots_mut().get_mut(h)
            {
                *slot = pos as u32;
                return Ok(());
            }
            break;
        }
        h = (h + 1) & mask;
    }
    rebuild_index(vm, id)
}

pub(super) fn remove(vm: &mut Vm, id: ObjId, key: Value) -> Result<bool, Throw> {
    let Some(p) = find(vm, id, key)? else { return Ok(false) };
    if let Some(slot) = entries_mut(vm, id).and_then(|e| e.get_mut(p)) {
        *slot = None;
    }
    vm.heap.map_deletes += 1;
    count_live(vm, id, -1);
    Ok(true)
}

// ---- constructors ----

pub(super) fn new_collection(vm: &mut Vm, set: bool) -> Result<ObjId, Throw> {
    let proto = Some(if set { vm.realm.set_proto } else { vm.realm.map_proto });
    vm.alloc(ObjKind::Map { entries: Vec::new(), set, live: 0, table: MapIndex::default() }, proto)
}

fn map_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor Map requires 'new'"))
}

fn set_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor Set requires 'new'"))
}

fn map_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let source = arg(args, 0);
    vm.refuse_string_entries(source)?;
    let items = if source.is_nullish() {
        Vec::new()
    } else {
        match vm.collect_or_reenter(".Map", true, Value::Undefined, args, 0)? {
            Ok(items) => items,
            Err(step) => return Ok(step),
        }
    };
    let id = new_collection(vm, false)?;
    {
        vm.charge(Work::Elements(items.len()));
        for item in items {
            vm.require_entry_object(item)?;
            let k = vm.get_value(item, Key::Index(0))?;
            let v = vm.get_value(item, Key::Index(1))?;
            insert(vm, id, k, v)?;
        }
    }
    Ok(Step::Return(Value::Obj(id)))
}

fn set_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let source = arg(args, 0);
    let items = if source.is_nullish() {
        Vec::new()
    } else {
        match vm.collect_or_reenter(".Set", true, Value::Undefined, args, 0)? {
            Ok(items) => items,
            Err(step) => return Ok(step),
        }
    };
    let id = new_collection(vm, true)?;
    {
        vm.charge(Work::Elements(items.len()));
        for item in items {
            insert(vm, id, item, item)?;
        }
    }
    Ok(Step::Return(Value::Obj(id)))
}

// ---- methods ----

pub(super) fn this_collection(vm: &mut Vm, this: Value, set: bool, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && let ObjKind::Map { set: s, .. } = vm.heap.obj(id).kind
        && s == set
    {
        return Ok(id);
    }
    let ty = if set { "Set" } else { "Map" };
    let msg = format!("Method {ty}.prototype.{method} called on incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

/// Either kind (methods shared by Map and Set).
fn this_any(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && matches!(vm.heap.obj(id).kind, ObjKind::Map { .. })
    {
        return Ok(id);
    }
    let msg = format!("Method Map.prototype.{method} called on incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn get(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_collection(vm, this, false, "get")?;
    let v = match find(vm, id, arg(args, 0))? {
        Some(p) => entries_of(vm, id).get(p).copied().flatten().map_or(Value::Undefined, |(_, v)| v),
        None => Value::Undefined,
    };
    Ok(Step::Return(v))
}

fn set(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_collection(vm, this, false, "set")?;
    insert(vm, id, arg(args, 0), arg(args, 1))?;
    Ok(Step::Return(this))
}

fn add(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_collection(vm, this, true, "add")?;
    let v = arg(args, 0);
    insert(vm, id, v, v)?;
    Ok(Step::Return(this))
}

fn has(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_any(vm, this, "has")?;
    Ok(Step::Return(Value::Bool(find(vm, id, arg(args, 0))?.is_some())))
}

fn delete(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_any(vm, this, "delete")?;
    Ok(Step::Return(Value::Bool(remove(vm, id, arg(args, 0))?)))
}

fn clear(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_any(vm, this, "clear")?;
    vm.heap.map_deletes += 1;
    if let Some(entries) = entries_mut(vm, id) {
        // Deleted, not removed: live iterators keep their place and see later additions.
        for e in entries.iter_mut() {
            *e = None;
        }
        let n = entries.len();
        vm.charge(Work::Elements(n));
    }
    if let ObjKind::Map { live, .. } = &mut vm.heap.obj_mut(id).kind {
        *live = 0;
    }
    rebuild_index(vm, id)?;
    Ok(Step::Return(Value::Undefined))
}

fn iterator(vm: &mut Vm, this: Value, mode: MapIterMode, method: &str) -> Result<Step, Throw> {
    let id = this_any(vm, this, method)?;
    let is_set = matches!(vm.heap.obj(id).kind, ObjKind::Map { set: true, .. });
    // A Set's entries are [v, v]; its keys are its values.
    let mode = if is_set && mode == MapIterMode::Keys { MapIterMode::Values } else { mode };
    Ok(Step::Return(vm.new_iterator(IterState::Map { map: id, next: 0, mode })?))
}

fn keys(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    iterator(vm, this, MapIterMode::Keys, "keys")
}

fn values(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    iterator(vm, this, MapIterMode::Values, "values")
}

fn entries(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    iterator(vm, this, MapIterMode::Entries, "entries")
}

/// `forEach` between callback calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForEachState {
    map: ObjId,
    callback: Value,
    this_arg: Value,
    /// The next entry position to visit.
    next: u32,
}

impl ForEachState {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([Value::Obj(self.map), self.callback, self.this_arg]);
    }
}

fn for_each(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_any(vm, this, "forEach")?;
    let callback = arg(args, 0);
    require_callable(vm, callback)?;
    for_each_next(vm, ForEachState { map: id, callback, this_arg: arg(args, 1), next: 0 })
}

fn for_each_next(vm: &mut Vm, mut s: ForEachState) -> Result<Step, Throw> {
    loop {
        let entry = entries_of(vm, s.map).get(s.next as usize).copied();
        match entry {
            None => return Ok(Step::Return(Value::Undefined)),
            Some(None) => {
                s.next += 1;
                vm.charge(Work::Units(1));
            }
            Some(Some((k, v))) => {
                s.next += 1;
                let (callee, this) = (s.callback, s.this_arg);
                let args = vec![v, k, Value::Obj(s.map)];
                return Ok(Step::Call { callee, this, args, cont: Cont::MapForEach(s) });
            }
        }
    }
}

pub(super) fn resume_for_each(vm: &mut Vm, s: ForEachState, _result: Value) -> Result<Step, Throw> {
    for_each_next(vm, s)
}

// ---- compaction (run by the collector) ----

/// Drops the deleted entries of maps that have more of them than live ones (plus a few), so a map
/// that churns (`set`, `delete`, `set`, ...) does not grow without bound. Runs at a collection, a
/// safe point where the only holders of entry positions are iterators and suspended `forEach`
/// loops, which are moved to the same entry's new position. The hash index is dropped and rebuilt
/// on the map's next use.
pub(crate) fn compact_maps(vm: &mut Vm) {
    if std::mem::take(&mut vm.heap.map_deletes) == 0 {
        return;
    }
    // New position of every old position, for the maps worth compacting.
    let mut remaps: crate::value::FastMap<ObjId, Vec<u32>> = Default::default();
    for (i, slot) in vm.heap.objects.slots().iter().enumerate() {
        if let Some(obj) = slot
            && let ObjKind::Map { entries, .. } = &obj.kind
        {
            let live = entries.iter().filter(|e| e.is_some()).count();
            if entries.len() - live > live + INDEX_MIN {
                let mut new_pos = Vec::with_capacity(entries.len() + 1);
                let mut n = 0u32;
                for e in entries {
                    new_pos.push(n);
                    n += u32::from(e.is_some());
                }
                new_pos.push(n);
                remaps.insert(ObjId(i as u32), new_pos);
            }
        }
    }
    if remaps.is_empty() {
        return;
    }
    let moved = |remap: &[u32], next: u32| remap.get(next as usize).or(remap.last()).copied().unwrap_or(0);
    let iterators: Vec<ObjId> = (vm.heap.objects.slots().iter().enumerate())
        .filter_map(|(i, slot)| match slot.as_ref().map(|o| &o.kind) {
            Some(ObjKind::Iterator(IterState::Map { map, .. })) if remaps.contains_key(map) => {
                Some(ObjId(i as u32))
            }
            _ => None,
        })
        .collect();
    for id in iterators {
        if let ObjKind::Iterator(IterState::Map { map, next, .. }) = &mut vm.heap.obj_mut(id).kind
            && let Some(remap) = remaps.get(map)
        {
            *next = moved(remap, *next);
        }
    }
    for frame in &mut vm.frames {
        if let crate::frame::Frame::Native(nf) = frame
            && let Cont::MapForEach(state) = &mut nf.cont
            && let Some(remap) = remaps.get(&state.map)
        {
            state.next = moved(remap, state.next);
        }
    }
    for id in remaps.keys() {
        if let ObjKind::Map { entries, table, .. } = &mut vm.heap.obj_mut(*id).kind {
            entries.retain(Option::is_some);
            entries.shrink_to_fit();
            *table = MapIndex::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_same_value_zero_compatible() {
        // Without a VM: numbers only (strings need the heap).
        let h = |n: f64| {
            let n = if n == 0.0 { 0.0 } else { n };
            let bits = if n.is_nan() { 0x7ff8_0000_0000_0000 } else { n.to_bits() };
            mix(bits ^ 0x1234_5678)
        };
        assert_eq!(h(0.0), h(-0.0));
        assert_eq!(h(f64::NAN), h(-f64::NAN));
        assert_ne!(h(1.0), h(2.0));
    }
}
