//! Links the `codemode` binary with the functions a run executes placed together
//! (`link_order.rs`).

include!("link_order.rs");

fn main() {
    link_order(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("link-order.txt"), &["codemode"]);
}
