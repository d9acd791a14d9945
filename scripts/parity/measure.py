#!/usr/bin/env python3
"""Measures how much of Apple's CoreData Swift surface our `CoreData` module has, with
Apple's shape, by compiling code that uses each symbol the way Apple code does.

For every in-scope line of apple-coredata-symbols.txt this writes two checks:

  strict  uses the symbol with Apple's exact types: an unapplied method reference assigned
          to Apple's function type (`let _: (NSManagedObjectContext) -> (NSManagedObjectID)
          throws -> NSManagedObject = NSManagedObjectContext.existingObject(with:)`), a key
          path of Apple's value type (writable where Apple's property is settable), an
          initializer reference, a case, a conformance as a generic constraint; a class must
          be subclassable (Apple's are `open`) and its initializers inherited by a subclass;
  loose   names the symbol only (`_ = object.existingObject(with:)`).

A symbol is `yes` when its strict check compiles, `differs` when only the loose one does (the
compiler's first complaint about the strict one says how), `missing` otherwise. Checks are
compiled in batches against the built module (.build/debug/Modules); a batch with errors is
split by the lines the errors point at, and whatever is left is bisected, so each symbol is
judged on its own.

Then it writes PARITY.md (every symbol and its state, grouped by type) and
Tests/CoreDataTests/Support/AppleAPISurfaceTests.swift (the strict checks that compile, so
`swift test` keeps them compiling), and prints the count and the percentage.

Known blind spots: a method that does not throw passes a check for Apple's `throws` (Swift
converts non-throwing functions to throwing types; Apple code calling it still compiles, with a
"no calls to throwing functions occur within 'try'" warning); overridability of members is
not checked, only that classes can be subclassed.

Usage: scripts/parity/measure.py [--build-dir .build/debug] [--no-write] [--jobs N]
       (build first: swift build)
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import swiftdecl as sd  # noqa: E402

INVENTORY = os.path.join(HERE, "apple-coredata-symbols.txt")
NOTES = os.path.join(HERE, "parity-notes.md")
PARITY = os.path.join(ROOT, "PARITY.md")
TEST_FILE = os.path.join(ROOT, "Tests", "CoreDataTests", "Support", "AppleAPISurfaceTests.swift")

# Compiler complaints that mean a name is not there (rather than there with another shape).
ABSENT = re.compile(r"has no member|cannot find|has no subscripts|is inaccessible due to|is not a member type|"
                    r"no exact matches in reference|does not conform to|requires that .* conform to")

GENERIC_OWNERS = {"NSFetchRequest", "NSAsynchronousFetchRequest", "NSAsynchronousFetchResult",
                  "NSFetchedResultsController"}


class Entry:
    def __init__(self, line_no, name, kind, scope, decl_text, notes):
        self.line_no, self.name, self.kind, self.scope = line_no, name, kind, scope
        self.decl_text, self.notes = decl_text, notes
        self.state = None
        self.detail = ""
        self.extra = []  # notes the measurement adds
        self.strict = None  # Check
        self.loose = None

    @property
    def in_scope(self):
        return self.scope == "in-scope"

    @property
    def base_name(self):
        return re.sub(r" #\d+$", "", self.name)

    @property
    def group(self):
        head = self.base_name.split(":")[0].strip()
        if self.kind.startswith("global"):
            return "Top-level constants and functions"
        first = head.split(".")[0]
        if first in ("CocoaError", "NSNotification"):
            return {"CocoaError": "CocoaError (extensions on Foundation's error type)",
                    "NSNotification": "NSNotification.Name (extensions)"}[first]
        return first


class Check:
    """Swift code for one check: `decls` go at file scope, `body` inside a function."""

    def __init__(self, body, decls="", deprecated=False, runtime="", runnable=True):
        self.body, self.decls, self.deprecated, self.runtime = body, decls, deprecated, runtime
        self.runnable = runnable


def read_inventory():
    entries = []
    with open(INVENTORY) as f:
        for no, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            while len(cols) < 5:
                cols.append("")
            entries.append(Entry(no, *cols[:5]))
    return entries


# ---------------------------------------------------------------------------------------------
# Writing the checks


def owner_of(entry):
    name = entry.base_name
    if entry.kind == "conformance":
        return name.split(":")[0].strip()
    decl = entry.decl_text
    member = re.sub(r"\(.*$", "", name)
    parts = member.split(".")
    if entry.kind in ("class", "struct", "enum", "protocol"):
        return ".".join(parts[:-1])
    # the owner is everything before the member name
    return ".".join(parts[:-1]) if len(parts) > 1 else ""


def instantiate(owner, protocols):
    """A concrete spelling of an owner type: generic classes get NSManagedObject."""
    if owner in GENERIC_OWNERS:
        return f"{owner}<NSManagedObject>"
    if owner in protocols:
        return f"any {owner}"
    return owner


def subst(text, mapping):
    for name, value in mapping.items():
        text = re.sub(rf"\b{name}\b", value, text)
    return text


def generic_map(generics, where):
    """Concrete types for a declaration's generic parameters."""
    mapping = {}
    for param in re.findall(r"[<,]\s*([A-Z]\w*)", generics or ""):
        constraint = re.search(rf"\b{param}\s*:\s*(\w+)", (generics or "") + " " + (where or ""))
        mapping[param] = "NSManagedObject" if constraint and constraint.group(1) == "NSFetchRequestResult" else "Int"
    return mapping


