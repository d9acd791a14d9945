#!/usr/bin/env bash
# Builds and runs the C tests of CCoreDataRuntime: once plain, once under ASan + UBSan
# (with LeakSanitizer when the environment allows it). Run from the repository root:
#   bash CModules/CCoreDataRuntime/tests/run.sh
set -euo pipefail

module=CModules/CCoreDataRuntime
if [[ ! -f "$module/include/CCoreDataRuntime.h" ]]; then
    echo "run.sh: run me from the repository root" >&2
    exit 2
fi

# The runtime needs libbsd's headers (sys/tree.h, reallocarray).
if [[ ! -f /usr/include/bsd/sys/tree.h ]]; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "run.sh: installing libbsd-dev"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libbsd-dev
    else
        echo "run.sh: libbsd-dev is missing (apt-get install libbsd-dev)" >&2
        exit 2
    fi
fi

cc=${CC:-cc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

build() { # build OUTPUT EXTRA-FLAGS...
    local output=$1
    shift
    "$cc" -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -g -I "$module/include" "$@" \
        "$module"/*.c "$module"/tests/test_*.c -o "$output" -lbsd -lpthread -lm
}

# Runs a test binary; its last line must read "N passed, 0 failed".
run() { # run BINARY LABEL
    local log="$out/$2.log" status=0
    "$1" >"$log" 2>&1 || status=$?
    cat "$log"
    if [[ $status -ne 0 ]] || ! tail -n 1 "$log" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
        echo "run.sh: $2 run failed (exit $status)" >&2
        exit 1
    fi
}

echo "== plain build"
build "$out/test_plain" -O2
run "$out/test_plain" plain

echo "== ASan + UBSan build"
build "$out/test_asan" -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
    -fno-sanitize-recover=undefined

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# LeakSanitizer needs ptrace-like access to stop threads; probe it on a trivial program.
probe_src="$out/probe.c"
printf '#include <stdlib.h>\nint main(void){void *p=malloc(8);(void)p;return 0;}\n' \
    >"$probe_src"
"$cc" -fsanitize=address "$probe_src" -o "$out/probe"
# The probe leaks on purpose: LeakSanitizer works when it reports that leak.
leaks=0
probe_log=$(ASAN_OPTIONS=detect_leaks=1 "$out/probe" 2>&1) || true
if grep -q "detected memory leaks" <<<"$probe_log"; then
    leaks=1
else
    echo "run.sh: notice: LeakSanitizer cannot run here; running ASan with detect_leaks=0"
fi
export ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=0:strict_string_checks=1
run "$out/test_asan" asan
if [[ $leaks -eq 1 ]]; then
    echo "run.sh: ASan + UBSan + LeakSanitizer clean"
else
    echo "run.sh: ASan + UBSan clean (leak checking skipped)"
fi
