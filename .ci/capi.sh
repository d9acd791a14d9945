#!/usr/bin/env bash
# CI for the C API (issue 6): build and install libcoredata.so into a temporary prefix,
# check its exports and the header, run the C harness under AddressSanitizer and
# LeakSanitizer, build the C example with pkg-config and run it twice (the second run
# shows what persisted), run the Python example the same way, and install the Python
# package (python/) with pip and run its tests. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v g++ >/dev/null || need+=(g++)
command -v python3 >/dev/null || need+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
command -v nm >/dev/null || need+=(binutils)
[[ -f /usr/include/sqlite3.h ]] || need+=(libsqlite3-dev)
[[ -f /usr/include/bsd/sys/tree.h ]] || need+=(libbsd-dev)
echo 'int main(void){return 0;}' > /tmp/capi-asan-probe.c
gcc -fsanitize=address /tmp/capi-asan-probe.c -o /tmp/capi-asan-probe 2>/dev/null || need+=(libasan8)
if ((${#need[@]})); then
    echo "== installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
scratch=${CAPI_SCRATCH:-.build-capi-release}
model=Sources/coredata-demo/DataModel.xcdatamodeld
passed=0

# An example given an unknown subcommand prints usage, exits non-zero and creates no store.
reject_unknown_subcommand() {
    local name=$1 status=0
    shift
    "$@" "$model" "$work/unknown/DataModel.sqlite" bogus > "$work/unknown.out" 2> "$work/unknown.err" || status=$?
    if ((status == 0)) || ! grep -q "usage:" "$work/unknown.err" || ! grep -q "bogus" "$work/unknown.err" \
        || [[ -e $work/unknown ]]; then
        cat "$work/unknown.out" "$work/unknown.err"
        echo "FAIL: the $name accepted the unknown subcommand 'bogus' (exit $status)"; exit 1
    fi
    echo "$name: 'bogus' rejected with usage (exit $status)"
}

echo "== install into $prefix"
SCRATCH=$scratch bash scripts/install-capi.sh "$prefix"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
lib=$prefix/lib/libcoredata.so

echo "== exported symbols: only cd_*"
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ { print $3 }')
if grep -v '^cd_' <<<"$exported"; then
    echo "FAIL: libcoredata.so exports symbols other than cd_*"; exit 1
fi
if nm -D --defined-only "$lib" | grep -q ' cdr_'; then
    echo "FAIL: the runtime shim (cdr_*) is in the dynamic symbol table"; exit 1
fi
echo "$(wc -l <<<"$exported") global symbols, all cd_*"
passed=$((passed + 1))

echo "== header: C99 strict, C++, Doxygen"
cflags="-Wall -Wextra -pedantic -Werror"
gcc -std=c99 $cflags -fsyntax-only -x c include/coredata.h
g++ -std=c++11 $cflags -fsyntax-only -x c++ include/coredata.h
clang=$(command -v clang || true)
if [[ -n $clang ]]; then
    "$clang" -std=c99 $cflags -Wdocumentation -Wdocumentation-unknown-command -fsyntax-only -x c include/coredata.h
    "$clang" -std=c99 $cflags -Wdocumentation -fsyntax-only -I include Tests/CAPIHarness/harness.c
else
    echo "(no clang: -Wdocumentation skipped)"
fi
passed=$((passed + 1))

echo "== header drift"
bash scripts/check-capi-header.sh "$lib" "$scratch"
passed=$((passed + 1))

echo "== C harness (every function) under AddressSanitizer + LeakSanitizer"
for function in $(sed -n 's/^CD_API [^(]*[ *]\(cd_[a-z0-9_]*\)(.*/\1/p' include/coredata.h); do
    grep -q "\\b$function(" Tests/CAPIHarness/harness.c || { echo "FAIL: the harness never calls $function"; exit 1; }
done
# Its status table (each status has a text of its own; every status returned is listed)
# must hold every value of the cd_status enum.
for status in $(sed -n '/^typedef enum cd_status {/,/} cd_status;/s/^ *\(CD_[A-Z0-9_]*\) = .*/\1/p' include/coredata.h); do
    grep -q "\\b$status\\b," Tests/CAPIHarness/harness.c || { echo "FAIL: the harness's status table lacks $status"; exit 1; }
done
gcc -std=c99 $cflags -g -fsanitize=address -fno-omit-frame-pointer \
    $(pkg-config --cflags coredata) Tests/CAPIHarness/harness.c -o "$work/harness" -pthread \
    $(pkg-config --libs coredata)
mkdir -p "$work/harness-data"
# allocator_may_return_null: the harness asks for lengths no allocation can hold, and
# checks that the library answers CD_RANGE when malloc fails (ASan would abort instead).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1 \
LSAN_OPTIONS=suppressions=$PWD/Tests/CAPIHarness/lsan.supp:print_suppressions=0 "$work/harness" \
    Tests/CAPIHarness/Harness.xcdatamodeld "$work/harness-data" > "$work/harness.log" 2>&1 || {
    cat "$work/harness.log"; echo "FAIL: harness (or a sanitizer report)"; exit 1; }
if grep -Eq "(ERROR|SUMMARY): [A-Za-z]+Sanitizer" "$work/harness.log"; then cat "$work/harness.log"; exit 1; fi
tail -1 "$work/harness.log"
passed=$((passed + 1))

echo "== C example: cc shopping.c \$(pkg-config --cflags --libs coredata)"
cc -std=c99 $cflags examples/c/shopping.c $(pkg-config --cflags --libs coredata) -o "$work/shopping"
"$work/shopping" "$model" "$work/c/DataModel.sqlite" | tee "$work/c1.log"
"$work/shopping" "$model" "$work/c/DataModel.sqlite" list | tee "$work/c2.log"
grep -q "Deleted Bread." "$work/c1.log"
grep -q "Shopping list (2):" "$work/c2.log" && grep -q "Milk x2" "$work/c2.log" \
    && grep -q "Eggs x12" "$work/c2.log" && ! grep -q "Bread" "$work/c2.log" \
    || { echo "FAIL: the second run does not show what the first one saved"; exit 1; }
reject_unknown_subcommand "C example" "$work/shopping"
passed=$((passed + 1))

echo "== Python example (ctypes only)"
python3 examples/python/shopping.py "$model" "$work/py/DataModel.sqlite" | tee "$work/p1.log"
python3 examples/python/shopping.py "$model" "$work/py/DataModel.sqlite" list | tee "$work/p2.log"
grep -q "Deleted Bread." "$work/p1.log"
grep -q "Shopping list (2):" "$work/p2.log" && ! grep -q "Bread" "$work/p2.log" \
    || { echo "FAIL: the Python example's second run does not show what persisted"; exit 1; }
reject_unknown_subcommand "Python example" python3 examples/python/shopping.py
passed=$((passed + 1))

echo "== Python package: pip install ./python into a virtual environment, then its pytest suite"
bash scripts/python-package.sh
passed=$((passed + 1))

echo "capi: $passed passed, 0 failed"
