#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets of Fuzz/ with -sanitize=fuzzer,address in .build/fuzz (the normal
# build is untouched), runs each for FUZZ_SECONDS (default 60) from its seed corpus in Fuzz/Corpus/<target>/,
# prints executions and findings per target, and exits 1 when any target crashed, leaked, hung
# (FUZZ_TIMEOUT seconds per input, default 10) or ran out of memory.
# FUZZ_TARGETS="FuzzNegotiation FuzzLayerResolve" runs a subset. Inputs that found something are kept in
# .build/fuzz-artifacts/<target>/; new coverage-increasing inputs in .build/fuzz-corpus/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
SCRATCH=.build/fuzz
SWIFT_TARGETS=(FuzzLayerResolve FuzzCatalogLint FuzzMessageFormat FuzzNegotiation FuzzCatalogFormats FuzzStableJSON)
# C targets: Fuzz/C/<name>.c, compiled with the sources it names on its first line ("// sources: a.c b.c").
C_TARGETS=()
for c in Fuzz/C/*.c; do [ -e "$c" ] && C_TARGETS+=("$(basename "$c" .c)"); done
read -r -a TARGETS <<< "${FUZZ_TARGETS:-${SWIFT_TARGETS[*]} ${C_TARGETS[*]}}"

swift_wanted=()
for t in "${TARGETS[@]}"; do [[ " ${SWIFT_TARGETS[*]} " == *" $t "* ]] && swift_wanted+=("$t"); done
if ((${#swift_wanted[@]})); then
  for t in "${swift_wanted[@]}"; do
    echo "fuzz: building $t"
    swift build --package-path Fuzz --scratch-path "$SCRATCH" -c debug \
      -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "$t"
  done
fi
bin_dir=$(swift build --package-path Fuzz --scratch-path "$SCRATCH" -c debug --show-bin-path)
mkdir -p "$SCRATCH/c"
for t in "${TARGETS[@]}"; do
  [ -f "Fuzz/C/$t.c" ] || continue
  read -r -a sources <<< "$(sed -n '1s|^// sources: *||p' "Fuzz/C/$t.c")"
  echo "fuzz: building $t (clang)"
  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    $(sed -n '2s|^// cflags: *||p' "Fuzz/C/$t.c") "Fuzz/C/$t.c" "${sources[@]}" -o "$SCRATCH/c/$t"
done

# The same LeakSanitizer suppressions as `make sanitize`: leaks inside the toolchain only, each with its reason.
export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize-lsan.supp:print_suppressions=0"
status=0
summary=()
for t in "${TARGETS[@]}"; do
  if [ -f "Fuzz/C/$t.c" ]; then binary="$SCRATCH/c/$t"; else binary="$bin_dir/$t"; fi
  [ -x "$binary" ] || { echo "fuzz: no such target $t" >&2; exit 2; }
  corpus=.build/fuzz-corpus/$t
  artifacts=.build/fuzz-artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  log=.build/fuzz-artifacts/$t.log
  echo "fuzz: running $t for ${FUZZ_SECONDS}s"
  set +e
  dict=()
  [ -f "Fuzz/Dictionaries/$t.dict" ] && dict=(-dict="Fuzz/Dictionaries/$t.dict")
  "$binary" "${dict[@]}" -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "Fuzz/Corpus/$t" > "$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$runs" ] || runs=$(grep -o '#[0-9]*' "$log" | tail -1 | tr -d '#')
  finding=$(grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer): [a-zA-Z-]+|Fatal error:.*|runtime error:.*' "$log" || true)
  artifact=$(grep -m1 -oE "Test unit written to [^ ]+" "$log" | sed 's/Test unit written to //' || true)
  if ((rc != 0)); then
    status=1
    summary+=("$t: ${runs:-0} runs, FINDING: ${finding:-exit $rc} ${artifact:+($artifact)}")
  else
    summary+=("$t: ${runs:-0} runs, no finding")
  fi
done
echo
echo "fuzz summary (${FUZZ_SECONDS}s per target; logs in .build/fuzz-artifacts/):"
printf '  %s\n' "${summary[@]}"
exit $status
