#!/usr/bin/env bash
# Runs what README.md prints, exactly as printed.
#
# Every fenced block of README.md follows a marker line `<!-- snippet: NAME -->` that says what
# the block is and how it runs; an unmarked block, an unknown name or a name used twice fails.
# The DocC articles (Sources/CoreData/CoreData.docc/*.md) may repeat a README block under the
# same marker (checked identical to the README's); their other blocks are marked
# `illustration` (fragments: grammar, SQL, partial code) and are not run.
#
# Groups (default: all of them, in this order):
#   setup   the "Set up" block: the demo, then `swift test` (minutes: CI runs it once, here),
#           then `swift run coredata-demo list`, which must show what the demo saved
#   swift   a throwaway app in a temporary folder: app-manifest as its Package.swift, app-main as
#           Sources/App/main.swift, then app-run in its folder; the README's `../OpenCoreData`
#           is a symbolic link to this checkout. Fails on any warning in the app's own code.
#           Then checks that the manifest also resolves through a link of another name.
#   swiftdata  the SwiftData quick start, the same way: swiftdata-manifest as Package.swift,
#           swiftdata-main as Sources/App/main.swift, then swiftdata-run; fails on any warning
#   capi    capi-install (into ~/.local of a temporary $HOME), capi-app, capi-example,
#           python-install, python-package (run by the virtual environment's python) and
#           python-example, in one shell from the repository's root
#   cli     cli, after the demo has saved a list (runs `swift run coredata-demo` first), then
#           cli-install (a release build of the tool, installed into the temporary ~/.local/bin)
#   docs    docs (`swift package generate-documentation --target CoreData`); fails on any DocC
#           warning (a broken symbol link, a malformed topic group, ...)
# Each group runs with a temporary $HOME, XDG_DATA_HOME=$HOME/.local/share and TMPDIR, so
# `~/.local/...`, the demo's store and SwiftPM's lock files land in a folder removed at the end,
# as is everything the snippets create (app.c, app and shopping in the repository's root,
# /tmp/coredata-*.sqlite*).
#
# Usage: scripts/readme-snippets.sh [--list] [GROUP...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

