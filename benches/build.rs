//! Links the benchmark binaries (`rss`, `repeat`) the way the `codemode` binary is linked, so
//! the resident memory they measure is the CLI's (`crates/codemode-cli/link_order.rs`).

include!("../crates/codemode-cli/link_order.rs");

fn main() {
    let cli = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/codemode-cli");
    link_order(&cli.join("link-order.txt"), &["rss"]);
}
