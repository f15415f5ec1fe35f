//! Where a prototype holds a named property, remembered for `o.name` reads whose receiver has
//! nothing of its own to say (`array.push`, `text.split`, `n.toFixed`): the prototype's slot
//! is read directly instead of walking the receiver and searching the prototype's map. Objects
//! with many properties of their own (`Math.abs`, `JSON.stringify`, the global object's
//! names, a program's dictionaries) are their own holders: their map's hash is skipped.
//!
//! **The cache is never wrong, only sometimes missed.** An entry maps (holder, name) to a slot
//! index; a hit is used only when the holder is the one this receiver's lookup starts from,
//! is an ordinary object, and that slot still holds that name as a data property. Whatever a
//! program does to prototypes (adds, deletes, redefines, accessors, `setPrototypeOf`), a stale
//! entry fails that check and the ordinary lookup runs. Nothing here is saved or charged: a
//! cache has no effect on results or fuel.

use crate::Vm;
use crate::object::{ACCESSOR, ObjKind};
use crate::value::{Atom, ObjId, Value};

/// Entries (a power of two): direct-mapped.
const ENTRIES: usize = 256;

#[derive(Clone, Copy, Default)]
struct Entry {
    holder: u32,
    atom: u32,
    /// Slot index + 1 (0: empty).
    slot: u32,
}

#[derive(Clone)]
pub(crate) struct MethodCache(Box<[Entry]>);

impl Default for MethodCache {
    fn default() -> Self {
        MethodCache(vec![Entry::default(); ENTRIES].into_boxed_slice())
    }
}

impl std::fmt::Debug for MethodCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MethodCache")
    }
}

#[inline]
fn entry_index(holder: ObjId, atom: Atom) -> usize {
    let mixed = (holder.0 ^ atom.0.rotate_left(16)).wrapping_mul(0x9E37_79B9);
    (mixed >> (32 - ENTRIES.trailing_zeros())) as usize
}

impl Vm {
    /// Where a read of `atom` on `receiver` can be answered from the cache: the prototype it
    /// starts from when the receiver itself has no say (a primitive string, number or boolean,
    /// `length` aside; an array without named properties of its own), or a plain object with a
    /// hashed map itself (only its own properties are remembered).
    #[inline]
    fn method_holder(&self, receiver: Value, atom: Atom) -> Option<ObjId> {
        if atom == self.realm.atoms.length || atom == self.realm.atoms.prototype {
            return None;
        }
        match receiver {
            Value::Str(_) => Some(self.realm.string_proto),
            Value::Number(_) => Some(self.realm.number_proto),
            Value::Bool(_) => Some(self.realm.boolean_proto),
            Value::Obj(id) => {
                let obj = self.heap.obj(id);
                match obj.kind {
                    ObjKind::Array(_) if obj.props.is_empty() => obj.proto,
                    ObjKind::Plain if obj.props.is_indexed() => Some(id),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `receiver.atom` from the cache, if it holds the answer: `Ok(value)`; else `Err` with the
    /// holder to give [`Vm::remember_method`] after the ordinary read (`None`: not cacheable).
    #[inline]
    pub(crate) fn cached_method(&self, receiver: Value, atom: Atom) -> Result<Value, Option<ObjId>> {
        let holder = self.method_holder(receiver, atom).ok_or(None)?;
        self.cached_in(holder, atom).ok_or(Some(holder))
    }

    #[inline]
    fn cached_in(&self, holder: ObjId, atom: Atom) -> Option<Value> {
        let entry = self.method_cache.0.get(entry_index(holder, atom))?;
        if entry.holder != holder.0 || entry.atom != atom.0 || entry.slot == 0 {
            return None;
        }
        let obj = self.heap.obj(holder);
        if !ordinary(&obj.kind) {
            return None;
        }
        let slot = obj.props.slot(entry.slot as usize - 1)?;
        (slot.key == atom && slot.flags & ACCESSOR == 0).then_some(slot.value())
    }

    /// After an ordinary read of `atom` through `holder` (from [`Vm::cached_method`]):
    /// remembers the slot when the property is a data property of the holder itself.
    #[inline(never)]
    pub(crate) fn remember_method(&mut self, holder: ObjId, atom: Atom) {
        if let Some(index) = self.heap.obj(holder).props.find(atom) {
            self.remember_slot(holder, atom, index);
        }
    }

    /// A global binding's value (a data property of the global object, which is plain).
    #[inline]
    pub(crate) fn cached_global(&mut self, atom: Atom) -> Option<Value> {
        let global = self.realm.global;
        if let Some(v) = self.cached_in(global, atom) {
            return Some(v);
        }
        let index = self.heap.obj(global).props.find(atom)?;
        let value = self.heap.obj(global).props.slot(index)?.value();
        self.remember_slot(global, atom, index);
        Some(value)
    }

    /// Remembers that `holder` holds `atom` in slot `index`, if it is an ordinary object and
    /// the slot a data property.
    fn remember_slot(&mut self, holder: ObjId, atom: Atom, index: usize) {
        let obj = self.heap.obj(holder);
        if !ordinary(&obj.kind) || obj.props.slot(index).is_none_or(|slot| slot.flags & ACCESSOR != 0) {
            return;
        }
        let Ok(slot) = u32::try_from(index + 1) else { return };
        if let Some(entry) = self.method_cache.0.get_mut(entry_index(holder, atom)) {
            *entry = Entry { holder: holder.0, atom: atom.0, slot };
        }
    }
}

/// Holders whose named properties are exactly their map's slots (no exotic answers first).
fn ordinary(kind: &ObjKind) -> bool {
    matches!(kind, ObjKind::Plain | ObjKind::Array(_) | ObjKind::Boxed(_))
}
