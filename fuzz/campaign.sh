#!/usr/bin/env bash
# A fuzzing campaign (hours, not the smoke run's minute): one target, built without a sanitizer
# and fully optimized so the metering oracle's time and peak-RSS bounds measure what a user's
# build does, run for FUZZ_HOURS (default 2) from its seeds and every conformance program, with
# libFuzzer's own RSS cap as a second guard. Findings land in fuzz/artifacts/<target>/; the last
# lines of the log are the figures to record (runs, corpus, coverage).
#   usage: fuzz/campaign.sh [TARGET]   (default run_source)
#   FUZZ_HOURS and FUZZ_LOG override the defaults. One worker: the machine's other core stays free.
set -euo pipefail
cd "$(dirname "$0")"

target="${1:-run_source}"
hours="${FUZZ_HOURS:-2}"
log="${FUZZ_LOG:-campaign-$target.log}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz/campaign.sh: installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

# shellcheck source=inputs.sh
source ./inputs.sh
fuzz_inputs "$target"
seconds=$(awk "BEGIN { printf \"%d\", $hours * 3600 }")
echo "fuzz/campaign.sh: $target for ${seconds}s, log $log"
cargo fuzz build -s none -O "$target"
# -rss_limit_mb: libFuzzer's own cap, above the oracle's (32 MiB heap limit + 64 MiB + the
# harness), so the oracle's message names the input first.
cargo fuzz run -s none -O "$target" "${dirs[@]}" -- \
  -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=30 \
  -print_final_stats=1 "${dict[@]}" 2>&1 | tee "$log" | grep -E "^#[0-9]+.*(pulse|DONE)|ERROR|panicked|stat::" || true
if grep -qE "ERROR: libFuzzer|panicked|deadly signal" "$log"; then
  echo "fuzz/campaign.sh: $target found a failure; see $log and artifacts/$target/" >&2
  exit 1
fi
echo "fuzz/campaign.sh: $target ran ${seconds}s without a failure"
