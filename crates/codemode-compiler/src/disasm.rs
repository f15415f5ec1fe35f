//! Stable textual disassembly.
