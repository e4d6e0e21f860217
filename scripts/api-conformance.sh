#!/usr/bin/env bash
# API conformance: schemathesis (PyPI, in a venv under .build/) against the daemon's own /openapi.json.
# Starts `lookd serve` on a free loopback port with a temporary data directory and admin token, runs every
# operation with the checks not_a_server_error, status_code_conformance, content_type_conformance and
# response_schema_conformance (API_EXAMPLES generated cases per operation, default 50), stops the daemon and
# exits non-zero on any finding or when the daemon died. API_CHECKS replaces the list of checks, e.g. adding
# positive_data_acceptance (a request valid by the document must not be refused).
# LOOKD_BIN=path uses that binary (default: the debug build, built if missing or stale).
set -euo pipefail
cd "$(dirname "$0")/.."
API_EXAMPLES=${API_EXAMPLES:-50}
API_CHECKS=${API_CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}
SCHEMATHESIS=${SCHEMATHESIS:-schemathesis==4.32.5}
VENV=.build/schemathesis-venv
if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV" 2>/dev/null || { scripts/install-deps.sh python3-venv && python3 -m venv "$VENV"; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$SCHEMATHESIS"
fi
if [ -z "${LOOKD_BIN:-}" ]; then
  swift build --product lookd
  LOOKD_BIN="$(swift build --show-bin-path)/lookd"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/lookd-api-XXXXXX")
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$token" > "$work/token"
# The same token opens the change feed, so schemathesis's one Authorization header reaches GET /v1/changes too.
"$LOOKD_BIN" serve --listen 127.0.0.1:0 --data "$work/data" --admin-token-file "$work/token" --feed-token-file "$work/token" --access-log off \
  2> "$work/stderr.log" &
pid=$!
port=""
for _ in $(seq 1 200); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/stderr.log" | head -1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/stderr.log" >&2; echo "api-conformance: lookd did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "api-conformance: lookd did not report its port" >&2; exit 1; }
base="http://127.0.0.1:$port"
# One published look, so the feed has an event: a generated cursor below it answers at once and one above it 410; only
# after=1 with wait>0 long-polls (up to 60 s, as described).
key=$("$LOOKD_BIN" keygen)
curl -sf -o /dev/null -X PUT "$base/v1/apps/$key/look" -H "Authorization: Bearer $token" -H "If-None-Match: *" \
  -H "Content-Type: application/json" --data '{"corners":"soft"}' || { echo "api-conformance: the first publish failed" >&2; exit 1; }
echo "api-conformance: lookd on $base, schemathesis $("$VENV/bin/schemathesis" --version 2>/dev/null | tail -1)"

set +e
"$VENV/bin/schemathesis" run "$base/openapi.json" --url "$base" \
  --checks "$API_CHECKS" \
  --max-examples "$API_EXAMPLES" --header "Authorization: Bearer $token" \
  --generation-deterministic --suppress-health-check all --no-color \
  --report junit --report-dir "$work/report"
rc=$?
set -e
if ! kill -0 "$pid" 2>/dev/null; then
  echo "api-conformance: lookd died during the run:" >&2; tail -n 40 "$work/stderr.log" >&2; exit 1
fi
echo "api-conformance: schemathesis exit $rc"
exit $rc
