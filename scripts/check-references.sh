#!/usr/bin/env bash
# Fails when a file in the repository points at something that is not in the repository: DESIGN.md, ../shared,
# a docs/… path that does not exist (with a #section that no heading of that file has), or a relative markdown
# link (in README.md or docs/) whose target does not exist. Run by `make test`; prints each broken reference.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - <<'PY'
import os, re, subprocess, sys

def slug(heading):
    # GitHub's anchors: lower case, punctuation dropped (except - and _), spaces to hyphens.
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")

def anchors(path):
    found, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found

scanned = ["Sources", "Tests", "Benchmarks", "README.md", "docs", ".ci", "Makefile", "scripts", "Package.swift"]
files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--"] + scanned,
                       capture_output=True, text=True, check=True).stdout.split("\n")
files = [f for f in files if f and os.path.isfile(f) and not f.endswith((".png", ".json", ".xlf", ".xml", ".strings"))
         and f != "scripts/check-references.sh"]
problems = []
for name in files:
    try:
        text = open(name, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue
    for number, line in enumerate(text.split("\n"), 1):
        where = f"{name}:{number}"
        if "DESIGN.md" in line:
            problems.append(f"{where}: cites DESIGN.md, which is not in the repository (write it into docs/design.md)")
        if "../shared" in line:
            problems.append(f"{where}: cites ../shared, which is not in the repository")
        for match in re.finditer(r"(?<![\w/.-])docs/([\w.-]+\.(?:md|png))(#[\w-]+)?", line):
            target = os.path.join("docs", match.group(1))
            if not os.path.isfile(target):
                problems.append(f"{where}: {target} does not exist")
            elif match.group(2) and target.endswith(".md") and match.group(2)[1:] not in anchors(target):
                problems.append(f"{where}: {target} has no section {match.group(2)}")
        if name.endswith(".md"):
            for match in re.finditer(r"\]\(([^)\s]+)\)", line):
                link = match.group(1)
                if re.match(r"^[a-z]+:", link):
                    continue
                path, _, anchor = link.partition("#")
                target = os.path.normpath(os.path.join(os.path.dirname(name), path)) if path else name
                if not os.path.exists(target):
                    problems.append(f"{where}: link to {link}: {target} does not exist")
                elif anchor and target.endswith(".md") and anchor not in anchors(target):
                    problems.append(f"{where}: link to {link}: no such section in {target}")
for problem in problems:
    print(problem)
if problems:
    print(f"check-references: {len(problems)} broken reference(s)", file=sys.stderr)
    sys.exit(1)
print(f"check-references: {len(files)} files, every reference resolves")
PY
