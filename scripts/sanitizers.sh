#!/usr/bin/env bash
# Runs Swift test suites under ThreadSanitizer and AddressSanitizer (issue 17 item 3), each
# sanitizer in its own build folder (.build-thread, .build-address; FOLDER_PREFIX to move
# them), and prints one line per sanitizer:
#   sanitizer thread: T tests in S suites passed in N s, R reports
# Any report, or any failing test, fails the script (exit 1).
#
# Usage: scripts/sanitizers.sh [thread] [address]          (default: both)
# Environment: SANITIZER_FILTER, the `swift test --filter` expression of the suites to run
# (default: the suites where threads, queues and processes meet, listed below);
# SANITIZER_FILTER=. runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# Contexts on their queues, nested contexts, the coordinator's lock, merge policies between
# contexts and processes, remote changes and query generations (watcher threads), history,
# the crash points and resource limits (10 000 contexts), and the C API's threads.
default_filter='NSManagedObjectContextTests|NestedContextTests|MainQueueContextTests|ContextMembersTests|MergePolicyTests|MergeChangesNotificationTests|QueryGenerationTests|CoordinatorLockingAndMetadataTests|RemoteChangeNotificationTests|StoreLifecycleTests|SQLiteStoreTimeoutTests|NSPersistentContainerTests|PersistentHistoryTrackingTests|NSBatchUpdateRequestTests|CrashPointTests|ResourceLimitTests|CAPITests'
filter=${SANITIZER_FILTER:-$default_filter}
status=0
for sanitizer in "${@:-thread address}"; do
    for sanitizer in $sanitizer; do
        scratch=${FOLDER_PREFIX:-.build}-$sanitizer
        log=$(mktemp)
        start=$SECONDS
        if ! swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" >"$log" 2>&1; then
            grep -E "error" "$log" | head -20 >&2
            echo "sanitizer $sanitizer: the build failed"
            status=1
            continue
        fi
        # halt_on_error=0: every report of the run is counted, not only the first. The
        # Swift runtime keeps some allocations to the end: leak detection is off.
        TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1" ASAN_OPTIONS="detect_leaks=0:halt_on_error=0" \
            swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1 || status=1
        reports=$(grep -cE "^WARNING: ThreadSanitizer|^ERROR: AddressSanitizer|runtime error:" "$log" || true)
        passed=$(grep -oE "Test run with [0-9]+ tests? in [0-9]+ suites? passed" "$log" | tail -1 || true)
        if ((reports > 0)) || ! [[ -n $passed ]]; then
            grep -E -A12 "^WARNING: ThreadSanitizer|^ERROR: AddressSanitizer|runtime error:|✘" "$log" | head -80 >&2 || true
            tail -5 "$log" >&2
            status=1
        fi
        echo "sanitizer $sanitizer: ${passed:-tests failed} (${filter:0:40}...) in $((SECONDS - start)) s, $reports reports"
        rm -f "$log"
    done
done
exit $status
