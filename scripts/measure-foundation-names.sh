#!/usr/bin/env bash
# Measures where a file that imports both Foundation and CoreData can write NSExpression and
# NSComparisonPredicate without the `CoreData.` qualifier. Foundation on Linux declares both
# classes too (deprecated, every initializer unavailable), so each position is compiled three
# ways: importing CoreData only, importing Foundation and CoreData, and Foundation and
# CoreData with the name qualified. Prints one line per position.
# Usage: scripts/measure-foundation-names.sh   (after `swift build`; uses .build/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
modules=.build/debug/Modules
runtime_map=$(find .build -name module.modulemap -path '*CCoreDataRuntime.build*' | head -1)
[ -d "$modules" ] && [ -n "$runtime_map" ] || { echo "build first: swift build" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|code, with @E@ for NSExpression and @P@ for NSComparisonPredicate.
positions=(
  "initializer call|let e = @E@(forKeyPath: \"a\"); _ = e"
  "format initializer call|let e = @E@(format: \"a + 1\"); _ = e"
  "class method call|let e = @E@.expressionForEvaluatedObject(); _ = e"
  "comparison initializer call|let p = @P@(leftExpression: @E@(forKeyPath: \"a\"), rightExpression: @E@(forConstantValue: 1), modifier: .direct, type: .equalTo); _ = p"
  "inferred enum case|let e = @E@(forKeyPath: \"a\"); _ = e.expressionType == .keyPath"
  "downcast of a parsed predicate (as?)|_ = NSPredicate(format: \"a == 1\") as? @P@"
  "type check (is)|_ = NSPredicate(format: \"a == 1\") is @P@"
  "variable type annotation|let e: @E@ = @E@(forKeyPath: \"a\"); _ = e"
  "parameter type|func f(_ e: @E@) {}"
  "return type|func f() -> @E@? { nil }"
  "generic argument|let list: [@E@] = []; _ = list"
  "closure parameter type|let f = { (e: @E@) in e.keyPath }; _ = f"
  "nested type|let t: @E@.ExpressionType = .keyPath; _ = t"
  "nested enum member|let op = @P@.Operator.equalTo; _ = op"
  "metatype (.self)|let t = @E@.self; _ = t"
  "extension|extension @E@ { var twice: Int { 2 } }"
  "subclass|final class Mine: @P@ {}"
)

check() { # file -> ok | error | warning
  local out
  if out=$(swiftc -typecheck -I "$modules" -Xcc -fmodule-map-file="$runtime_map" \
        -I CModules/CCoreDataRuntime/include -I CModules/CCoreDataSQLite "$1" 2>&1); then
    if grep -q "warning:" <<<"$out"; then echo "ok, warns"; else echo "ok"; fi
  else
    echo "ERROR"
  fi
}

printf '%-38s %-14s %-24s %s\n' "position" "CoreData only" "Foundation + CoreData" "qualified CoreData."
for entry in "${positions[@]}"; do
  name=${entry%%|*}; code=${entry#*|}
  plain=${code//@E@/NSExpression}; plain=${plain//@P@/NSComparisonPredicate}
  qualified=${code//@E@/CoreData.NSExpression}; qualified=${qualified//@P@/CoreData.NSComparisonPredicate}
  printf 'import CoreData\n%s\n' "$plain" > "$work/only.swift"
  printf 'import Foundation\nimport CoreData\n%s\n' "$plain" > "$work/both.swift"
  printf 'import Foundation\nimport CoreData\n%s\n' "$qualified" > "$work/qualified.swift"
  printf '%-38s %-14s %-24s %s\n' "$name" "$(check "$work/only.swift")" "$(check "$work/both.swift")" "$(check "$work/qualified.swift")"
done