work=$(mktemp -d "${TMPDIR:-/tmp}/readme-snippets.XXXXXX")
chmod 755 "$work"   # as /tmp is: a test run by `setup` reaches its folders as another user
created=(app.c app shopping)   # written into the repository's root by the C snippets
cleanup() {
    rm -rf "$work"
    for f in "${created[@]}"; do rm -f "$root/$f"; done
    rm -f /tmp/coredata-app.sqlite* /tmp/coredata-list.sqlite* /tmp/coredata-py.sqlite* \
        /tmp/coredata-py-quick.sqlite*
    rm -rf "$root/python/build" "$root"/python/*.egg-info
}
trap cleanup EXIT
for f in "${created[@]}"; do
    [[ ! -e $root/$f ]] || { echo "readme-snippets: $f exists in the repository's root; move it away first" >&2; exit 1; }
done

# Extract and check the blocks: one file per README block in $work/snippets/NAME.
mkdir -p "$work/snippets"
python3 - "$work/snippets" README.md Sources/CoreData/CoreData.docc <<'PY'
import re, sys, pathlib
out, readme = pathlib.Path(sys.argv[1]), sys.argv[2]
articles = sorted(str(p) for p in pathlib.Path(sys.argv[3]).rglob("*.md"))
known = {"setup", "app-main", "app-manifest", "app-run", "swiftdata-main", "swiftdata-manifest", "swiftdata-run",
         "capi-install", "capi-app", "capi-example", "python-install", "python-package", "python-example", "docs",
         "cli", "cli-install"}
not_run = {"text", "illustration"}
errors = []

def blocks(path):
    lines = pathlib.Path(path).read_text().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(```+|~~~+)", lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m.group(1), m.group(2)
        marker = re.match(r"^\s*<!-- snippet: ([a-z-]+) -->\s*$", lines[i - 1]) if i else None
        j = i + 1
        while j < len(lines) and not lines[j].startswith(indent + fence):
            j += 1
        if j == len(lines):
            errors.append(f"{path}:{i + 1}: unclosed code block")
        body = "\n".join(l[len(indent):] for l in lines[i + 1:j]) + "\n"
        if not marker:
            errors.append(f"{path}:{i + 1}: code block without a `<!-- snippet: NAME -->` line before it")
        else:
            yield marker.group(1), i + 1, body
        i = j + 1

seen = {}
for name, line, body in blocks(readme):
    if name in not_run:
        continue
    if name not in known:
        errors.append(f"{readme}:{line}: unknown snippet name {name!r}")
    elif name in seen:
        errors.append(f"{readme}:{line}: snippet {name!r} appears twice")
    else:
        seen[name] = body
        (out / name).write_text(body)
for name in sorted(known - seen.keys()):
    errors.append(f"{readme}: no block is marked {name!r}")
for article in articles:
    for name, line, body in blocks(article):
        if name == "illustration":
            continue
        if name not in seen:
            errors.append(f"{article}:{line}: {name!r} is not a README snippet (mark fragments `illustration`)")
        elif body != seen[name]:
            errors.append(f"{article}:{line}: differs from the README's {name!r} block; keep them identical")
if errors:
    print("\n".join(errors), file=sys.stderr)
    sys.exit(1)
print(f"README: {len(seen)} snippets marked; articles checked: {len(articles)}")
PY
[[ ${1:-} == --list ]] && { ls "$work/snippets"; exit 0; }

groups=("$@")
((${#groups[@]})) || groups=(setup swift swiftdata capi cli docs)
passed=0

# Runs one shell session (bash -e) with a fresh $HOME; its output goes to $work/GROUP.log.
session() {
    local group=$1 script=$2 dir=${3:-$root}
    mkdir -p "$work/home-$group"
    mkdir -p -m 755 "$work/tmp-$group"
    echo "== readme-snippets: $group"
    (cd "$dir" && HOME=$work/home-$group XDG_DATA_HOME=$work/home-$group/.local/share \
        TMPDIR=$work/tmp-$group bash -euo pipefail "$script") 2>&1 | tee "$work/$group.log"
}
expect() {   # expect GROUP TEXT: the group's output has a line containing TEXT
    grep -qF -- "$2" "$work/$1.log" || { echo "FAIL: readme-snippets $1: no line with '$2'" >&2; exit 1; }
}

for group in "${groups[@]}"; do
    case $group in
    setup)
        # The set-up block, then the command the README's next line prints (`swift run
        # coredata-demo list`), which shows what the demo saved under the temporary $HOME.
        { cat "$work/snippets/setup"; echo "swift run coredata-demo list"; } > "$work/setup.sh"
        session setup "$work/setup.sh"
        expect setup "Deleted Bread."
        [[ $(grep -c "^Shopping list (2):" "$work/setup.log") == 2 ]] \
            || { echo "FAIL: readme-snippets setup: 'coredata-demo list' does not show what the demo saved" >&2; exit 1; }
        ;;
    swift)
        app=$work/app/App
        mkdir -p "$app/Sources/App"
        ln -s "$root" "$work/app/OpenCoreData"
        cp "$work/snippets/app-manifest" "$app/Package.swift"
        cp "$work/snippets/app-main" "$app/Sources/App/main.swift"
        session swift "$work/snippets/app-run" "$app"
        expect swift "Milk 2"
        # The README's claim that `name:` lets the clone's folder have any name: the same
        # manifest, its path pointing at a folder of another name, still resolves.
        other=$work/app/Renamed
        mkdir -p "$other/Sources/App"
        ln -s "$root" "$work/app/any-folder-name"
        sed 's|path: "../OpenCoreData"|path: "../any-folder-name"|' "$app/Package.swift" > "$other/Package.swift"
        grep -q 'path: "../any-folder-name"' "$other/Package.swift" \
            || { echo "FAIL: readme-snippets swift: app-manifest no longer depends on path ../OpenCoreData" >&2; exit 1; }
        cp "$app/Sources/App/main.swift" "$other/Sources/App/"
        cp -R "$app/Sources/App/DataModel.xcdatamodeld" "$other/Sources/App/"
        (cd "$other" && HOME=$work/home-swift TMPDIR=$work/tmp-swift swift package show-dependencies) \
            || { echo "FAIL: readme-snippets swift: the manifest does not resolve from a folder of another name" >&2; exit 1; }
        if grep -E "Sources/App/.*warning:" "$work/swift.log"; then
            echo "FAIL: readme-snippets swift: the quick start compiles with warnings" >&2; exit 1
        fi
        ;;
    swiftdata)
        app=$work/sdapp/App
        mkdir -p "$app/Sources/App"
        ln -s "$root" "$work/sdapp/OpenCoreData"
        cp "$work/snippets/swiftdata-manifest" "$app/Package.swift"
        cp "$work/snippets/swiftdata-main" "$app/Sources/App/main.swift"
        session swiftdata "$work/snippets/swiftdata-run" "$app"
        expect swiftdata "Alps 2"
        if grep -E "Sources/App/.*warning:" "$work/swiftdata.log"; then
            echo "FAIL: readme-snippets swiftdata: the quick start compiles with warnings" >&2; exit 1
        fi
        ;;
    capi)
        cat "$work/snippets/capi-install" "$work/snippets/capi-app" "$work/snippets/capi-example" \
            "$work/snippets/python-install" "$work/snippets/python-example" > "$work/capi.sh"
        echo "~/coredata-env/bin/python '$work/snippets/python-package'" >> "$work/capi.sh"
        session capi "$work/capi.sh"
        [[ $(grep -c "^1 items$" "$work/capi.log") == 1 ]] \
            || { echo "FAIL: readme-snippets capi: the C quick start should print '1 items'" >&2; exit 1; }
        expect capi "Milk x 2 added "
        expect capi "not saved: 1570 name"
        expect capi "Deleted Bread."
        expect capi "Shopping list (2):"
        ;;
    cli)
        { echo "swift run coredata-demo"; cat "$work/snippets/cli" "$work/snippets/cli-install"; } > "$work/cli.sh"
        session cli "$work/cli.sh"
        expect cli "ShoppingItem"   # from `coredata model`
        expect cli "Eggs"           # from `coredata query`
        expect cli "History    off"   # from `coredata info`
        expect cli "The store is sound."   # from `coredata check`
        [[ -x $work/home-cli/.local/bin/coredata ]] \
            || { echo "FAIL: readme-snippets cli: cli-install installed no ~/.local/bin/coredata" >&2; exit 1; }
        ;;
    docs)
        session docs "$work/snippets/docs"
        if grep -q "warning:" "$work/docs.log"; then
            echo "FAIL: readme-snippets docs: DocC printed warnings (above)" >&2; exit 1
        fi
        ;;
    *)
        echo "readme-snippets: unknown group $group (setup swift swiftdata capi cli docs)" >&2; exit 2
        ;;
    esac
    passed=$((passed + 1))
done
echo "readme-snippets: $passed passed, 0 failed"