def ty(node, mapping):
    text = sd.show(node)
    return subst(text, mapping)


def func_type(decl, mapping, instance_owner=None):
    params = ", ".join(ty(t, mapping) for _, _, t, _ in decl.params)
    effects = ""
    if decl.is_async:
        effects += " async"
    if decl.throws:
        effects += " throws"
    result = ty(decl.result, mapping) if decl.result is not None else "Void"
    return f"({params}){effects} -> {result}"


def labels_ref(decl):
    """The full name for an unapplied reference; a method without parameters is named bare
    (`f()` would be a call)."""
    if not decl.params and decl.kind in ("func", "init"):
        return ""
    return "(" + "".join((label or "_") + ":" for label, _, _, _ in decl.params) + ")"


def call_args(decl, mapping):
    """Arguments of Apple's parameter types (never evaluated: the checks that call are never run)."""
    args = []
    for label, _, t, _ in decl.params:
        text = re.sub(r"@escaping\s+", "", ty(t, mapping))
        value = f"_v() as {text}" if not text.startswith("inout ") else "&_inout"
        args.append(f"{label}: {value}" if label else value)
    return ", ".join(args)


def make_checks(entry, n, protocols, classes, open_check_names):
    """(strict, loose) checks for an entry, or (None, None) when it cannot be written."""
    kind = entry.kind
    deprecated = "deprecated" in entry.notes
    fn = f"_c{n}"
    if kind == "conformance":
        owner, proto = [p.strip() for p in entry.base_name.split(":", 1)]
        if owner in protocols:
            body = f"func {fn}f(_ x: any {owner}) {{ let _: any {proto} = x }}"
            return Check(body, deprecated=deprecated), None
        concrete = instantiate(owner, protocols)
        body = (f"func {fn}g<X: {proto}>(_: X.Type) {{}}\n"
                f"    {fn}g({concrete}.self)")
        return Check(body, deprecated=deprecated), None

    decl = sd.parse_decl(entry.decl_text)
    owner = owner_of(entry)
    mapping = generic_map(decl.generics, decl.where)
    if owner in GENERIC_OWNERS:
        mapping.setdefault("ResultType", "NSManagedObject")
    o = instantiate(owner, protocols) if owner else ""

    if kind in ("class", "struct", "enum", "protocol"):
        full = entry.base_name
        if kind == "protocol":
            return (Check(f"let _: Any.Type = (any {full}).self", deprecated=deprecated),
                    Check(f"_ = (any {full}).self"))
        concrete = instantiate(full, protocols)
        body = [f"let _: Any.Type = {concrete}.self"]
        decls = ""
        if kind == "class":
            inherits = decl.inherits
            if inherits and inherits[0] not in protocols and not inherits[0].startswith("NSCoding") \
                    and inherits[0] not in ("NSCopying", "NSSecureCoding", "NSLocking", "@unchecked Sendable", "Sendable", "NSFastEnumeration"):
                superclass = inherits[0]
                body.append(f"let _: {instantiate(superclass, protocols)}.Type = {concrete}.self")
            decls = f"private final class _Sub{n}: {concrete} {{}}"
            open_check_names[full] = f"_Sub{n}"
        if kind == "enum":
            raw = next((i for i in decl.inherits if i in ("UInt", "Int", "String", "Int32")), None)
            if raw:
                body.append(f"let _: {raw}.Type = {concrete}.RawValue.self")
        return (Check("\n    ".join(body), decls=decls, deprecated=deprecated),
                Check(f"_ = {concrete}.self"))

    if kind == "typealias":
        target = ty(decl.type, mapping)
        full = f"{o}.{decl.name}" if o else decl.name
        return (Check(f"let _: ({target}).Type = {full}.self", deprecated=deprecated),
                Check(f"_ = {full}.self"))

    if kind == "case":
        full = f"{o}.{decl.name}"
        runtime = ""
        if decl.raw_value is not None:
            runtime = f"#expect({full}.rawValue == {decl.raw_value})"
        return (Check(f"let _: {o} = {full}", deprecated=deprecated, runtime=runtime),
                Check(f"_ = {full}"))

    if kind in ("property", "static property", "class property", "global constant"):
        t = ty(decl.type, mapping)
        name = decl.name
        if kind == "global constant":
            return (Check(f"let _: () -> {t.rstrip('!')} = {{ {name} }}", deprecated=deprecated),
                    Check(f"_ = {{ {name} }}"))
        if kind != "property":  # static or class
            if owner == "NSNotification.Name":
                return (Check(f"let _: NSNotification.Name = .{name}", deprecated=deprecated),
                        Check(f"_ = NSNotification.Name.{name}"))
            base = t.rstrip("!")
            body = f"let _: () -> {base} = {{ {o}.{name} }}"
            if decl.settable and not getattr(decl, "is_let", False):
                body += f"\n    let _: ({base}) -> Void = {{ {o}.{name} = $0 }}"
            return Check(body, deprecated=deprecated), Check(f"_ = {{ {o}.{name} }}")
        # instance property
        if owner in protocols or t.endswith("!"):
            base = t.rstrip("!")
            body = f"let _: ({o}) -> {base} = {{ $0.{name} }}"
            if decl.settable and owner not in protocols:
                body += f"\n    let _: ({o}, {base}) -> Void = {{ $0.{name} = $1 }}"
            return (Check(body, deprecated=deprecated), Check(f"_ = {{ (x: {o}) in x.{name} }}"))
        path = "ReferenceWritableKeyPath" if decl.settable else "KeyPath"
        if owner not in classes:  # value types
            path = "WritableKeyPath" if decl.settable else "KeyPath"
        return (Check(f"let _: {path}<{o}, {t}> = \\{o}.{name}", deprecated=deprecated),
                Check(f"_ = {{ (x: {o}) in x.{name} }}"))

    if kind in ("method", "static method", "class method", "global function") and decl.generics:
        # a generic method: call it with arguments of Apple's types, in an async throwing context
        result = ty(decl.result, mapping) if decl.result is not None else "Void"
        effects = ("try " if decl.throws else "") + ("await " if decl.is_async else "")
        target = f"x.{decl.name}" if kind == "method" else f"{o}.{decl.name}"
        head = f"func {fn}f(_ x: {o}) async throws {{ " if kind == "method" else f"func {fn}f() async throws {{ "
        body = head + f"let _: {result} = {effects}{target}({call_args(decl, mapping)}) }}"
        loose_target = f"x.{decl.name}{labels_ref(decl)}" if kind == "method" else f"{o}.{decl.name}{labels_ref(decl)}"
        loose = (f"func {fn}f(_ x: {o}) {{ _ = {loose_target} }}" if kind == "method" else f"_ = {loose_target}")
        return Check(body, deprecated=deprecated, runnable=False), Check(loose)

    if kind in ("method", "static method", "class method", "global function"):
        ftype = func_type(decl, mapping)
        ref = f"{decl.name}{labels_ref(decl)}"
        if kind == "global function":
            return (Check(f"let _: {ftype} = {ref}", deprecated=deprecated), Check(f"_ = {ref}"))
        if not re.match(r"[A-Za-z_]", decl.name):  # an operator
            return (Check(f"let _: {ftype} = ({decl.name})", deprecated=deprecated),
                    Check(f"let _: {ftype} = ({decl.name})"))
        if kind != "method":
            # a class method returning `Self`, referenced through the class, returns that class
            ftype = re.sub(r"\bSelf\b", o, ftype)
            return (Check(f"let _: {ftype} = {o}.{ref}", deprecated=deprecated),
                    Check(f"_ = {o}.{ref}"))
        if owner in protocols:
            body = f"func {fn}f(_ x: {o}) {{ let _: {ftype} = x.{ref} }}"
            return (Check(body, deprecated=deprecated),
                    Check(f"func {fn}f(_ x: {o}) {{ _ = x.{ref} }}"))
        return (Check(f"let _: ({o}) -> {ftype} = {o}.{ref}", deprecated=deprecated),
                Check(f"func {fn}f(_ x: {o}) {{ _ = x.{ref} }}"))

    if kind == "initializer":
        result = o + ("?" if decl.failable == "?" else "")
        throws = " throws" if decl.throws else ""
        params = "(" + ", ".join(ty(t, mapping) for _, _, t, _ in decl.params) + ")"
        body = f"let _: {params}{throws} -> {result} = {o}.init{labels_ref(decl)}"
        sub = open_check_names.get(owner)
        if sub and owner in classes:
            sub_result = sub + ("?" if decl.failable == "?" else "")
            body += f"\n    let _: {params}{throws} -> {sub_result} = {sub}.init{labels_ref(decl)}"
        return (Check(body, deprecated=deprecated), Check(f"_ = {o}.init{labels_ref(decl)}"))

    if kind == "subscript":
        params = ", ".join(f"_ p{i}: {ty(t, mapping)}" for i, (_, _, t, _) in enumerate(decl.params))
        args = ", ".join(f"p{i}" for i in range(len(decl.params)))
        result = ty(decl.result, mapping)
        body = f"func {fn}f(_ x: {o}, {params}) {{ let _: {result} = x[{args}]"
        if decl.settable:
            body += f"; x[{args}] = x[{args}]"
        body += " }"
        return (Check(body, deprecated=deprecated),
                Check(f"func {fn}f(_ x: {o}, {params}) {{ _ = x[{args}] }}"))
    return None, None


