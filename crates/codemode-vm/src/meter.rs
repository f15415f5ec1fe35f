//! The metering layer: the one way work and memory are charged.
//!
//! **All work is charged through [`Vm::charge`]** with a [`Work`] that says what was done; the
//! conversion to fuel (rounding up, so no non-empty work is free) lives here and nowhere else.
//! **All growth is charged through [`Vm::charge_memory`]** (or the heap's allocation methods,
//! which charge inside) before the memory is built. A refused memory charge is a catchable
//! `RangeError`; fuel never throws: it goes negative, and the interpreter checks it after every
//! instruction that can do unbounded work (calls, backward jumps, built-ins), so one instruction
//! overruns its slice by at most its own work, which is linear (or `n log n`) in data the memory
//! limit bounds.

use crate::Vm;
use crate::call::Throw;

/// Fuel units per kind of work. One unit is about one interpreted instruction's worth of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// A call (any path: closure, built-in, tool, bound, tail call) passing `args` arguments.
    Call { args: usize },
    /// Visiting or copying `n` values, properties, entries or code units: `n / 16`.
    Elements(usize),
    /// Comparing or searching through `n` values or bytes: `n / 64`.
    Scan(usize),
    /// Copying, hashing or comparing `n` bytes of string data: `n / 256`.
    Bytes(usize),
    /// Sorting `n` items: `n log2 n / 8`.
    Sort(usize),
    /// Backtracking steps of the regular-expression engine.
    RegexSteps(u64),
    /// A fixed number of units (the interpreter's own steps).
    Units(u64),
}

/// Bytes charged per interned name besides its text: its span, its index entry and the spare
/// capacity of both (they grow by doubling).
pub(crate) const ATOM_OVERHEAD: usize = 96;

/// Bytes charged per host call for what it holds until the run ends: the VM's record and the
/// host's (the driver's task, its future and the call's entry in the result, about 650 bytes
/// measured with tokio), so a program issuing calls in a loop runs out of memory, not the host.
pub(crate) const HOST_CALL_RECORD_BYTES: usize = 1024;

/// Regex backtracking steps per fuel unit.
pub(crate) const REGEX_STEPS_PER_FUEL: u64 = 64;

impl Work {
    /// The fuel this work costs, rounded up.
    #[inline(always)]
    pub(crate) fn fuel(self) -> i64 {
        fn per(n: usize, unit: usize) -> i64 {
            n.div_ceil(unit).min(i64::MAX as usize / 2) as i64
        }
        match self {
            Work::Call { args } => 1 + per(args, 16),
            Work::Elements(n) => per(n, 16),
            Work::Scan(n) => per(n, 64),
            Work::Bytes(n) => per(n, 256),
            Work::Sort(n) => {
                let n = n as f64;
                ((n * n.max(2.0).log2()) / 8.0).ceil().min(i64::MAX as f64 / 2.0) as i64
            }
            Work::RegexSteps(steps) => steps.div_ceil(REGEX_STEPS_PER_FUEL).min(i64::MAX as u64 / 2) as i64,
            Work::Units(n) => n.min(i64::MAX as u64 / 2) as i64,
        }
    }
}

/// [`Work::Call`]'s fuel for a `u16` argument count.
#[inline(always)]
fn call_fuel(argc: u16) -> i64 {
    1 + (i64::from(argc) + 15) / 16
}

impl Vm {
    /// Charges `work` to this slice's fuel.
    #[inline(always)]
    pub(crate) fn charge(&mut self, work: Work) {
        self.fuel = self.fuel.saturating_sub(work.fuel());
    }

    /// [`Vm::charge`] of [`Work::Call`] for the interpreter's call instructions, whose argument
    /// count is a `u16`: the same fuel, without the general path's clamping.
    #[inline(always)]
    pub(crate) fn charge_call(&mut self, argc: u16) {
        // The cost is positive: saturating means clamping at the bottom only.
        self.fuel = self.fuel.checked_sub(call_fuel(argc)).unwrap_or(i64::MIN);
    }

