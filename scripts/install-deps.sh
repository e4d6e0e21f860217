#!/usr/bin/env bash
# Installs what lookd needs from Debian's apt, only when something is missing. Idempotent.
set -euo pipefail
need_apt=()
pkg-config --exists icu-uc icu-i18n 2>/dev/null || need_apt+=(libicu-dev)
pkg-config --exists sqlite3 2>/dev/null || need_apt+=(libsqlite3-dev)
pkg-config --exists libpq 2>/dev/null || need_apt+=(libpq-dev)
# OpenSSL's libcrypto (Sources/CCrypto): HMAC-SHA256 for webhook signatures and preview tokens.
pkg-config --exists libcrypto 2>/dev/null || need_apt+=(libssl-dev)
# The response codings (Sources/CBrotli, Sources/CZlib): libbrotli's encoder and decoder, zlib.
pkg-config --exists libbrotlienc libbrotlidec 2>/dev/null || need_apt+=(libbrotli-dev)
pkg-config --exists zlib 2>/dev/null || need_apt+=(zlib1g-dev)
# XML (Sources/CXML): libxml2's SAX2 parser reads XLIFF and Android resources.
pkg-config --exists libxml-2.0 2>/dev/null || need_apt+=(libxml2-dev)
# The gzip coding's encoder (Sources/CDeflate): libdeflate, whose level 12 beats zlib's best; zlib still decodes.
pkg-config --exists libdeflate 2>/dev/null || need_apt+=(libdeflate-dev)
# The tests decode what lookd compresses with programs that are not lookd's: `brotli -d` and `gzip -d`.
command -v brotli >/dev/null 2>&1 || need_apt+=(brotli)
command -v gzip >/dev/null 2>&1 || need_apt+=(gzip)
# The PostgreSQL server, for the tests' throw-away cluster (scripts/postgres-cluster.sh) and the store bench.
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need_apt+=(postgresql)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
# A package counts only when fully installed: `dpkg -s` also succeeds for one removed with its config kept.
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
for extra in "$@"; do
  installed "$extra" || need_apt+=("$extra")
done
if ((${#need_apt[@]})); then
  echo "install-deps: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi
command -v swift >/dev/null 2>&1 || { echo "install-deps: swift is not on PATH (expected the Swift 6.3 toolchain at /opt/swift)" >&2; exit 1; }
