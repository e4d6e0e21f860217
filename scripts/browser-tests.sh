#!/usr/bin/env bash
# The preview's real-browser tests (issue 7): headless Chromium from Debian, selenium and pytest from PyPI in a
# venv under .build/. Installs what is missing; needs `swift build` to have built .build/debug/lookd.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh chromium chromium-driver fonts-noto-core fonts-noto-cjk python3-venv
venv=.build/browser-venv
if [ ! -x "$venv/bin/pytest" ] || ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20,<5" "pytest>=8,<9"
fi
export LOOKD_BIN="${LOOKD_BIN:-$PWD/.build/debug/lookd}"
# Selenium must use Debian's chromedriver and never try to download one.
export SE_OFFLINE=true
exec "$venv/bin/pytest" -q Tests/Browser "$@"
