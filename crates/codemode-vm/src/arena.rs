//! The heap's arenas: `Vec<Option<T>>` with a free list, addressed by index, and the record of
//! which slots a run changed since its heap was copied from (or reset to) the pristine heap.
//!
//! **Every write to a slot goes through a method that records it.** The slots are private to
//! this module, and [`Arena::get_mut`], [`Arena::insert`] and [`Arena::free_where`] note the
//! index. That record is what lets [`Arena::reset_to`] restore only the slots a run touched, and
//! it cannot be wrong by a forgotten call site: there is no other way to write.

use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
pub struct Arena<T> {
    slots: Vec<Option<T>>,
    pub(crate) free: Vec<u32>,
    /// Which slots differ from the base this arena was last [`Arena::track_from`]ed. A copy or a
    /// restored arena has no base (`base_len` 0), so its reset copies every slot.
    #[serde(skip)]
    changed: Changes,
}

/// **Slots below `base_len` equal the base's, except those listed.** `seen` has a bit per slot
/// below `base_len`, so an index is listed once however often it is written.
#[derive(Clone, Debug, Default)]
struct Changes {
    base_len: usize,
    listed: Vec<u32>,
    seen: Vec<u64>,
    /// [`Arena::unchanged_base_bytes`] as last computed, with `listed.len()` then: valid while
    /// no further slot is listed (an unlisted slot equals the base's, so its size is fixed).
    unchanged_bytes: Option<(usize, usize)>,
}

impl Changes {
    fn starting_at(base_len: usize) -> Changes {
        Changes { base_len, listed: Vec::new(), seen: vec![0; base_len.div_ceil(64)], unchanged_bytes: None }
    }

    fn is_listed(&self, i: usize) -> bool {
        self.seen.get(i / 64).is_some_and(|word| word & (1u64 << (i % 64)) != 0)
    }

    #[inline]
    fn note(&mut self, i: usize) {
        if i < self.base_len
            && let Some(word) = self.seen.get_mut(i / 64)
        {
            let bit = 1u64 << (i % 64);
            if *word & bit == 0 {
                *word |= bit;
                self.listed.push(i as u32);
            }
        }
    }
}

/// A copy with room to grow: every run starts from a copy of the pristine realm's heap, and a
/// copy at its exact length would be moved whole by the run's first allocation (the main
/// promise), which was an eighth of a short program's cost. The record of changes is copied as
/// it is (it describes the copy as well as the original).
impl<T: Clone> Clone for Arena<T> {
    fn clone(&self) -> Self {
        let mut slots = Vec::with_capacity(self.slots.len() + self.slots.len() / 4 + 16);
        slots.extend(self.slots.iter().cloned());
        Arena { slots, free: self.free.clone(), changed: self.changed.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.slots.clone_from(&source.slots);
        self.free.clone_from(&source.free);
        self.changed.clone_from(&source.changed);
    }
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { slots: Vec::new(), free: Vec::new(), changed: Changes::default() }
    }
}

impl<T> Arena<T> {
    /// An arena of these slots, with no base.
    pub(crate) fn from_parts(slots: Vec<Option<T>>, free: Vec<u32>) -> Self {
        Arena { slots, free, changed: Changes::default() }
    }

