#!/usr/bin/env bash
# Runs Swift test suites under ThreadSanitizer and AddressSanitizer (issue 17 item 3), each
# sanitizer in its own build folder (.build-thread, .build-address; FOLDER_PREFIX to move
# them), and prints one line per sanitizer:
#   sanitizer thread: Test run with T tests in S suites passed (...), built in B s, ran in N s, R reports
# Any report, or any failing test, fails the script (exit 1). The run's output and the reports
# stay in the build folder (sanitizer-test.log, sanitizer-reports/).
#
# Usage: scripts/sanitizers.sh [thread] [address]          (default: both)
# Environment: SANITIZER_FILTER, the `swift test --filter` expression of the suites to run, and
# SANITIZER_SKIP, the `--skip` expression of the suites left out. Defaults: ThreadSanitizer
# runs the suites where threads, queues and processes meet (listed below); AddressSanitizer
# runs the whole suite but the two long campaigns (CrashPointTests: thousands of reopened
# stores, one thread; ResourceLimitTests: gigabyte blobs, which the sanitizer's allocator
# multiplies), about 200 s here. SANITIZER_FILTER=. SANITIZER_SKIP= runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
# Contexts on their queues, nested contexts, the coordinator's lock, merge policies between
# contexts and processes, remote changes and query generations (watcher threads), history,
# and the C API's threads. Left out, each measured here under ThreadSanitizer with 0 reports
# (SANITIZER_FILTER to run them): CrashPointTests (766 s: one thread enumerating I/O points),
# ResourceLimitTests (401 s: a 256 MiB blob, 10 000 contexts), ConflictHistoryTests,
# MergePolicyProcessTests, PersistentHistoryCrossProcessTests, ModelActorTests.
default_filter='NSManagedObjectContextTests|NestedContextTests|MainQueueContextTests|ContextMembersTests|MergePolicyTests|MergeChangesNotificationTests|QueryGenerationTests|CoordinatorLockingAndMetadataTests|RemoteChangeNotificationTests|StoreLifecycleTests|SQLiteStoreTimeoutTests|NSPersistentContainerTests|PersistentHistoryTrackingTests|NSBatchUpdateRequestTests|CAPITests'
address_skip='CrashPointTests|ResourceLimitTests'
status=0
for sanitizer in "${@:-thread address}"; do
    for sanitizer in $sanitizer; do
        scratch=${FOLDER_PREFIX:-.build}-$sanitizer
        if [[ $sanitizer == address ]]; then
            filter=${SANITIZER_FILTER:-.}
            skip=${SANITIZER_SKIP-$address_skip}
        else
            filter=${SANITIZER_FILTER:-$default_filter}
            skip=${SANITIZER_SKIP:-}
        fi
        mkdir -p "$scratch"
        log=$scratch/sanitizer-build.log
        start=$SECONDS
        if ! swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" >"$log" 2>&1; then
            grep -E "error" "$log" | head -20 >&2
            echo "sanitizer $sanitizer: the build failed (log: $log)"
            status=1
            continue
        fi
        built=$((SECONDS - start))
        # Every process's reports go to files (log_path): the tests' own child processes (exit
        # tests, writer processes) report there too, where their captured stderr would hide
        # them. halt_on_error=0: every report of the run is counted, not only the first. The
        # Swift runtime keeps some allocations to the end: leak detection is off.
        # allocator_may_return_null: the C API's tests ask for lengths no allocation can hold
        # and expect CD_RANGE from malloc's NULL, which the sanitizers' allocator would
        # otherwise turn into a fatal report (as .ci/capi.sh does for the C harness). Reports we
        # have shown are not ours are suppressed in scripts/sanitizers/SANITIZER.supp, each
        # with its reason.
        reports_dir=$scratch/sanitizer-reports
        rm -rf "$reports_dir"
        mkdir -p "$reports_dir"
        suppressions=
        [[ -f scripts/sanitizers/$sanitizer.supp ]] && suppressions=:suppressions=$PWD/scripts/sanitizers/$sanitizer.supp
        log=$scratch/sanitizer-test.log
        start=$SECONDS
        TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:allocator_may_return_null=1:log_path=$PWD/$reports_dir/report$suppressions" \
        ASAN_OPTIONS="detect_leaks=0:halt_on_error=0:allocator_may_return_null=1:log_path=$PWD/$reports_dir/report$suppressions" \
        UBSAN_OPTIONS="log_path=$PWD/$reports_dir/report" \
            swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter" \
                ${skip:+--skip "$skip"} >"$log" 2>&1 || status=1
        ran=$((SECONDS - start))
        reports=$(cat "$log" "$reports_dir"/* 2>/dev/null \
            | grep -cE "^WARNING: ThreadSanitizer|^ERROR: AddressSanitizer|runtime error:" || true)
        passed=$(grep -oE "Test run with [0-9]+ tests? in [0-9]+ suites? passed" "$log" | tail -1 || true)
        if ((reports > 0)) || ! [[ -n $passed ]]; then
            cat "$log" "$reports_dir"/* 2>/dev/null \
                | grep -E -A12 "^WARNING: ThreadSanitizer|^ERROR: AddressSanitizer|runtime error:|✘" | head -80 >&2 || true
            tail -5 "$log" >&2
            echo "(the whole run: $log; the reports: $reports_dir)" >&2
            status=1
        fi
        echo "sanitizer $sanitizer: ${passed:-tests failed} (${filter:0:40}${skip:+, skipping $skip}), built in $built s, ran in $ran s, $reports reports"
    done
done
exit $status
