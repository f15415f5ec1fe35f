//! codemode-tools
