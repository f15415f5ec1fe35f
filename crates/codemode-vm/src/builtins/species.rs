//! The `get [Symbol.species]` accessors of the constructors that have one (`Array`, `Map`, `Set`,
//! `Promise`, `RegExp`, `ArrayBuffer`, `%TypedArray%`): each returns its `this`.
//!
//! Only the accessors: the built-in methods that would consult `constructor[Symbol.species]`
//! make results of their own kind (docs/language.md says so), which is what the accessor
//! returns for every constructor a program did not subclass and override.

use super::{NativeDef, Step};
use crate::Vm;
use crate::call::Throw;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Array", "get @@species", 0, species),
    NativeDef::new("Map", "get @@species", 0, species),
    NativeDef::new("Set", "get @@species", 0, species),
    NativeDef::new("Promise", "get @@species", 0, species),
    NativeDef::new("RegExp", "get @@species", 0, species),
    NativeDef::new("ArrayBuffer", "get @@species", 0, species),
    NativeDef::new("TypedArray", "get @@species", 0, species),
];

fn species(_vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(this))
}
