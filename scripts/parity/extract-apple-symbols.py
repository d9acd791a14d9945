#!/usr/bin/env python3
"""Builds scripts/parity/apple-coredata-symbols.txt, the inventory of Apple's public CoreData
Swift symbols, from two Swift-interface texts:

  1. the interface Swift's own importer prints for CoreData's Objective-C headers
     (scripts/parity/objc-import/print-interface.py writes it; see scripts/parity/README.md
     for where the headers come from), and
  2. Apple's Swift overlay, CoreData.swiftmodule/*.swiftinterface, condensed to one
     declaration per line.

The importer runs on Linux without Apple's Foundation overlay, so it prints Objective-C types
(NSString, NSArray<…>, NSError?); this script bridges them the way Apple's overlay does
(String, […], (any Error)?), applies the few corrections listed in FIXUPS, tags every symbol
in scope or excluded (with the reason) and writes one symbol a line:

    symbol <TAB> kind <TAB> scope <TAB> declaration <TAB> notes

Usage: extract-apple-symbols.py IMPORTED.swift OVERLAY.swiftinterface [-o OUTPUT]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swiftdecl as sd  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = """\
# Apple's public CoreData Swift symbols (macOS 26.1 / iOS 26.1 SDK), one a line:
#   symbol <TAB> kind <TAB> scope <TAB> declaration <TAB> notes
# scope is `in-scope` or `excluded: <reason>`; declarations are Apple's Swift spellings.
# Made by scripts/parity/extract-apple-symbols.py; the sources are named in scripts/parity/README.md.
# measure.py reads this file: keep it machine-readable (no other line starts without `#`).
"""

TYPE_KINDS = ("class", "struct", "enum", "protocol")
PROTOCOLS = {"NSCoding", "NSCopying", "NSSecureCoding", "NSFastEnumeration", "NSLocking",
             "NSObjectProtocol", "NSFetchRequestResult", "Sendable", "@unchecked Sendable",
             "ObservableObject", "Hashable", "Equatable"}


def strip_module(name):
    parts = name.split(".")
    while len(parts) > 1 and parts[0] in sd.MODULE_PREFIXES:
        parts = parts[1:]
    name = ".".join(parts)
    return {"NSNotificationName": "NSNotification.Name"}.get(name, name)


def bridge_decl(d):
    d.params = [(l, i, sd.bridge(t), default) for l, i, t, default in d.params]
    if d.result is not None:
        d.result = sd.bridge(d.result)
    if d.type is not None:
        d.type = sd.bridge(d.type)
    d.inherits = [strip_module(i) for i in d.inherits]
    d.generics = re.sub(r"\b(?:CoreData|Foundation|Swift)\.", "", d.generics)
    d.where = re.sub(r"\b(?:CoreData|Foundation|Swift)\.", "", d.where)
    return d


def strip_decl(d):
    """Module qualifiers off a Swift declaration's types (CoreData.NSFetchRequest -> NSFetchRequest)."""
    def strip(node):
        if node is None:
            return None
        text = sd.show(node)
        text = re.sub(r"\b(?:CoreData|Foundation|Swift|Combine|_Concurrency)\.", "", text)
        return sd.parse_type(text)
    d.params = [(l, i, strip(t), default) for l, i, t, default in d.params]
    d.result = strip(d.result)
    d.type = strip(d.type)
    d.inherits = [strip_module(i) for i in d.inherits]
    d.generics = re.sub(r"\b(?:CoreData|Foundation|Swift)\.", "", d.generics)
    d.where = re.sub(r"\b(?:CoreData|Foundation|Swift)\.", "", d.where)
    return d


class Symbol:
    def __init__(self, name, kind, decl, owner, attrs, source):
        self.name, self.kind, self.decl, self.owner = name, kind, decl, owner
        self.attrs = attrs
        self.source = source
        self.notes = []

    @property
    def line_decl(self):
        return self.decl if isinstance(self.decl, str) else sd.show_decl(self.decl)


def walk(text, source):
    """Yield (owner path, Decl, attributes) for every declaration in an interface text."""
    stack = []  # owner names ("" for an extension whose members join the extended type)
    pending = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("//") or line.startswith("import ") or line.startswith("#"):
            continue
        line = line.replace("/*not inherited*/ ", "")
        if line == "}":
            stack.pop()
            continue
        if re.fullmatch(r"(@[A-Za-z_]+(\([^()]*\))?\s*)+", line):
            pending.append(line)
            continue
        opens = line.endswith("{") and not re.search(r"\{\s*(get|set)", line)
        inline_empty = line.endswith("{}")
        body = line[:-2].strip() if inline_empty else line
        d = sd.parse_decl(body)
        attrs = pending + d.attrs
        pending = []
        owner = ".".join(n for n in stack if n)
        if d.kind == "extension":
            target = strip_module(d.name)
            if inline_empty:
                yield owner, d, attrs  # a conformance added by an extension
            else:
                stack.append(target)
            continue
        yield owner, d, attrs
        if opens and d.kind in TYPE_KINDS:
            stack.append(d.name)