# ---------------------------------------------------------------------------------------------
# Compiling


class Compiler:
    def __init__(self, build_dir):
        self.modules = os.path.join(build_dir, "Modules")
        if not os.path.isdir(self.modules):
            raise SystemExit(f"no {self.modules}: build first (swift build)")
        maps = []
        for directory, _, names in os.walk(os.path.join(ROOT, ".build")):
            if "module.modulemap" in names and "CCoreDataRuntime.build" in directory:
                maps.append(os.path.join(directory, "module.modulemap"))
        self.runtime_map = maps[0] if maps else None
        self.tmp = tempfile.mkdtemp(prefix="parity-")
        self.count = 0

    def compile(self, source, warnings=None):
        """Compiler errors as (line, message) pairs; [] when it compiles. Warnings are appended
        to `warnings` when a list is given."""
        self.count += 1
        path = os.path.join(self.tmp, f"check{self.count}.swift")
        with open(path, "w") as f:
            f.write(source)
        # Every system library module in CModules (SQLite, zlib, libpq, …) by its module map.
        systems = sorted(os.path.join(ROOT, "CModules", name) for name in os.listdir(os.path.join(ROOT, "CModules"))
                         if os.path.isfile(os.path.join(ROOT, "CModules", name, "module.modulemap")))
        cmd = ["swiftc", "-typecheck", "-swift-version", "6", "-I", self.modules,
               "-I", os.path.join(ROOT, "CModules", "CCoreDataRuntime", "include"),
               *[flag for directory in systems for flag in ("-I", directory)], path]
        if self.runtime_map:
            cmd[2:2] = ["-Xcc", f"-fmodule-map-file={self.runtime_map}"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        errors = []
        for m in re.finditer(rf"^{re.escape(path)}:(\d+):\d+: error: (.*)$", out.stdout + out.stderr, re.M):
            errors.append((int(m.group(1)), m.group(2)))
        if warnings is not None:
            for m in re.finditer(rf"^{re.escape(path)}:(\d+):\d+: warning: (.*)$", out.stdout + out.stderr, re.M):
                warnings.append((int(m.group(1)), m.group(2)))
        if out.returncode != 0 and not errors:
            errors.append((0, (out.stderr or out.stdout).strip().splitlines()[-1] if (out.stderr or out.stdout).strip() else "compiler failed"))
        return errors


def render(checks):
    """Source text for a list of (id, Check) and the line span of each check."""
    lines = ["import CoreData", "", "func _v<T>() -> T { fatalError() }", ""]
    spans = {}
    for cid, check in checks:
        start = len(lines) + 1
        if check.decls:
            lines.extend(check.decls.splitlines())
        attr = "@available(*, deprecated) " if check.deprecated else ""
        lines.append(f"{attr}@MainActor func _check{cid}() {{")
        lines.extend("    " + l for l in check.body.splitlines())
        lines.append("}")
        spans[cid] = (start, len(lines))
    return "\n".join(lines) + "\n", spans


def failing(compiler, checks):
    """{id: first error message} for the checks that do not compile, judged one by one."""
    result = {}
    if not checks:
        return result
    source, spans = render(checks)
    errors = compiler.compile(source)
    if not errors:
        return result
    blamed = {}
    unplaced = False
    for line, message in errors:
        owner = next((cid for cid, (a, b) in spans.items() if a <= line <= b), None)
        if owner is None:
            unplaced = True
        else:
            blamed.setdefault(owner, message)
    if len(checks) == 1:
        cid = checks[0][0]
        result[cid] = blamed.get(cid) or errors[0][1]
        return result
    if blamed and not unplaced:
        rest = [c for c in checks if c[0] not in blamed]
        # confirm the blamed ones alone (an error can be reported away from its cause)
        for cid, message in blamed.items():
            alone = failing(compiler, [c for c in checks if c[0] == cid])
            result.update(alone)
        result.update(failing(compiler, rest))
        return result
    half = len(checks) // 2
    result.update(failing(compiler, checks[:half]))
    result.update(failing(compiler, checks[half:]))
    return result


def quiet(compiler, checks, entries):
    """The checks for the test file, without compiler warnings (the project builds with none).
    A subclass of a class that is `@unchecked Sendable` draws Swift 6's "must restate inherited
    '@unchecked Sendable' conformance": the test's subclasses restate it, and PARITY.md notes
    it on the class (Apple code that subclasses it gets the warning here). A check that warns
    otherwise (say, a deprecation our module declares and Apple's does not) moves into a
    deprecated function, compiled but not run; one that still warns is left out of the test."""
    for attempt in range(3):
        source, spans = render(checks)
        warnings = []
        errors = compiler.compile(source, warnings)
        if errors:
            raise SystemExit(f"the passing checks do not compile together: {errors[:3]}")
        noisy = {}
        for line, message in warnings:
            for cid, (a, b) in spans.items():
                if a <= line <= b:
                    noisy.setdefault(cid, message)
        if not noisy:
            return checks
        for cid, check in checks:
            if cid not in noisy:
                continue
            message = noisy[cid]
            if "must restate inherited '@unchecked Sendable'" in message:
                check.decls = re.sub(r"(class \w+: [^{]+?) \{\}", r"\1, @unchecked Sendable {}", check.decls)
                if entries[cid].kind == "class":
                    add_note(entries[cid], "a subclass draws Swift 6's warning that it must restate "
                                           "`@unchecked Sendable`")
            elif attempt == 0:
                check.deprecated = True
            elif attempt == 2:
                add_note(entries[cid], f"use compiles with a warning ({message}); left out of the test")
        if attempt == 2:
            checks = [c for c in checks if c[0] not in noisy]
    return checks


def add_note(entry, note):
    if note not in entry.extra:
        entry.extra.append(note)


def run_batches(compiler, checks, size, jobs):
    batches = [checks[i:i + size] for i in range(0, len(checks), size)]
    result = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(lambda b: failing(compiler, b), batches):
            result.update(part)
    return result


# ---------------------------------------------------------------------------------------------
# Reports


def clean_message(message):
    message = re.sub(r"\s+", " ", message).strip()
    message = re.sub(r"local function '_c\d+g' requires that '([^']+)' conform to '([^']+)'",
                     r"'\1' does not conform to '\2'", message)
    message = re.sub(r"'_Sub\d+(_\d+)?'", "a subclass", message)
    return message.replace("|", "\\|")


def write_parity(entries, stats):
    notes = open(NOTES).read().strip() + "\n" if os.path.exists(NOTES) else ""
    in_scope = [e for e in entries if e.in_scope]
    yes = sum(1 for e in in_scope if e.state == "yes")
    differs = sum(1 for e in in_scope if e.state == "differs")
    missing = sum(1 for e in in_scope if e.state == "missing")
    out = []
    out.append("# Parity with Apple's Core Data\n")
    out.append("<!-- Generated by scripts/parity/measure.py from scripts/parity/apple-coredata-symbols.txt"
               " and scripts/parity/parity-notes.md; edit those, then run the script. -->\n")
    out.append(f"**{yes} of {len(in_scope)} in-scope symbols ({100.0 * yes / len(in_scope):.1f}%) exist with "
               f"Apple's shape**; {differs} exist with a different shape, {missing} are missing. "
               f"{len(entries) - len(in_scope)} more symbols are out of scope (CloudKit, Spotlight, UIKit, "
               "Combine, macOS-only, or unavailable in Swift).\n")
    out.append("The inventory is Apple's CoreData Swift surface in the macOS 26.1 SDK, which carries the iOS 26.1 "
               "API: the Objective-C headers of `CoreData.framework` (read from "
               "`alexey-lysiuk/macos-sdk`, folders `MacOSX26.1.sdk`, `MacOSX26.0.sdk`, `MacOSX15.5.sdk`, `MacOSX15.4.sdk` "
               "at the commits named in scripts/parity/README.md) turned into Swift names by Swift's own importer "
               "with the Swift project's `apinotes/CoreData.apinotes`, plus Apple's Swift overlay "
               "(`CoreData.swiftmodule/arm64e-apple-macos.swiftinterface`, MacOSX26.1.sdk). "
               "`scripts/parity/apple-coredata-symbols.txt` has one symbol a line with its declaration and scope; "
               "`scripts/parity/README.md` says how it was made and how to recount.\n")
    out.append("States: **yes** means code written for Apple that uses the symbol compiles here unchanged, "
               "with Apple's argument labels, types, optionality and effects (see measure.py for what is checked); "
               "**differs** means the symbol exists but Apple-shaped use does not compile (the compiler's complaint "
               "is quoted); **missing** means no such symbol. "
               "`Tests/CoreDataTests/Support/AppleAPISurfaceTests.swift` compiles every `yes` symbol the way "
               "Apple code uses it, so a regression breaks `swift test`.\n")
    by_kind = collections.Counter()
    by_kind_yes = collections.Counter()
    for e in in_scope:
        by_kind[e.kind] += 1
        by_kind_yes[e.kind] += e.state == "yes"
    out.append("| Kind | In scope | Yes |\n|---|---|---|")
    for k in sorted(by_kind):
        out.append(f"| {k} | {by_kind[k]} | {by_kind_yes[k]} |")
    out.append("")
    if notes:
        out.append(notes)
    groups = collections.OrderedDict()
    for e in entries:
        groups.setdefault(e.group, []).append(e)

    def group_key(g):
        return (g.startswith("Top-level"), g)

    out.append("## Symbols by type\n")
    for g in sorted(groups, key=group_key):
        items = groups[g]
        scoped = [e for e in items if e.in_scope]
        n_yes = sum(1 for e in scoped if e.state == "yes")
        out.append(f"### {g}\n")
        if scoped:
            out.append(f"{n_yes} of {len(scoped)} in scope with Apple's shape.\n")
        out.append("| Symbol | State | Apple's declaration / what differs |\n|---|---|---|")
        for e in items:
            if e.in_scope:
                state = e.state
                detail = f"`{e.decl_text}`"
                if e.state == "differs":
                    detail += f"<br>differs: {clean_message(e.detail)}"
                elif e.state == "missing" and e.detail:
                    detail += f"<br>{clean_message(e.detail)}"
            else:
                state = e.scope.replace("excluded: ", "excluded (") + ")"
                detail = f"`{e.decl_text}`"
            if "deprecated" in e.notes:
                detail += " (deprecated)"
            for note in e.extra:
                detail += f"<br>note: {clean_message(note)}"
            out.append(f"| `{e.name}` | {state} | {detail.replace('|', chr(92) + '|') if False else detail} |")
        out.append("")
    with open(PARITY, "w") as f:
        f.write("\n".join(out).rstrip() + "\n")


def write_test(entries, passing_checks):
    lines = [
        "// Generated by scripts/parity/measure.py: do not edit; run the script again.",
        "//",
        "// Every symbol of Apple's CoreData Swift surface that this module has with Apple's shape",
        "// (PARITY.md, state `yes`), used the way Apple code uses it: method references of Apple's",
        "// function types, key paths of Apple's property types, initializers, cases, conformances.",
        "// Compiling this file is the test; the test function below also runs the checks (they",
        "// only form references) and checks enumeration raw values.",
        "import CoreData",
        "import Testing",
        "",
    ]
    runnable = []
    deprecated_ids = []
    compile_only = []
    lines.append("/// A value of any type, for checks that call a method with Apple's argument types; those")
    lines.append("/// checks are compiled, never run.")
    lines.append("private func _v<T>() -> T { fatalError(\"compile-only check\") }")
    lines.append("")
    for cid, check in passing_checks:
        if check.decls:
            lines.extend(check.decls.splitlines())
        attr = "@available(*, deprecated) " if check.deprecated else ""
        lines.append(f"{attr}@MainActor private func _check{cid}() {{")
        lines.extend("    " + l for l in check.body.splitlines())
        if check.runtime:
            lines.append("    " + check.runtime)
        lines.append("}")
        if check.deprecated:
            deprecated_ids.append(cid)
        elif check.runnable:
            runnable.append(cid)
        else:
            compile_only.append(cid)
    lines.append("")
    lines.append("@Suite struct AppleAPISurfaceTests {")
    lines.append(f'    @Test("{len(passing_checks)} of Apple\'s CoreData symbols compile as Apple code uses them")')
    lines.append("    @MainActor func appleShapedCodeCompiles() {")
    lines.append(f"        // Compiled, not run: {len(deprecated_ids)} checks of deprecated symbols (running them would")
    lines.append(f"        // warn) and {len(compile_only)} that call generic methods with placeholder arguments.")
    lines.append("        let checks: [@MainActor () -> Void] = [")
    for i in range(0, len(runnable), 8):
        lines.append("            " + ", ".join(f"_check{c}" for c in runnable[i:i + 8]) + ",")
    lines.append("        ]")
    lines.append("        for check in checks { check() }")
    lines.append(f"        #expect(checks.count == {len(runnable)})")
    lines.append("    }")
    lines.append("}")
    os.makedirs(os.path.dirname(TEST_FILE), exist_ok=True)
    with open(TEST_FILE, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--no-write", action="store_true", help="print the count only")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=120)
    parser.add_argument("--list", action="store_true", help="print every in-scope symbol that is not `yes`")
    args = parser.parse_args()

    entries = read_inventory()
    protocols = {e.base_name for e in entries if e.kind == "protocol"}
    classes = {e.base_name for e in entries if e.kind == "class"}
    open_names = {}
    # classes first, so initializer checks can use their subclasses
    order = sorted(range(len(entries)), key=lambda i: entries[i].kind != "class")
    for i in order:
        e = entries[i]
        if not e.in_scope:
            continue
        strict, loose = make_checks(e, i, protocols, classes, open_names)
        e.strict, e.loose = strict, loose

    compiler = Compiler(args.build_dir)
    scoped = [(i, e) for i, e in enumerate(entries) if e.in_scope and e.strict]
    # subclasses declared by class checks are needed by initializer checks: keep them in every batch
    sub_decls = {e.base_name: e.strict.decls for _, e in scoped if e.kind == "class"}
    failing_classes = run_batches(compiler, [(i, e.strict) for i, e in scoped if e.kind == "class"], args.batch, args.jobs)
    class_index = {e.base_name: i for i, e in scoped if e.kind == "class"}
    for i, e in scoped:
        if e.kind == "initializer":
            owner = owner_of(e)
            sub = open_names.get(owner)
            if not sub:
                continue
            if class_index.get(owner) not in failing_classes:
                e.strict.decls = sub_decls[owner]
            else:
                # the class cannot be subclassed (reported on the class): check the initializer alone
                e.strict.body = "\n".join(l for l in e.strict.body.splitlines() if sub not in l)
    # class decls must not be declared twice in one batch: class checks keep theirs, others are renamed
    strict_checks = []
    for i, e in scoped:
        check = e.strict
        if e.kind == "initializer" and check.decls:
            sub = re.search(r"class (\w+):", check.decls).group(1)
            fresh = f"{sub}_{i}"
            check = Check(check.body.replace(sub, fresh), check.decls.replace(sub, fresh), check.deprecated,
                          check.runtime, check.runnable)
            e.strict = check
        strict_checks.append((i, check))
    strict_fail = run_batches(compiler, strict_checks, args.batch, args.jobs)
    loose_checks = [(i, entries[i].loose) for i in strict_fail if entries[i].loose is not None]
    loose_fail = run_batches(compiler, loose_checks, args.batch, args.jobs)
    for i, e in enumerate(entries):
        if not e.in_scope:
            e.state = "excluded"
            continue
        if e.strict is None:
            e.state, e.detail = "missing", "no check could be written"
        elif i not in strict_fail:
            e.state = "yes"
        elif e.loose is not None and (i not in loose_fail or not ABSENT.search(loose_fail[i])):
            e.state, e.detail = "differs", strict_fail[i]
        else:
            e.state = "missing"
            e.detail = loose_fail.get(i) or strict_fail[i]
    in_scope = [e for e in entries if e.in_scope]
    yes = sum(1 for e in in_scope if e.state == "yes")
    print(f"{yes} of {len(in_scope)} in-scope symbols with Apple's shape ({100.0 * yes / len(in_scope):.1f}%); "
          f"{sum(1 for e in in_scope if e.state == 'differs')} differ, "
          f"{sum(1 for e in in_scope if e.state == 'missing')} missing; {compiler.count} compiler runs")
    if args.list:
        for e in in_scope:
            if e.state != "yes":
                print(f"{e.state:8} {e.name}  -- {clean_message(e.detail)[:160]}")
    if not args.no_write:
        passing = [(i, entries[i].strict) for i, _ in scoped if entries[i].state == "yes"]
        passing = quiet(compiler, passing, entries)
        write_parity(entries, None)
        write_test(entries, passing)
        print(f"wrote {os.path.relpath(PARITY, ROOT)} and {os.path.relpath(TEST_FILE, ROOT)}")


if __name__ == "__main__":
    main()