    /// Charges `bytes` of growth to the memory limit before it is built; a charge that does not fit
    /// is refused (and not recorded) with the out-of-memory `RangeError`.
    #[inline]
    pub(crate) fn charge_memory(&mut self, bytes: usize) -> Result<(), Throw> {
        match self.heap.charge(bytes) {
            Ok(()) => Ok(()),
            Err(crate::heap::OutOfMemory) => Err(self.out_of_memory()),
        }
    }

    /// Checks, without recording anything, that `bytes` more would fit the memory limit: for
    /// work that builds its output in Rust before the heap takes it (and charges it then), so the
    /// process never holds more than the limit allows.
    pub(crate) fn ensure_fits(&mut self, bytes: usize) -> Result<(), Throw> {
        if self.heap.bytes_used.saturating_add(bytes) > self.heap.memory_limit {
            self.heap.set_collect_soon();
            return Err(self.out_of_memory());
        }
        Ok(())
    }

    /// How many pieces of a `split` the memory left, beyond `reserved` bytes, can hold: the
    /// splits build at most one more (which then means out of memory), so pieces are counted
    /// against the limit before they are built.
    pub(crate) fn split_pieces_that_fit(&self, reserved: usize) -> usize {
        const PIECE_BYTES: usize =
            std::mem::size_of::<Option<String>>() + crate::heap::STRING_OVERHEAD + crate::heap::VALUE_SIZE;
        self.heap.memory_limit.saturating_sub(self.heap.bytes_used.saturating_add(reserved)) / PIECE_BYTES
    }

    /// Charges `bytes` that stay allocated for the rest of the run (console lines, host-call
    /// records, interned names): kept in the count by every collection.
    pub(crate) fn charge_retained(&mut self, bytes: usize) -> Result<(), Throw> {
        match self.heap.charge_retained(bytes) {
            Ok(()) => Ok(()),
            Err(crate::heap::OutOfMemory) => Err(self.out_of_memory()),
        }
    }

    /// Interns a property name, charging a new name to the memory limit (names stay for the
    /// rest of the run).
    pub(crate) fn intern(&mut self, name: &str) -> Result<crate::value::Atom, Throw> {
        if let Some(atom) = self.heap.atoms.lookup(name) {
            return Ok(atom);
        }
        // The names' buffer grows by doubling too.
        self.charge_retained(2 * name.len() + ATOM_OVERHEAD)?;
        Ok(self.heap.atoms.insert_new(name))
    }

    /// Makes a new symbol (`Symbol(description)`, or a registered one for `Symbol.for`),
    /// charged like a name: symbols stay for the rest of the run.
    pub(crate) fn new_symbol(
        &mut self,
        text: &str,
        kind: crate::heap::AtomKind,
    ) -> Result<crate::value::Atom, Throw> {
        self.charge_retained(2 * text.len() + ATOM_OVERHEAD + 1)?;
        Ok(self.heap.atoms.insert_kind(text, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::Work;

    #[test]
    fn nonempty_work_is_never_free() {
        assert_eq!(Work::Elements(0).fuel(), 0);
        assert_eq!(Work::Elements(1).fuel(), 1);
        assert_eq!(Work::Bytes(257).fuel(), 2);
        assert_eq!(Work::Call { args: 0 }.fuel(), 1);
        assert_eq!(Work::Call { args: 17 }.fuel(), 3);
        assert!(Work::Sort(1 << 20).fuel() > Work::Elements(1 << 20).fuel());
        assert_eq!(Work::Units(u64::MAX).fuel(), i64::MAX / 2);
        assert!(Work::Elements(usize::MAX).fuel() > 0);
    }

    #[test]
    fn charge_call_is_work_call() {
        for argc in 0..=u16::MAX {
            assert_eq!(super::call_fuel(argc), Work::Call { args: argc as usize }.fuel(), "argc {argc}");
        }
    }
}
