//! The built-in behind every extension global (see `host/extension.rs`).

use super::NativeDef;

pub const DEFS: &[NativeDef] =
    &[NativeDef::new("#internal", "extensionCall", 0, |vm, _this, args, data| vm.call_extension(args, data))];

/// The built-in extension functions are bound to.
pub(crate) fn extension_call() -> Option<super::Native> {
    super::Native::by_stable_name("#internal.extensionCall")
}
