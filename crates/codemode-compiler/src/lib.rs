//! codemode-compiler
