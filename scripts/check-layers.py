#!/usr/bin/env python3
"""The layer rules of Sources/CoreData and the runtime shim, checked (CI runs this).

1. Every folder of Sources/CoreData is a declared layer (LAYERS below, bottom first).
2. Folder references form no loop, once the references Apple's API forces are set aside
   (FORCED below, each with the API that forces it). A folder references another when it
   names a type declared there (comments and string literals are ignored).
3. Only Runtime/ calls the C runtime shim (`cdr_*`, `CDR_*`, `import CCoreDataRuntime`).
4. SQLite/ and PostgreSQL/ are pure wrappers of their C clients: they name no type of another
   folder and import only Foundation and their system module.
5. The runtime shim's C files do not depend on each other in a loop (from `nm` of each
   object file: which file defines the symbols another one uses).
6. Tests mirror the layers: every folder of Tests/CoreDataTests is a layer's name.

Usage: scripts/check-layers.py [--graph]   (run from anywhere; exits 1 on a violation)
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "Sources", "CoreData")
SHIM = os.path.join(ROOT, "CModules", "CCoreDataRuntime")
TESTS = os.path.join(ROOT, "Tests", "CoreDataTests")

# The layers, bottom first: a layer may name types of the layers listed before it.
LAYERS = {
    "Support": "errors and their codes, the misuse trap, hashing, counters",
    "Runtime": "the Swift face of the C runtime shim: slot blocks, rows, layouts",
    "SQLite": "a plain SQLite wrapper: connection, statement, error",
    "PostgreSQL": "a plain libpq wrapper: connection, result, error",
    "Predicate": "NSPredicate, NSExpression, NSSortDescriptor: parsing, formatting, evaluation",
    "Model": "NSManagedObjectModel and the descriptions, freezing, version hashes",
    "Fetch": "NSFetchRequest and what it returns",
    "ModelLoading": "Xcode model files, model bundles, finding models",
    "StoreBackend": "what a store is to the coordinator: rows, plans, changes; the in-memory store",
    "SQLStore": "the SQL-store core both SQL stores share: connection protocol, dialect, schema, entity plans, predicate compiler, save and fetch over SQL",
    "SQLiteStore": "the SQLite store in Core Data's own format, its SQL and its migrations",
    "PostgreSQLStore": "the PostgreSQL store: the shared core over libpq, with its keys, locking, retries and type names",
    "Store": "NSPersistentStoreCoordinator, NSPersistentStore, NSManagedObjectID, the row cache",
    "Object": "NSManagedObject, @Managed, value transformers",
    "Undo": "UndoManager",
    "Context": "NSManagedObjectContext: object sources, change tracking, saving, merging",
    "History": "persistent history: transactions, changes, tokens and the requests that read and delete them",
    "FetchedResults": "NSFetchedResultsController: sections of a fetch, kept up to date with its context's changes",
    "CustomStore": "NSIncrementalStore, NSAtomicStore: store classes written by apps, and the adapters that make them StoreBackends",
    "Migration": "NSMigrationManager, NSEntityMigrationPolicy: migrations that run a mapping model over objects in contexts",
    "Container": "NSPersistentContainer and NSPersistentStoreDescription",
    "SPI": "throwing twins for the C API (Sources/CoreDataC)",
    "CoreData.docc": "the documentation catalog",
}

# References that Apple's API forces against the layer order: (from, to) -> {type: why}.
FORCED = {
    ("Object", "Context"): {
        "NSManagedObjectContext": "NSManagedObject.managedObjectContext, init(context:)",
    },
    ("Model", "Fetch"): {
        "NSFetchRequest": "NSManagedObjectModel.fetchRequestTemplate(forName:), NSFetchedPropertyDescription.fetchRequest",
        "NSFetchRequestResult": "the result type of those fetch requests",
    },
    ("Store", "Migration"): {
        "NSMigrationManager": "NSPersistentStore.migrationManagerClass(); automatic migration runs the manager that class names",
    },
    ("Migration", "Container"): {
        "NSPersistentContainer": "NSStagedMigrationManager.container: custom stage handlers reach the store through a container",
    },
    ("Store", "History"): {
        "NSPersistentHistoryToken": "the coordinator posts NSPersistentStoreRemoteChange with the token under NSPersistentHistoryTokenKey",
    },
    ("Fetch", "Store"): {
        "NSPersistentStore": "NSFetchRequest.affectedStores",
        "NSManagedObjectID": "NSManagedObjectID is an NSFetchRequestResult (.managedObjectIDResultType)",
    },
}

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open|internal|fileprivate|private|final|indirect|nonisolated)\s+)*"
    r"(?:class|struct|enum|protocol|typealias|actor)\s+([A-Za-z_]\w*)", re.M)
TYPE_NAME = re.compile(r"\b[A-Z]\w*\b")


def strip(source):
    """Source without comments and string literals (which may name anything)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r"//.*", "", source)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', source)


def swift_files(folder):
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def layer_of(path):
    return os.path.relpath(path, SOURCES).split(os.sep)[0]