    pub(crate) fn slots(&self) -> &[Option<T>] {
        &self.slots
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// The slot at `i`, for writing (noted as changed).
    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut Option<T>> {
        self.changed.note(i);
        self.slots.get_mut(i)
    }

    pub(crate) fn insert(&mut self, value: T) -> u32 {
        // A free list naming a slot past the end (only from a corrupt snapshot, which restore
        // rejects) is skipped rather than trusted.
        if let Some(i) = self.free.pop()
            && let Some(slot) = self.slots.get_mut(i as usize)
        {
            *slot = Some(value);
            self.changed.note(i as usize);
            return i;
        }
        self.push(Some(value))
    }

    fn push(&mut self, value: Option<T>) -> u32 {
        self.slots.push(value);
        (self.slots.len() - 1) as u32
    }

    /// Frees every live slot from `from` on that `keep` refuses (given its index), the
    /// collector's sweep (which keeps the base's slots without looking at them). A value that
    /// `holds_nothing` (no allocation of its own: dropping it would free nothing) is forgotten
    /// rather than dropped, which skips its drop glue.
    pub(crate) fn free_where(
        &mut self,
        from: usize,
        mut keep: impl FnMut(usize, &T) -> bool,
        holds_nothing: impl Fn(&T) -> bool,
    ) {
        for (i, slot) in self.slots.iter_mut().enumerate().skip(from) {
            if let Some(value) = slot
                && !keep(i, value)
            {
                if holds_nothing(value) {
                    std::mem::forget(slot.take());
                } else {
                    *slot = None;
                }
                self.free.push(i as u32);
                self.changed.note(i);
            }
        }
    }

    /// Gives back the slots' capacity beyond `capacity` (and the free list's beyond its length).
    pub(crate) fn shrink_to(&mut self, capacity: usize) {
        self.slots.shrink_to(capacity);
        self.free.shrink_to(self.free.len());
    }

    /// How many leading slots were the base's when this arena was [`Arena::track_from`]ed (0
    /// without a base).
    pub(crate) fn base_len(&self) -> usize {
        self.changed.base_len
    }

    /// The slots below [`Arena::base_len`] written since (each once); every other slot there
    /// still equals the base's.
    pub(crate) fn changed_below_base(&self) -> &[u32] {
        &self.changed.listed
    }

    /// The sum of `size` over the slots below [`Arena::base_len`] not written since: computed
    /// once and again only after another slot is written, as those slots cannot change (the
    /// collector counts the kept base this way instead of visiting it every collection).
    /// `size` must be a function of a slot's contents alone.
    pub(crate) fn unchanged_base_bytes(&mut self, size: impl Fn(&T) -> usize) -> usize {
        let listed = self.changed.listed.len();
        if let Some((at, bytes)) = self.changed.unchanged_bytes
            && at == listed
        {
            debug_assert_eq!(bytes, self.sum_unchanged_base(&size), "a base slot changed unlisted");
            return bytes;
        }
        let bytes = self.sum_unchanged_base(&size);
        self.changed.unchanged_bytes = Some((listed, bytes));
        bytes
    }

    fn sum_unchanged_base(&self, size: &impl Fn(&T) -> usize) -> usize {
        let base = self.changed.base_len.min(self.slots.len());
        (0..base)
            .filter(|&i| !self.changed.is_listed(i))
            .filter_map(|i| self.slots.get(i).and_then(Option::as_ref))
            .map(size)
            .sum()
    }

    /// From now on, records changes against this arena's present contents, which are `base`'s.
    pub(crate) fn track_from(&mut self, base: &Arena<T>) {
        self.changed = Changes::starting_at(base.slots.len());
    }
}

impl<T: Clone> Arena<T> {
    /// Makes this arena equal to `base` (`clone_from`), copying only the slots changed since
    /// [`Arena::track_from`] when `tracked` says `base` is the base that call was given.
    pub(crate) fn reset_to(&mut self, base: &Arena<T>, tracked: bool) {
        let changes = std::mem::take(&mut self.changed);
        if tracked && changes.base_len == base.slots.len() && self.slots.len() >= base.slots.len() {
            self.slots.truncate(base.slots.len());
            for &i in &changes.listed {
                if let (Some(slot), Some(original)) =
                    (self.slots.get_mut(i as usize), base.slots.get(i as usize))
                {
                    slot.clone_from(original);
                }
            }
            let mut seen = changes.seen;
            seen.fill(0);
            let mut listed = changes.listed;
            listed.clear();
            self.changed = Changes { base_len: base.slots.len(), listed, seen, unchanged_bytes: None };
        } else {
            self.slots.clone_from(&base.slots);
            self.changed = Changes::starting_at(base.slots.len());
        }
        self.free.clone_from(&base.free);
    }
}
