//! Stack for the recursive passes, whatever thread they run on.
//!
//! The parser (swc), the lowering, the code generator and the regular-expression compiler
//! recurse over their input. Their depth is bounded (`MAX_NESTING`, the regex limits), and each
//! level needs at most [`STACK_PER_LEVEL`] bytes (measured in debug builds, the worst case). Before
//! recursing, a pass calls [`with_stack_for`] with the depth its input reaches: when the current
//! thread has less stack left than that needs, the pass runs on a fresh stack segment
//! (`stacker`, the way rustc does it), so no input can overflow the stack of the thread that
//! polls `execute`, down to a 256 KiB thread. Shallow input (every program a model writes)
//! never switches stacks.

/// Stack bytes one level of recursion may take in the worst pass (debug build).
pub const STACK_PER_LEVEL: usize = 8 << 10;
/// Stack any pass needs besides its recursion.
pub const STACK_BASE: usize = 128 << 10;

/// Runs `f` with at least enough stack for `depth` levels of recursion.
pub fn with_stack_for<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    let needed = STACK_BASE.saturating_add(depth.saturating_mul(STACK_PER_LEVEL));
    stacker::maybe_grow(needed, needed.saturating_mul(2), f)
}
