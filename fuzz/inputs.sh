# Sourced by smoke.sh and campaign.sh (from fuzz/): `fuzz_inputs TARGET` sets `dirs` (the
# target's corpus, made if missing, then its seeds; run_source also starts from every
# conformance program, a read-only seed directory) and `dict` (libFuzzer's -dict flag when a
# TARGET.dict is next to these scripts).
fuzz_inputs() {
  local target="$1"
  mkdir -p "corpus/$target"
  dirs=("corpus/$target")
  if [ -d "seeds/$target" ]; then
    dirs+=("seeds/$target")
  fi
  if [ "$target" = run_source ]; then
    dirs+=("../tests/conformance")
  fi
  dict=()
  if [ -f "$target.dict" ]; then
    dict=(-dict="$target.dict")
  fi
}