ACRONYMS = ("UUID", "URI", "URL", "ID")


def lower_first_word(name):
    for acronym in ACRONYMS:
        if name.startswith(acronym) and (len(name) == len(acronym) or not name[len(acronym)].islower()):
            return name
    return name[0].lower() + name[1:]


def collect(imported_text, overlay_text):
    symbols = []
    seen_types = {}
    classes = {"NSObject"}

    def add(sym):
        symbols.append(sym)

    for source, text in (("headers", imported_text), ("overlay", overlay_text)):
        for owner, d, attrs in walk(text, source):
            if source == "headers":
                bridge_decl(d)  # the overlay is Swift already
            else:
                strip_decl(d)
            if d.kind == "extension":  # `extension X : P {}`
                for proto in d.inherits:
                    add(Symbol(f"{strip_module(d.name)}: {proto}", "conformance",
                               f"extension {strip_module(d.name)} : {proto}", strip_module(d.name), attrs, source))
                continue
            name = d.name
            if name.startswith("__"):
                continue  # NS_REFINED_FOR_SWIFT: hidden, the overlay declares the Swift shape
            full_owner = owner
            if d.kind in TYPE_KINDS:
                full = f"{owner}.{name}" if owner else name
                if d.kind == "class":
                    classes.add(full)
                kind = d.kind
                sym = Symbol(full, kind, d, owner, attrs, source)
                if full in seen_types:
                    continue
                seen_types[full] = sym
                add(sym)
                inherits = list(d.inherits)
                if d.kind == "class" and inherits and strip_module(inherits[0]) not in PROTOCOLS:
                    d.superclass = inherits.pop(0)
                if d.kind == "enum" and inherits and inherits[0] in ("UInt", "Int", "String", "Int32"):
                    d.raw_type = inherits.pop(0)
                for proto in inherits:
                    proto = proto.replace("@unchecked ", "")
                    if proto in ("Equatable", "Hashable", "RawRepresentable") and d.kind in ("enum", "struct"):
                        # stated by the overlay's structs; NS_ENUMs have them implicitly
                        pass
                    add(Symbol(f"{full}: {proto}", "conformance", f"extension {full} : {proto}", full, attrs, source))
                continue
            if d.kind == "typealias" and owner and d.name in ("RawValue", "ObjectWillChangePublisher"):
                kind = "typealias"
            kind = {"func": "method", "init": "initializer", "var": "property", "case": "case",
                    "subscript": "subscript", "typealias": "typealias"}[d.kind]
            if d.is_static and kind in ("method", "property"):
                kind = "class " + kind if "class" in d.mods else "static " + kind
            if not full_owner and kind in ("property", "method"):
                kind = "global " + ("constant" if kind == "property" else "function")
            spelling = d.spelling
            full = f"{full_owner}.{spelling}" if full_owner else spelling
            if any("@discardableResult" in a for a in attrs) and source == "headers":
                d.throws = True  # see THROWS in objc-import/Prelude.h
            add(Symbol(full, kind, d, full_owner, attrs, source))
    return symbols, classes


