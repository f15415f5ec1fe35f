#!/usr/bin/env bash
# Fuzz smoke test: runs every cargo-fuzz target briefly (3,000 runs or 60 s, whichever comes first).
#
# Works on a stable toolchain: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its nightly-only flags
# (-Zsanitizer=address included; checked with Rust 1.95 and cargo-fuzz 0.13).
# Installs cargo-fuzz if it is missing. Seeds: fuzz/seeds/<target>/ when present, and every
# tests/conformance program for run_source; a <target>.dict next to this script is used as dictionary.
#   FUZZ_RUNS, FUZZ_SECONDS, FUZZ_SANITIZER (default: address; `none` builds faster) and FUZZ_OPT_LEVEL
#   (the release profile's opt-level, default 3; CI uses 1, which builds faster and
#   still runs thousands of inputs a minute) override the defaults.
set -euo pipefail
cd "$(dirname "$0")"

runs="${FUZZ_RUNS:-3000}"
seconds="${FUZZ_SECONDS:-60}"
sanitizer="${FUZZ_SANITIZER:-address}"
export RUSTC_BOOTSTRAP=1
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${FUZZ_OPT_LEVEL:-3}"
# AddressSanitizer keeps freed memory in a quarantine (256 MB by default), which the metering
# oracle's peak-RSS bound would count: keep it small.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz/smoke.sh: installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

targets=$(cargo fuzz list)
if [ -z "$targets" ]; then
  echo "fuzz/smoke.sh: no fuzz targets found" >&2
  exit 1
fi

# Build all targets once, then run each.
cargo fuzz build -s "$sanitizer"

# shellcheck source=inputs.sh
source ./inputs.sh
for target in $targets; do
  fuzz_inputs "$target"
  echo "fuzz/smoke.sh: $target (${runs} runs, at most ${seconds}s)"
  cargo fuzz run -s "$sanitizer" "$target" "${dirs[@]}" -- -runs="$runs" -max_total_time="$seconds" "${dict[@]}"
done
echo "fuzz/smoke.sh: all targets ran without a crash"
