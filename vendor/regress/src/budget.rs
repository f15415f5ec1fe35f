//! Step budget (codemode patch; not in upstream regress).
//!
//! The classical backtracking engine has no step limit, so a catastrophic pattern such as
//! `/(a+)+$/` on a long non-matching input would run for an astronomically long time. This module
//! adds a per-thread budget of *steps*: every instruction the backtracker dispatches, every
//! backtrack and every character a single-character loop scans costs one step. When the budget
//! is exhausted the current search gives up (reports no match) and [`exceeded`] turns true, so
//! the caller can tell "no match" from "gave up".
//!
//! The budget is unlimited (`u64::MAX`) unless [`set`] is called, so behaviour is unchanged for
//! other users of the crate.

#[cfg(feature = "std")]
mod imp {
    use std::cell::Cell;

    std::thread_local! {
        static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
        static EXCEEDED: Cell<bool> = const { Cell::new(false) };
    }

    pub fn set(steps: u64) {
        LEFT.with(|l| l.set(steps));
        EXCEEDED.with(|e| e.set(false));
    }

    pub fn remaining() -> u64 {
        LEFT.with(Cell::get)
    }

    pub fn exceeded() -> bool {
        EXCEEDED.with(Cell::get)
    }

    #[inline]
    pub(crate) fn charge(n: u64) -> bool {
        LEFT.with(|l| {
            let left = l.get();
            if left >= n {
                l.set(left - n);
                false
            } else {
                l.set(0);
                EXCEEDED.with(|e| e.set(true));
                true
            }
        })
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub fn set(_steps: u64) {}
    pub fn remaining() -> u64 {
        u64::MAX
    }
    pub fn exceeded() -> bool {
        false
    }
    #[inline]
    pub(crate) fn charge(_n: u64) -> bool {
        false
    }
}

/// Sets this thread's step budget for the following searches and clears [`exceeded`].
pub use imp::set;

/// Steps left in this thread's budget.
pub use imp::remaining;

/// Whether a search gave up because the budget ran out since the last [`set`].
pub use imp::exceeded;

/// Charges `n` steps; true when the budget is (now) exhausted.
pub(crate) use imp::charge;
