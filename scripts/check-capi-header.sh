#!/usr/bin/env bash
# The header drift check. Signatures: every function of Sources/CoreDataC is declared
# `@c @implementation`, so the compiler checks it against its prototype in
# include/coredata.h; this script proves that check bites (a copy of the header with one
# prototype changed must fail to type-check) and that the real header passes. Names: the
# header's functions, the @c implementations and the library's exports are the same set.
# Usage: scripts/check-capi-header.sh LIBCOREDATA.so SCRATCH   (SCRATCH: the release build
# folder used by scripts/install-capi.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
lib=$1
scratch=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

header_names() { sed -n 's/^CD_API [^(]*[ *]\(cd_[a-z0-9_]*\)(.*/\1/p' include/coredata.h | sort; }
swift_names() { grep -ho '@c @implementation public func cd_[a-z0-9_]*' Sources/CoreDataC/*.swift | sed 's/.* //' | sort; }
export_names() { nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ { print $3 }' | sort; }

header_names > "$work/header"
swift_names > "$work/swift"
export_names > "$work/exports"
status=0
if ! diff -u "$work/header" "$work/swift"; then
    echo "FAIL: header prototypes (-) and @c @implementation functions (+) differ"; status=1
fi
if ! diff -u "$work/header" "$work/exports"; then
    echo "FAIL: header prototypes (-) and exported symbols (+) differ"; status=1
fi
if grep -n '@c public\|@c(\|@_cdecl' Sources/CoreDataC/*.swift; then
    echo "FAIL: C entry points must be '@c @implementation' so the header checks them"; status=1
fi
echo "names: $(wc -l < "$work/header") functions in the header, the implementation and the exports"

# Type-check CoreDataC against a given include folder.
modules=$(ls -d "$scratch"/*/release/Modules | head -1)
build=$(dirname "$modules")
typecheck() {
    swiftc -typecheck -parse-as-library -swift-version 6 -module-name CoreDataC \
        -I "$modules" -I "$1" -Xcc -fmodule-map-file="$1/module.modulemap" \
        -Xcc -fmodule-map-file="$build/CCoreDataRuntime.build/module.modulemap" \
        -Xcc -I -Xcc CModules/CCoreDataRuntime/include \
        $(for map in CModules/*/module.modulemap; do printf -- '-Xcc -fmodule-map-file=%s ' "$map"; done) \
        Sources/CoreDataC/*.swift
}
mkdir -p "$work/good"
cp include/coredata.h include/module.modulemap "$work/good/"
if ! typecheck "$work/good" > "$work/good.log" 2>&1; then
    cat "$work/good.log"; echo "FAIL: CoreDataC does not type-check against include/coredata.h"; exit 1
fi
# Two drifts: a parameter's type (same arity), and an extra parameter.
drift() {
    local name=$1 from=$2 to=$3 dir="$work/bad-$1"
    mkdir -p "$dir"
    cp include/module.modulemap "$dir/"
    sed "s/$from/$to/" include/coredata.h > "$dir/coredata.h"
    if cmp -s include/coredata.h "$dir/coredata.h"; then
        echo "FAIL: could not make a drifted header ($name's prototype changed?)"; exit 1
    fi
    if typecheck "$dir" > "$dir.log" 2>&1; then
        echo "FAIL: a drifted prototype of $name was not detected"; exit 1
    fi
    grep -q "error: .*'$name'" "$dir.log" || {
        cat "$dir.log"; echo "FAIL: the drifted header failed for another reason"; exit 1; }
}
drift cd_fetch_request_set_limit 'set_limit(cd_fetch_request \*request, size_t limit)' 'set_limit(cd_fetch_request *request, int limit)'
drift cd_context_save 'cd_context_save(cd_context \*ctx);' 'cd_context_save(cd_context *ctx, int drifted);'
echo "signatures: the real header type-checks; a drifted prototype is rejected"
exit $status