# Corrections where this importer run differs from Apple's (each checked against Apple's
# documentation pages, developer.apple.com/documentation/coredata/…).
def fixups(symbols):
    out = []
    for s in symbols:
        if s.owner == "NSAttributeType" and s.kind == "case" and s.decl.name.startswith("NS"):
            # Apple's importer drops the common `NS` prefix: .stringAttributeType, .UUIDAttributeType
            s.decl.name = lower_first_word(s.decl.name[2:])
            s.name = f"NSAttributeType.{s.decl.name}"
        out.append(s)
    # Names Apple's Swift spells differently from this importer run: Apple's toolchain carries
    # API notes newer than the open-source copy used here, and sees Foundation's URL and AnyClass
    # where this run sees Objective-C stand-ins. Each replacement is Apple's declaration as
    # Apple's documentation gives it (developer.apple.com/documentation/coredata/...).
    renames = {
        "NSPersistentStoreCoordinator.registerStore(_:forStoreType:)":
            "class func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String)",
        "NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:url:)":
            "class func metadataForPersistentStore(ofType storeType: String?, at url: URL) throws -> [String: Any]",
        "NSPersistentStoreCoordinator.setMetadata(_:forPersistentStoreOfType:url:)":
            "class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String?, at url: URL) throws",
        "NSPersistentStoreCoordinator.destroyPersistentStore(at:withType:options:)":
            "func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws",
        "NSPersistentStoreCoordinator.replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:storeType:)":
            "func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, "
            "withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil, ofType storeType: String) throws",
        "NSMergePolicy.resolveOptimisticLockingVersionConflicts(_:)":
            "func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws",
    }
    for s in out:
        fix = renames.get(s.name)
        if fix is None:
            continue
        mods = s.decl.mods
        s.decl = sd.parse_decl(fix)
        s.decl.mods = mods
        s.name = f"{s.owner}.{s.decl.spelling}"
    # NS_OPTIONS members whose value is 0 are imported by Apple's SDK (documented as
    # NSFetchRequestResultType.managedObjectResultType); this importer run hid it.
    d = sd.parse_decl("public static var managedObjectResultType: NSFetchRequestResultType { get }")
    d.mods = {"static"}
    out.append(Symbol("NSFetchRequestResultType.managedObjectResultType", "static property", d,
                      "NSFetchRequestResultType", [], "headers"))
    return out


CLOUDKIT_TYPES = re.compile(r"CloudKit|^CK")
SPOTLIGHT = re.compile(r"Spotlight|ExternalRecord(?!ImportError)|InPathKey|^NSStorePathKey$|^NSModelPathKey$|^NSObjectURIKey$|importStore\(|elementsDerived\(")
UBIQUITY = re.compile(r"Ubiquit")


def classify(s):
    """(scope, notes) for a symbol."""
    name, attrs = s.name, " ".join(s.attrs)
    decl = s.line_decl
    notes = []
    if "deprecated" in attrs and "unavailable" not in attrs.replace("iOS, unavailable", ""):
        notes.append("deprecated")
    if re.search(r"@available\(\*,\s*unavailable", attrs):
        return "excluded: unavailable in Swift (kept by Apple only to point at the new name)", notes
    if CLOUDKIT_TYPES.search(name.split(".")[0].split(":")[0]) or "cloudKitContainerOptions" in name \
            or "allowsCloudEncryption" in name or "CKRecord" in decl or "CKShare" in decl:
        return "excluded: CloudKit", notes
    if UBIQUITY.search(name):
        return "excluded: CloudKit (iCloud ubiquitous content, deprecated since iOS 10)", notes
    if SPOTLIGHT.search(name) or "coreSpotlight" in name or "IndexedBySpotlight" in name \
            or "StoredInExternalRecord" in name:
        return "excluded: Spotlight", notes
    if "NSDiffableDataSourceSnapshotReference" in decl:
        return "excluded: UIKit (diffable data source snapshots)", notes
    if "ObservableObject" in name or "objectWillChange" in name or "ObjectWillChangePublisher" in name:
        return "excluded: Combine", notes
    if "@available(iOS, unavailable)" in attrs or name == "NSPersistentStore.StoreType.xml":
        return "excluded: macOS only (unavailable on iOS, the SDK measured)", notes
    if name.endswith(": NSFastEnumeration"):
        return ("excluded: NSFastEnumeration is an Objective-C protocol that swift-corelibs-foundation "
                "does not declare"), notes
    return "in-scope", notes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("imported")
    parser.add_argument("overlay")
    parser.add_argument("-o", "--output", default=os.path.join(HERE, "apple-coredata-symbols.txt"))
    args = parser.parse_args()
    symbols, _ = collect(open(args.imported).read(), open(args.overlay).read())
    symbols = fixups(symbols)
    seen = {}
    rows = []
    for s in symbols:
        scope, notes = classify(s)
        name = s.name
        if name in seen:
            seen[name] += 1
            name = f"{name} #{seen[name]}"
        else:
            seen[name] = 1
        note_text = ", ".join(notes + s.notes + (["overlay"] if s.source == "overlay" else []))
        rows.append("\t".join([name, s.kind, scope, s.line_decl, note_text]))
    with open(args.output, "w") as out:
        out.write(HEADER)
        for row in rows:
            out.write(row + "\n")
    in_scope = sum(1 for r in rows if r.split("\t")[2] == "in-scope")
    print(f"{len(rows)} symbols, {in_scope} in scope -> {os.path.relpath(args.output)}")


if __name__ == "__main__":
    main()
