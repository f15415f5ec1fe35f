// The link order of the release binaries, shared by this package's build script and
// codemode-bench's (which `include!`s this file): the functions that codemode runs execute
// are listed in `link-order.txt` (written by `cargo xtask link-order`) and the linker places
// them first, together. Why: the kernel maps code in 64 KiB windows around each page a
// process first touches, so ~600 functions scattered over 8 MB of text made 4 MiB of a
// small run's resident set; packed, they fit in a fraction of that (docs/benchmarks.md).
//
// Only where the linker is known to be LLD (the default of x86_64-unknown-linux-gnu since
// Rust 1.90; this workspace needs 1.95) and no other linker is configured, and only for
// release builds; `CODEMODE_LINK_ORDER=0` turns it off. Names the file no longer matches
// are skipped by the linker: a stale list costs memory, never correctness.
//
// The read-only data those functions read (jump tables, string and number constants) has no
// symbols to order by, so `rodata-order.ld` beside the list names its input sections instead:
// a linker script that only adds an output section (`INSERT BEFORE .rodata`), gathering them
// in front of the rest; the default layout stays LLD's own, and a pattern nothing matches is
// ignored. With `CODEMODE_LINK_MAP_DIR` set, the binaries named in `mapped` also write their
// link maps there (`cargo xtask link-order` reads them to name the sections).

fn link_order(order_file: &std::path::Path, mapped: &[&str]) {
    let rodata_script = order_file.with_file_name("rodata-order.ld");
    println!("cargo:rerun-if-changed={}", order_file.display());
    println!("cargo:rerun-if-changed={}", rodata_script.display());
    println!("cargo:rerun-if-env-changed=CODEMODE_LINK_ORDER");
    println!("cargo:rerun-if-env-changed=CODEMODE_LINK_MAP_DIR");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let wanted = var("CODEMODE_LINK_ORDER") != "0";
    let release = var("PROFILE") == "release";
    let lld_by_default = var("TARGET") == "x86_64-unknown-linux-gnu";
    // `-C linker=...`, `-C linker-features=-lld`, `-C link-self-contained=...`, `-fuse-ld=...`
    // or a configured linker: which linker runs is not ours to guess.
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let own_linker = !var("RUSTC_LINKER").is_empty()
        || ["linker", "link-self-contained", "fuse-ld"].iter().any(|f| flags.contains(f));
    if !(wanted && release && lld_by_default && !own_linker) {
        return;
    }
    if order_file.is_file() {
        println!("cargo:rustc-link-arg=-Wl,--symbol-ordering-file={}", order_file.display());
        println!("cargo:rustc-link-arg=-Wl,--no-warn-symbol-ordering");
    }
    if rodata_script.is_file() {
        println!("cargo:rustc-link-arg=-Wl,-T,{}", rodata_script.display());
    }
    let map_dir = var("CODEMODE_LINK_MAP_DIR");
    if !map_dir.is_empty() {
        for bin in mapped {
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,-Map={map_dir}/{bin}.map");
        }
    }
}
