#!/usr/bin/env bash
# Documentation checks for the CoreData module, run by CI:
#  1. every public symbol has a doc comment. The symbol graph (`swift package
#     dump-symbol-graph`, which reuses the debug build) lists the public and open symbols with
#     their doc comments and source files; this prints, per folder of Sources/CoreData, how many
#     are documented, lists the undocumented ones, and fails if a folder outside the allow-list
#     below has any. Members that only inherit a comment (an override of Foundation's
#     `description`, a `rawValue` required by `RawRepresentable`) count as documented, and are
#     counted apart.
#  2. no comment in Sources/, CModules/, include/, Tests/ or examples/ points at a document
#     outside the repository (the design notes the project started from are not part of a
#     clone).
#  3. the README's "Differences from Apple's Core Data" list and the DocC article's are the
#     same text (the README must show them; the article carries them into the docs).
# Usage: scripts/check-doc-coverage.sh [--all]     (--all also lists allow-listed folders' gaps)
set -euo pipefail
cd "$(dirname "$0")/.."

# Folders whose public symbols need not all be documented yet. Empty: since issue 10 every
# folder is fully documented, so CI fails on any public symbol without a doc comment. A
# folder may be listed only while a refactoring moves its files, and comes off the list in
# the same branch.
allow=()

echo "== public symbols without a doc comment"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift package dump-symbol-graph --skip-synthesized-members >"$log" 2>&1 \
    || { cat "$log"; echo "FAIL: swift package dump-symbol-graph"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$log" | tail -1)
[[ -d $graphs ]] || { cat "$log"; echo "FAIL: no symbol graph folder in the output above"; exit 1; }

python3 - "$graphs" "${1:-}" "${allow[@]}" <<'PY'
import json, pathlib, re, sys, collections
graphs, flag, allow = pathlib.Path(sys.argv[1]), sys.argv[2], set(sys.argv[3:])
total, own, inherited = collections.Counter(), collections.Counter(), collections.Counter()
missing = collections.defaultdict(list)
files = [graphs / "CoreData.symbols.json"] + sorted(graphs.glob("CoreData@*.symbols.json"))
for path in files:
    for symbol in json.loads(path.read_text())["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        m = re.search(r"/Sources/CoreData/(.*)$", uri)
        if not m:
            continue  # declared outside our sources (nothing of ours to document)
        relative = m.group(1)
        folder = relative.split("/")[0] if "/" in relative else "."
        total[folder] += 1
        doc = symbol.get("docComment")
        if doc and doc.get("module", "CoreData") == "CoreData" and any(l["text"].strip() for l in doc["lines"]):
            own[folder] += 1
        elif doc and doc.get("module", "CoreData") != "CoreData":
            inherited[folder] += 1
        else:
            line = symbol["location"]["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing[folder].append(f"Sources/CoreData/{relative}:{line}: {name}")

failed = 0
print(f"{'folder':<14}{'documented':>11}{'inherited':>10}{'missing':>9}{'public':>8}")
for folder in sorted(total):
    gap = len(missing[folder])
    note = "  (allow-listed)" if folder in allow and gap else ""
    print(f"{folder:<14}{own[folder]:>11}{inherited[folder]:>10}{gap:>9}{total[folder]:>8}{note}")
print(f"{'all':<14}{sum(own.values()):>11}{sum(inherited.values()):>10}"
      f"{sum(len(v) for v in missing.values()):>9}{sum(total.values()):>8}")
for folder in sorted(missing):
    if folder in allow and flag != "--all":
        continue
    for entry in missing[folder]:
        print(entry)
    if folder not in allow:
        failed += len(missing[folder])
if failed:
    print(f"FAIL: {failed} public symbols without a doc comment outside the allow-listed folders")
    sys.exit(1)
PY

echo "== comments pointing outside the repository"
if grep -rnE '\.\./shared|shared/(fixtures|seeds)|(FORMATS|PREDICATES|DESIGN|STYLE)\.md' \
        Sources CModules include Tests examples; then
    echo "FAIL: the lines above point at documents a clone does not have"
    exit 1
fi
echo "none"

echo "== the README's differences list and the DocC article's"
python3 - <<'PY'
import sys
def bullets(path, start, end):
    text = open(path, encoding="utf-8").read()
    section = text[text.index(start):]
    section = section[:section.index(end, len(start))] if end in section[len(start):] else section
    return section[section.index("\n- **"):].strip()
readme = bullets("README.md", "## Differences from Apple's Core Data", "\n## ")
article = bullets("Sources/CoreData/CoreData.docc/DifferencesFromApple.md", "## The differences", "\n## ")
if readme != article:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(readme.splitlines(True), article.splitlines(True),
                                               "README.md", "DifferencesFromApple.md"))
    print("FAIL: the two differences lists differ; edit both the same way")
    sys.exit(1)
print(f"identical ({readme.count(chr(10) + '- **') + 1} entries)")
PY
