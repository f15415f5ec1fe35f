//! codemode-vm
