#!/usr/bin/env bash
# Runs lookd over the localization files real projects ship, found under a directory you give (public apps'
# repositories checked out there; nothing of theirs belongs in this repository):
#   every String Catalog (*.xcstrings), Android res/ folder (one whose values/ holds strings.xml or another file
#   with strings), Xcode export
#   (*.xcloc, or a loose *.xliff outside one).
# For each input it checks, and prints one line:
#   - lint: no crash, no usage error (exit 0 or 1 within 300 s), the findings counted by check;
#   - no false positive of the kinds fixed for real files (docs/lint.md, "Real projects"): a locale refused for not
#     being one of lookd's 50, an Xcode XLIFF refused for its many <file>s, a Java/Apple specifier with flags,
#     width or precision refused as unsupported, an Android string with styling tags refused;
#   - round trip (String Catalogs and Android trees): `lookd import --keep-unreadable` into a scratch folder (its
#     lint gate turned off: real files have real errors, which the lint line reports), then `lookd export`, and
#     the files compared byte for byte with the input (docs/formats.md, "Round trip"): "identical", or the files
#     that differ with the first differing line;
#   - Android: `aapt2 compile` of every exported strings.xml (when aapt2 is installed), one file at a time, so a
#     file the project itself ships broken (and the round trip keeps) is named without hiding the others.
# Exit status: 0 when every input passed the checks above, 1 otherwise, 2 for a usage error.
#
#   scripts/real-corpus.sh DIR [LOOKD]      (LOOKD defaults to .build/release/lookd, else .build/debug/lookd)
set -u
dir=${1:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "usage: scripts/real-corpus.sh DIR [LOOKD]" >&2
    exit 2
fi
lookd=${2:-}
if [ -z "$lookd" ]; then
    for candidate in .build/release/lookd .build/debug/lookd; do
        if [ -x "$candidate" ]; then lookd=$candidate; break; fi
    done
fi
if [ -z "$lookd" ] || [ ! -x "$lookd" ]; then
    echo "real-corpus: no lookd binary (swift build --product lookd)" >&2
    exit 2
fi
aapt2=$(command -v aapt2 || true)
[ -z "$aapt2" ] && [ -x /usr/lib/android-sdk/build-tools/debian/aapt2 ] && aapt2=/usr/lib/android-sdk/build-tools/debian/aapt2
scratch=$(mktemp -d)
# Every check's code, to switch the import's lint gate off for the round trip.
checks="unreadable-file invalid-utf8 invalid-json duplicate-key file-name missing-key syntax-error argument-mismatch argument-type
missing-other missing-plural-category control-character unbalanced-bidi unsupported-construct extra-key unreachable-plural-category
missing-decimal-category identical-to-source too-long whitespace end-punctuation empty-value space-around-cjk-placeholder
suffix-on-plain-argument translation-state unknown-locale markup-mismatch"
trap 'rm -rf "$scratch"' EXIT

# Messages that only the fixed false positives produce.
false_positive='not one of lookd.s 50|expected exactly one <file>|unsupported specifier|markup inside a string is not supported|plural variations on a string with 0 arguments|variations are not supported'

inputs=$(
    find "$dir" \( -name .git -prune \) -o \( -type f -name '*.xcstrings' -print \) -o \( -type d -name '*.xcloc' -print \) \
        -o \( -type f -name '*.xliff' -not -path '*.xcloc/*' -print \)
    # A res/ folder: its values/ holds strings.xml or another file with strings (lookd lint reads every values file).
    find "$dir" -name .git -prune -o -type f -path '*/values/*.xml' -print0 | xargs -0 -r grep -l -E '<(string|plurals) ' \
        | sed 's#/values/[^/]*\.xml$##' | sort -u
)
failed=0
count=0
while IFS= read -r input; do
    [ -z "$input" ] && continue
    count=$((count + 1))
    start=$(date +%s.%N)
    timeout 300 "$lookd" lint "$input" --format json > "$scratch/lint.json" 2> "$scratch/lint.err"
    status=$?
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    verdict=ok
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        verdict="CRASH-OR-USAGE(exit $status: $(head -c 200 "$scratch/lint.err"))"
        failed=1
    fi
    summary=$(python3 - "$scratch/lint.json" <<'EOF'
import collections, json, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception:
    print("no report"); sys.exit(0)
counts = collections.Counter(f["check"] for f in report["findings"])
locales = len({f["locale"] for f in report["findings"] if f.get("locale")})
s = report["summary"]
print(f'{s["errors"]} errors, {s["warnings"]} warnings, {locales} locales: ' + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
EOF
)
    if grep -Eq "$false_positive" "$scratch/lint.json"; then
        verdict="FALSE-POSITIVE($(grep -Eo "$false_positive" "$scratch/lint.json" | sort | uniq -c | tr '\n' ' '))"
        failed=1
    fi
    line="lint  $input: $verdict, ${seconds}s; $summary"
    echo "$line"
    # Round trip: import, export, compare; Android: aapt2 over the export.
    format=""
    case "$input" in
        *.xcstrings) format=xcstrings ;;
        *) [ -f "$input/values/strings.xml" ] && format=android ;;
    esac
    if [ -z "$format" ]; then
        [ -d "$input/values" ] && echo "round trip $input: not run (strings outside strings.xml: import and export read and write strings.xml only)"
        continue
    fi
    rm -rf "$scratch/catalogs" "$scratch/out" "$scratch/aapt2"
    mkdir -p "$scratch/catalogs" "$scratch/aapt2"
    printf '{"checks": {%s}}\n' "$(for check in $checks; do printf '"%s": "off",' "$check"; done | sed 's/,$//')" > "$scratch/catalogs/lookd-lint.json"
    timeout 300 "$lookd" import --format "$format" "$input" --catalogs "$scratch/catalogs" --keep-unreadable > /dev/null 2> "$scratch/import.err"
    importStatus=$?
    if [ "$importStatus" -ne 0 ]; then
        echo "import $input: refused (exit $importStatus: $(grep -m1 '^  ' "$scratch/import.err" | cut -c1-200))"
        failed=1
        continue
    fi
    kept=$(grep -m1 'cannot hold' "$scratch/import.err" | grep -Eo '^lookd import: [0-9]+' | grep -Eo '[0-9]+' || echo 0)
    timeout 300 "$lookd" export --format "$format" --out "$scratch/out" --catalogs "$scratch/catalogs" > /dev/null 2> "$scratch/export.err"
    exportStatus=$?
    if [ "$exportStatus" -ne 0 ]; then
        echo "export $input: refused (exit $exportStatus: $(head -c 300 "$scratch/export.err"))"
        failed=1
        continue
    fi
    if [ "$format" = xcstrings ]; then
        pairs="$input|$scratch/out"
    else
        pairs=$(cd "$input" && find . -path './values*/strings.xml' | sed "s#^\./##" | while read -r f; do echo "$input/$f|$scratch/out/$f"; done)
    fi
    differing=0
    total=0
    first=""
    while IFS='|' read -r a b; do
        [ -z "$a" ] && continue
        total=$((total + 1))
        if ! cmp -s "$a" "$b"; then
            differing=$((differing + 1))
            [ -z "$first" ] && first="${a#"$input"/}: $(diff "$a" "$b" 2>&1 | head -3 | tr '\n' ' ' | cut -c1-200)"
        fi
    done <<< "$pairs"
    if [ "$differing" -eq 0 ]; then
        echo "round trip $input: identical ($total file$([ "$total" -eq 1 ] || echo s); $kept string(s) or localization(s) carried beside the catalogs)"
    else
        echo "round trip $input: $differing of $total files DIFFER; first: $first"
        failed=1
    fi
    if [ "$format" = android ]; then
        if [ -n "$aapt2" ]; then
            broken=""
            compiled=0
            while IFS= read -r f; do
                compiled=$((compiled + 1))
                folder=$(basename "$(dirname "$f")")
                if ! "$aapt2" compile "$f" -o "$scratch/aapt2/" > "$scratch/aapt2.out" 2>&1; then
                    broken="$broken $folder($(head -1 "$scratch/aapt2.out" | sed 's#.*strings.xml:##' | cut -c1-80))"
                    # A file the project ships broken stays broken; only a file that compiled before the round trip counts.
                    if "$aapt2" compile "$input/$folder/strings.xml" -o "$scratch/aapt2/" > /dev/null 2>&1; then failed=1; fi
                fi
            done < <(find "$scratch/out" -name strings.xml | sort)
            echo "aapt2 $input: $compiled exported strings.xml compiled$([ -n "$broken" ] && echo "; refused:$broken (as in the input)" || echo ", all accepted")"
        else
            echo "aapt2 $input: not installed (Debian package aapt); not compiled"
        fi
    fi
done <<< "$inputs"
echo "real-corpus: $count inputs under $dir; $([ $failed -eq 0 ] && echo 'every check passed' || echo 'some checks FAILED')"
exit $failed
