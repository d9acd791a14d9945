#!/usr/bin/env bash
# Fuzzes one target of coredata-fuzz with libFuzzer (issue 17): builds the program in release
# mode with AddressSanitizer and libFuzzer's coverage (its own build folder), runs it for the
# given seconds from the seed corpus in Tests/Fuzz/corpus/NAME, and prints one line:
#   fuzz NAME: E executions in S s, C crashes
# A crash leaves its input in Tests/Fuzz/crashes/NAME-crash-* (commit it: `coredata-fuzz
# --target=NAME Tests/Fuzz/crashes` replays every one, as CI does) and exits 1.
# Usage: scripts/fuzz.sh NAME [SECONDS]      (NAME: predicate, model-xml, store, capi; 60 s)
# Environment: FUZZ_SCRATCH, the build folder (default .build-fuzz); FUZZ_SEED, libFuzzer's
# random seed (default 1); FUZZ_RUNS, a number of inputs to run (SECONDS then only caps the
# time). With a seed and a number of runs, and Swift's hashing made deterministic, a run tries
# the same inputs in the same order on any machine: CI's finding is reproduced here with the
# same command, never a flake of a faster or slower machine.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz.sh NAME [SECONDS]}
seconds=${2:-60}
scratch=${FUZZ_SCRATCH:-.build-fuzz}
[[ -d Tests/Fuzz/corpus/$name ]] || { echo "fuzz: no corpus Tests/Fuzz/corpus/$name (targets: $(ls Tests/Fuzz/corpus | tr '\n' ' '))" >&2; exit 2; }

# libFuzzer without its main (coredata-fuzz has its own, which calls LLVMFuzzerRunDriver),
# from the toolchain's clang runtime. The driver is a weak reference in CModules/CCoreDataFuzz
# (so that plain builds link and replay instead); `-u` makes the linker take it from the
# archive all the same.
swift_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
libfuzzer=$(ls "$swift_bin"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -1)
[[ -f $libfuzzer ]] || { echo "fuzz: the toolchain has no libclang_rt.fuzzer_no_main" >&2; exit 1; }

build() {
    swift build -c release --product coredata-fuzz --scratch-path "$scratch" \
        -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xswiftc -use-ld=lld -Xlinker -u -Xlinker LLVMFuzzerRunDriver -Xlinker "$libfuzzer" -Xlinker -lstdc++ "$@"
}
build >"$scratch.log" 2>&1 || { grep -E "error" "$scratch.log" | head -20 >&2; tail -5 "$scratch.log" >&2; exit 1; }
program=$(build --show-bin-path 2>/dev/null)/coredata-fuzz

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p Tests/Fuzz/crashes "$work/corpus"
status=0
# New inputs go to the throwaway first folder; the seeds are only read. The Swift runtime
# keeps some allocations to the end: leak detection is off (ASan still finds every misuse).
# Swift's own crash handler is off: it reads memory ASan guards and reports itself instead of
# the trap (libFuzzer's handler prints the stack and keeps the input).
started=$SECONDS
runs=()
[[ -n ${FUZZ_RUNS:-} ]] && runs=(-runs="$FUZZ_RUNS")
ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 COREDATA_FUZZ_ROOT=$PWD \
    SWIFT_DETERMINISTIC_HASHING=1 SWIFT_BACKTRACE=enable=no \
    "$program" --target="$name" "$work/corpus" "Tests/Fuzz/corpus/$name" "${runs[@]}" \
    -max_total_time="$seconds" -seed="${FUZZ_SEED:-1}" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="Tests/Fuzz/crashes/$name-" > "$work/log" 2>&1 || status=$?
executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
crashes=$( (ls Tests/Fuzz/crashes/"$name"-* 2>/dev/null || true) | wc -l)
if ((status != 0)); then
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written|INFO: Running|usage|deadly signal|#[0-9]+ 0x" "$work/log" | head -40 >&2 || tail -20 "$work/log" >&2
fi
echo "fuzz $name: ${executed:-0} executions in $((SECONDS - started)) s, $((status == 0 ? 0 : 1)) crashes ($crashes inputs kept in Tests/Fuzz/crashes)"
exit $((status == 0 ? 0 : 1))
