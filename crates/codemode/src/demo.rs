//! Built-in demo tools, the same ones the benchmark workloads and the conformance suite use.
//!
//! - `orders.lookup({ id })` → `{ id, status, total, customer }` where `n` is the number made of the
//!   digits in `id` (0 if none): status `"open"` when `n` is even else `"complete"`,
//!   total `(n * 17) % 100 + 0.5`, customer `"c" + n % 5`.
//! - `data.records({ n })` → `{ records: [...] }`, `n` records (about 1 MB of JSON at 5,000).
//! - `demo.echo(value)` → `value`.
//! - `demo.fail({ message })` → fails with that message.
//! - `demo.sleep({ ms, value })` → `value` after `ms` milliseconds.

use crate::Builder;

/// A builder preloaded with the demo tools.
pub fn builder() -> Builder {
    Builder::default()
}
