#!/usr/bin/env python3
"""Prints CI's reliability summary (issue 17): one line per campaign, read from the log of a run.

The campaigns print their own lines as they run; this gathers them from the log (in any order,
interleaved with everything else) and prints, one line each:

    crash points: T tried (...), F failures            CrashPointTests, as printed
    fuzz: N targets, E executions, C crashes (...)     scripts/fuzz.sh, one line per target
    sanitizers: R reports (...)                        scripts/sanitizers.sh, one per sanitizer
    conflict histories: ..., A anomalies               ConflictHistoryTests, per store type
    resource limits: T tried (...), F failures         ResourceLimitTests, one line per limit

It exits 1 when a campaign printed nothing (it did not run, or ended before its line) or
counted a failure, crash, report or anomaly; CI then fails with the summary in front of it.

Usage: scripts/reliability-summary.py LOG [--without sanitizers] [--without fuzz] ...
"""
import re
import sys

CAMPAIGNS = ["crash points", "fuzz", "sanitizers", "conflict histories", "resource limits"]


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    log = open(argv[1], encoding="utf-8", errors="replace").read()
    without = {argv[i + 1] for i, arg in enumerate(argv) if arg == "--without" and i + 1 < len(argv)}
    # The lines may come after other text on the same line (a test's output is not line
    # buffered against Swift Testing's): match anywhere, then keep the last of each.
    lines = {}
    bad = []

    def last(pattern):
        found = re.findall(pattern, log, flags=re.M)
        return found[-1] if found else None

    crash = last(r"(crash points: (\d+) tried .*?, (\d+) failures)$")
    if crash:
        lines["crash points"] = crash[0]
        if int(crash[2]) or not int(crash[1]):
            bad.append("crash points")

    fuzz = {}
    for name, executions, seconds, crashes in re.findall(
            r"fuzz ([a-z-]+): (\d+) executions in (\d+) s, (\d+) crashes", log):
        fuzz[name] = (int(executions), int(seconds), int(crashes))
    if fuzz:
        executions = sum(e for e, _, _ in fuzz.values())
        crashes = sum(c for _, _, c in fuzz.values())
        seconds = sum(s for _, s, _ in fuzz.values())
        each = ", ".join(f"{name} {e}" for name, (e, _, _) in fuzz.items())
        lines["fuzz"] = (f"fuzz: {len(fuzz)} targets, {executions} executions in {seconds} s, "
                         f"{crashes} crashes ({each})")
        if crashes or not executions:
            bad.append("fuzz")

    sanitizers = {}
    for name, rest, reports in re.findall(r"sanitizer (thread|address): (.*) in \d+ s, (\d+) reports", log):
        tests = re.search(r"(\d+) tests? in (\d+) suites? passed", rest)
        sanitizers[name] = (int(reports), f"{tests.group(1)} tests passed" if tests else "tests failed")
    if sanitizers:
        reports = sum(r for r, _ in sanitizers.values())
        each = "; ".join(f"{name}: {tests}, {r} reports" for name, (r, tests) in sanitizers.items())
        lines["sanitizers"] = f"sanitizers: {reports} reports ({each})"
        if reports or any(tests == "tests failed" for _, tests in sanitizers.values()):
            bad.append("sanitizers")

    # One line per store type ("conflict histories (SQLite): ..."), or one without a type.
    histories = {}
    for store, rest, anomalies in re.findall(r"conflict histories( \([^)]*\))?: (.*, (\d+) anomalies.*)$", log, flags=re.M):
        histories[store.strip(" ()") or "SQLite"] = (rest, int(anomalies))
    if histories:
        lines["conflict histories"] = "conflict histories: " + "; ".join(
            f"{store}: {rest}" for store, (rest, _) in histories.items())
        if sum(a for _, a in histories.values()):
            bad.append("conflict histories")

    limits = {}
    for name, checks, failures in re.findall(
            r"resource limit ([^:\n]+): .*; (\d+) checks, (\d+) failures", log):
        limits[name] = (int(checks), int(failures))
    if limits:
        checks = sum(c for c, _ in limits.values())
        failures = sum(f for _, f in limits.values())
        lines["resource limits"] = (f"resource limits: {len(limits)} tried ({', '.join(limits)}), "
                                    f"{checks} checks, {failures} failures")
        if failures:
            bad.append("resource limits")

    print("reliability summary (issue 17):")
    for campaign in CAMPAIGNS:
        if campaign in lines:
            print(f"  {lines[campaign]}")
        elif campaign in without:
            print(f"  {campaign}: not run here")
        else:
            print(f"  {campaign}: MISSING (no line in the log: the campaign did not run to its end)")
            bad.append(campaign)
    if bad:
        print(f"FAIL: reliability campaigns with failures or no result: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