def folder_graph(problems):
    sources = {path: strip(open(path, encoding="utf-8").read()) for path in swift_files(SOURCES)}
    owners = {}
    for path, source in sources.items():
        for name in DECLARATION.findall(source):
            owners.setdefault(name, set()).add(layer_of(path))
    owner = {name: next(iter(layers)) for name, layers in owners.items() if len(layers) == 1}
    edges = collections.defaultdict(lambda: collections.defaultdict(set))
    for path, source in sources.items():
        here = layer_of(path)
        for name in set(TYPE_NAME.findall(source)):
            there = owner.get(name)
            if there and there != here:
                edges[here][there].add((name, os.path.relpath(path, ROOT)))
    for layer in sorted({layer_of(p) for p in sources} | set(os.listdir(SOURCES))):
        if layer not in LAYERS and not layer.endswith(".swift"):
            problems.append(f"Sources/CoreData/{layer} is not a declared layer (scripts/check-layers.py LAYERS)")
    return edges


def checked_edges(edges):
    """The graph with the forced references set aside."""
    graph = collections.defaultdict(set)
    for here, targets in edges.items():
        for there, uses in targets.items():
            forced = FORCED.get((here, there), {})
            if any(name not in forced for name, _ in uses):
                graph[here].add(there)
    return graph


def find_cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for successor in sorted(graph.get(node, ())):
            if state.get(successor) == 1:
                return stack[stack.index(successor):] + [successor]
            if successor not in state:
                cycle = visit(successor)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def check_folders(problems, show):
    edges = folder_graph(problems)
    graph = checked_edges(edges)
    cycle = find_cycle(graph)
    if cycle:
        steps = []
        for a, b in zip(cycle, cycle[1:]):
            uses = sorted(edges[a][b])[:3]
            steps.append(f"  {a} -> {b}: " + ", ".join(f"{n} ({p})" for n, p in uses))
        problems.append("folder references form a loop:\n" + "\n".join(steps))
    order = list(LAYERS)
    for here in graph:
        for there in graph[here]:
            if here in order and there in order and order.index(there) > order.index(here):
                uses = sorted(edges[here][there])[:3]
                problems.append(f"{here} (lower) names {there} (higher): "
                                + ", ".join(f"{n} ({p})" for n, p in uses))
    for wrapper in ("SQLite", "PostgreSQL"):
        for target, uses in edges.get(wrapper, {}).items():
            problems.append(f"{wrapper}/ must know no Core Data type, but names {target}'s "
                            + ", ".join(sorted(n for n, _ in uses)))
    if show:
        for here in order:
            print(f"{here:14} -> {', '.join(sorted(edges.get(here, {}))) or '-'}")


def check_runtime_calls(problems):
    for path in swift_files(os.path.join(ROOT, "Sources")):
        source = strip(open(path, encoding="utf-8").read())
        in_runtime = path.startswith(os.path.join(SOURCES, "Runtime") + os.sep)
        if not in_runtime and re.search(r"\b(cdr_\w+|CDR_\w+)|import\s+CCoreDataRuntime", source):
            problems.append(f"{os.path.relpath(path, ROOT)} calls the runtime shim outside Runtime/")
    for path in swift_files(os.path.join(SOURCES, "SQLite")):
        for module in re.findall(r"^\s*(?:internal |public |@_\w+ )*import\s+(\w+)", open(path).read(), re.M):
            if module not in ("Foundation", "CCoreDataSQLite"):
                problems.append(f"{os.path.relpath(path, ROOT)} imports {module}: SQLite/ is a plain wrapper")
    for path in swift_files(os.path.join(SOURCES, "PostgreSQL")):
        for module in re.findall(r"^\s*(?:internal |public |@_\w+ )*import\s+(\w+)", open(path).read(), re.M):
            if module not in ("Foundation", "CCoreDataLibPQ"):
                problems.append(f"{os.path.relpath(path, ROOT)} imports {module}: PostgreSQL/ is a plain wrapper")


def check_shim(problems):
    sources = sorted(f for f in os.listdir(SHIM) if f.endswith(".c"))
    defined, used = {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        for name in sources:
            obj = os.path.join(scratch, name + ".o")
            subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-c", "-I", os.path.join(SHIM, "include"),
                            os.path.join(SHIM, name), "-o", obj], check=True)
            out = subprocess.run(["nm", obj], check=True, capture_output=True, text=True).stdout
            defined[name] = {l.split()[-1] for l in out.splitlines() if re.match(r"^\S+ [TDBR] ", l)}
            used[name] = {l.split()[-1] for l in out.splitlines() if l.strip().startswith("U ")}
    graph = {a: {b for b in sources if b != a and used[a] & defined[b]} for a in sources}
    cycle = find_cycle(graph)
    if cycle:
        problems.append("the runtime shim's C files depend on each other in a loop: " + " -> ".join(cycle))


def check_tests(problems):
    if not os.path.isdir(TESTS):
        return
    for name in sorted(os.listdir(TESTS)):
        if os.path.isdir(os.path.join(TESTS, name)) and name not in LAYERS:
            problems.append(f"Tests/CoreDataTests/{name} does not mirror a layer of Sources/CoreData")


def main():
    problems = []
    check_folders(problems, "--graph" in sys.argv)
    check_runtime_calls(problems)
    check_shim(problems)
    check_tests(problems)
    if problems:
        print("layer check: FAIL")
        for problem in problems:
            print("- " + problem)
        return 1
    print(f"layer check: ok ({len(LAYERS)} layers, no loop beyond Apple's forced references, "
          "cdr_* only in Runtime/, SQLite/ plain, shim files acyclic, tests mirror the layers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
