#!/usr/bin/env bash
# The libraries an SDK package depends on (LookClient, LookResolver, StableJSON and the Locking and FNV they use) must build for Apple
# platforms as well as Linux: no ICU, no C target, no Glibc outside `#if canImport`, no unsafeFlags (a package
# with unsafeFlags cannot be depended on by version). Run by `make test`.
#
# What is checked here, on Linux:
#   1. each source file of those targets imports only Foundation, the Swift toolchain's own modules and these
#      libraries; Darwin, Glibc, Musl and FoundationNetworking (URLSession on Linux) only directly under `#if canImport(<that module>)` / `#elseif`;
#   2. the targets' dependency closure in the package manifest holds only Swift targets (no system library, no C);
#   3. no `unsafeFlags` anywhere in Package.swift;
#   4. each target type-checks on its own with swiftc (the imports it names, nothing leaked from elsewhere).
# What is not: compiling them against an Apple SDK. This toolchain ships no macOS or iOS SDK; its only Apple
# standard libraries are Embedded Swift's (iOS 18, no Codable and no Foundation), which cannot build these
# libraries, so `swiftc -target arm64-apple-ios16` has nothing to build against here. On a Mac,
# `swift build --target LookResolver` (or xcodebuild for iOS) is the full check.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
targets=(Locking FNV StableJSON LookResolver LookClient)
allowed='^(Foundation|Swift|_Concurrency|Synchronization|Dispatch|Locking|FNV|StableJSON|LookResolver|LookClient)$'
platform='^(Darwin|Glibc|Musl|WinSDK|Android|Bionic|FoundationNetworking)$'
failures=0
fail() { echo "check-platform-neutral: $*" >&2; failures=$((failures + 1)); }

# 1. Imports.
for target in "${targets[@]}"; do
  while IFS= read -r file; do
    previous=''
    while IFS= read -r line; do
      if [[ $line =~ ^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+(class[[:space:]]+|struct[[:space:]]+|enum[[:space:]]+|func[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*) ]]; then
        module=${BASH_REMATCH[3]}
        [[ $line =~ @_exported ]] && fail "$file: @_exported import $module (say each import where it is used)"
        if [[ $module =~ $platform ]]; then
          [[ $previous =~ ^[[:space:]]*\#(if|elseif)[[:space:]]+canImport\($module\)[[:space:]]*$ ]] \
            || fail "$file: import $module outside #if canImport($module)"
        elif ! [[ $module =~ $allowed ]]; then
          fail "$file: imports $module (allowed: Foundation, the toolchain's modules, Locking, FNV, StableJSON, LookResolver)"
        fi
      fi
      previous=$line
    done < "$file"
  done < <(find "Sources/$target" -name '*.swift')
done

# 2. and 3. The manifest.
grep -n 'unsafeFlags' Package.swift && fail "Package.swift uses unsafeFlags"
manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT
"$SWIFT" package dump-package > "$manifest"
python3 - "$manifest" "${targets[@]}" <<'PY' || failures=$((failures + 1))
import json, os, sys
package = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in package["targets"]}
bad = []
seen = set()
todo = list(sys.argv[2:])
while todo:
    name = todo.pop()
    if name in seen:
        continue
    seen.add(name)
    target = targets[name]
    path = target.get("path") or os.path.join("Sources", name)
    if target["type"] == "system":
        bad.append(f"{name} is a system library")
    for root, _, files in os.walk(path):
        bad += [f"{name} has C/C++ source {f}" for f in files if f.endswith((".c", ".cpp", ".h", ".modulemap"))]
    for setting in target.get("settings", []):
        bad.append(f"{name} has a {setting['tool']} setting")
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                todo.append(dependency[kind][0])
        if "product" in dependency:
            bad.append(f"{name} depends on another package's product")
for line in bad:
    print(f"check-platform-neutral: {line}", file=sys.stderr)
if not bad:
    print(f"check-platform-neutral: dependency closure {sorted(seen)}: Swift only")
sys.exit(1 if bad else 0)
PY

# 4. Each target type-checks alone, in dependency order, against only the modules it names.
modules=$(mktemp -d)
trap 'rm -f "$manifest"; rm -rf "$modules"' EXIT
for target in "${targets[@]}"; do
  mapfile -t sources < <(find "Sources/$target" -name '*.swift' | sort)
  "$SWIFTC" -emit-module -emit-module-path "$modules/$target.swiftmodule" -module-name "$target" -parse-as-library \
    -swift-version 6 -I "$modules" "${sources[@]}" >/dev/null 2>"$modules/$target.log" \
    || { cat "$modules/$target.log" >&2; fail "$target does not type-check on its own"; }
done

if ((failures)); then
  echo "check-platform-neutral: $failures problem(s)" >&2
  exit 1
fi
echo "check-platform-neutral: ${targets[*]}: platform-neutral imports, Swift-only dependencies, no unsafeFlags"
