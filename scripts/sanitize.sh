#!/usr/bin/env bash
# `make sanitize` / `make sanitize-ci`: the Swift test suite under sanitizers, each build in its own scratch
# path so the normal .build/debug is untouched. The live-daemon tests start the lookd built next to the test
# bundle, so the daemon runs sanitized too. Every sanitizer writes its reports to files (log_path) and the
# run fails when any report exists, whatever the tests said.
#   scripts/sanitize.sh address   AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer), whole suite
#   scripts/sanitize.sh thread    ThreadSanitizer, whole suite
#   scripts/sanitize.sh ci        ThreadSanitizer over the concurrent suites only (SANITIZE_CI_FILTER)
# SANITIZE_FILTER narrows any mode to a `swift test --filter` regular expression.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-address}
# The suites where threads meet: the live daemon (HTTP workers, stores, shutdown), the negotiation memo,
# the message table and palette cache shared across threads, and the lint route.
SANITIZE_CI_FILTER=${SANITIZE_CI_FILTER:-'LookdTests|NegotiationMemoTests|CompiledMessage|ResolvedLookProperty'}
filter=${SANITIZE_FILTER:-}
case "$mode" in
  # Swift has no -sanitize=undefined on Linux: UBSan covers the C and C++ shims (the ASan runtime carries its handlers).
  address) flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize=vptr -Xcxx -fsanitize=undefined -Xcxx -fno-sanitize=vptr); scratch=.build/asan ;;
  thread) flags=(--sanitize=thread); scratch=.build/tsan ;;
  ci) flags=(--sanitize=thread); scratch=.build/tsan; filter=${filter:-$SANITIZE_CI_FILTER} ;;
  *) echo "usage: $0 address|thread|ci" >&2; exit 2 ;;
esac
reports=$PWD/.build/sanitize-reports/$mode
rm -rf "$reports"
mkdir -p "$reports"

echo "sanitize: building tests with ${flags[*]} in $scratch"
swift build --build-tests --scratch-path "$scratch" "${flags[@]}"

export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize-lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1"
export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=0:second_deadlock_stack=1:suppressions=$PWD/scripts/sanitize-tsan.supp"
echo "sanitize: swift test ${filter:+--filter '$filter'} (reports in $reports)"
set +e
swift test --skip-build --scratch-path "$scratch" "${flags[@]}" ${filter:+--filter "$filter"}
tests=$?
set -e
count=0
for report in "$reports"/*; do
  [ -e "$report" ] || continue
  count=$((count + 1))
  echo "===== sanitizer report $report"
  grep -m1 -E "ERROR|WARNING|runtime error" "$report" || true
  grep -E "^SUMMARY" "$report" || true
  grep -m12 -E "^ +#[0-9]+ " "$report" || true
done
echo "sanitize ($mode): tests exit $tests, $count sanitizer report file(s)"
((tests == 0 && count == 0))
