"""A small reader of Swift declarations as they appear in Swift interfaces (one declaration
per line), enough for the parity tools: types (parsed, printed, and bridged from the
Objective-C spellings the importer prints when it has no Foundation overlay), and function,
initializer, property, subscript and case declarations split into their parts.

Used by extract-apple-symbols.py (to build the inventory) and measure.py (to write the code
that uses each symbol the way Apple code does).
"""
import re

# ---------------------------------------------------------------------------------------------
# Types


class Ty:
    """A parsed type. kind is one of: named, optional, array, dict, func, tuple, meta, any."""

    def __init__(self, kind, **fields):
        self.kind = kind
        self.__dict__.update(fields)

    def __repr__(self):
        return f"Ty({show(self)})"


def _tokens(text):
    return re.findall(r"\.\.\.|->|[A-Za-z_][A-Za-z_0-9]*|@[A-Za-z_]+(?:\([^)]*\))?|[<>\[\]():,.?!&=]|\S", text)


class _Parser:
    def __init__(self, text):
        self.toks = _tokens(text)
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self, expected=None):
        tok = self.peek()
        if expected is not None and tok != expected:
            raise ValueError(f"expected {expected!r}, found {tok!r} in {' '.join(self.toks)}")
        self.i += 1
        return tok

    def type(self):
        attrs = []
        while self.peek() and (self.peek().startswith("@") or self.peek() in ("inout", "sending", "__owned", "consuming", "borrowing")):
            attrs.append(self.take())
        if self.peek() in ("any", "some"):
            word = self.take()
            inner = self.postfix(self.primary())
            node = Ty("any", word=word, inner=inner)
        else:
            node = self.postfix(self.primary())
        if self.peek() in ("async", "throws", "rethrows", "->") and node.kind == "tuple":
            is_async = is_throws = False
            if self.peek() == "async":
                self.take()
                is_async = True
            if self.peek() in ("throws", "rethrows"):
                self.take()
                is_throws = True
                if self.peek() == "(":  # typed throws
                    self.take("(")
                    self.type()
                    self.take(")")
            self.take("->")
            result = self.type()
            node = Ty("func", params=node.elems, labels=node.labels, is_async=is_async,
                      throws=is_throws, result=result, attrs=[a for a in attrs if a != "inout"])
        elif attrs:
            node = Ty(node.kind, **{k: v for k, v in node.__dict__.items() if k != "kind"})
            node.attrs = attrs
        return node

    def primary(self):
        tok = self.peek()
        if tok == "(":
            self.take("(")
            elems, labels = [], []
            while self.peek() != ")":
                label = None
                # `_ name: T` or `name: T` inside closure types
                if self.peek(1) == ":" or (self.peek(2) == ":" and re.match(r"[A-Za-z_]", self.peek(1) or "")):
                    if self.peek(1) == ":":
                        label = self.take()
                        self.take(":")
                    else:
                        self.take()
                        label = self.take()
                        self.take(":")
                elems.append(self.type())
                labels.append(label)
                if self.peek() == ",":
                    self.take(",")
            self.take(")")
            return Ty("tuple", elems=elems, labels=labels)
        if tok == "[":
            self.take("[")
            key = self.type()
            if self.peek() == ":":
                self.take(":")
                value = self.type()
                self.take("]")
                return Ty("dict", key=key, value=value)
            self.take("]")
            return Ty("array", elem=key)
        parts = []
        while True:
            name = self.take()
            args = []
            if self.peek() == "<":
                self.take("<")
                while self.peek() != ">":
                    args.append(self.type())
                    if self.peek() == ",":
                        self.take(",")
                self.take(">")
            parts.append((name, args))
            if self.peek() == "." and self.peek(1) not in ("Type", "Protocol"):
                self.take(".")
                continue
            break
        return Ty("named", parts=parts)

    def postfix(self, node):
        while True:
            if self.peek() in ("?", "!"):
                mark = self.take()
                node = Ty("optional", inner=node, iuo=(mark == "!"))
            elif self.peek() == "." and self.peek(1) in ("Type", "Protocol"):
                self.take(".")
                self.take()
                node = Ty("meta", inner=node)
            else:
                return node


def parse_type(text):
    parser = _Parser(text)
    node = parser.type()
    if parser.peek() is not None:
        raise ValueError(f"trailing {parser.toks[parser.i:]} in type {text!r}")
    return node


def show(node):
    attrs = "".join(a + " " for a in getattr(node, "attrs", []) or [])
    if node.kind == "named":
        text = ".".join(name + (f"<{', '.join(show(a) for a in args)}>" if args else "")
                        for name, args in node.parts)
    elif node.kind == "optional":
        inner = show(node.inner)
        if node.inner.kind in ("func", "any") or (node.inner.kind == "named" and getattr(node.inner, "attrs", None)):
            inner = f"({inner})"
        text = inner + ("!" if node.iuo else "?")
    elif node.kind == "array":
        text = f"[{show(node.elem)}]"
    elif node.kind == "dict":
        text = f"[{show(node.key)}: {show(node.value)}]"
    elif node.kind == "tuple":
        text = "(" + ", ".join(show(e) for e in node.elems) + ")"
    elif node.kind == "meta":
        inner = show(node.inner)
        if node.inner.kind in ("any", "func"):
            inner = f"({inner})"
        text = inner + ".Type"
    elif node.kind == "any":
        text = f"{node.word} {show(node.inner)}"
    elif node.kind == "func":
        text = "(" + ", ".join(show(p) for p in node.params) + ")"
        if node.is_async:
            text += " async"
        if node.throws:
            text += " throws"
        text += " -> " + show(node.result)
    else:
        raise ValueError(node.kind)
    return attrs + text


def named(name, *args):
    return Ty("named", parts=[(name, list(args))])


def name_of(node):
    return ".".join(n for n, _ in node.parts) if node.kind == "named" else None


# Objective-C classes that Swift bridges to value types (Apple's Foundation overlay).
VALUE_BRIDGES = {
    "NSString": "String", "NSURL": "URL", "NSData": "Data", "NSDate": "Date", "NSUUID": "UUID",
    "NSNotification": "Notification", "NSIndexPath": "IndexPath", "NSBundle": "Bundle",
    "NSUndoManager": "UndoManager", "NSProgress": "Progress", "NSTimeInterval": "TimeInterval",
    "NSNotificationName": "NSNotification.Name", "BOOL": "Bool", "NSInteger": "Int",
    "AnyClass": "AnyClass",
}
MUTABLE_UNTYPED = {"NSMutableDictionary", "NSMutableArray", "NSMutableSet", "NSMutableOrderedSet"}
MODULE_PREFIXES = ("CoreData", "Foundation", "Swift", "Combine", "AppleFoundationStub", "_Concurrency")


def bridge(node, position="value"):
    """The type as Swift shows it with Apple's Foundation overlay: NSString as String, NSArray
    as an array, NSError as Error, and so on. position is "value", "key" (a dictionary key or
    set element, where AnyObject becomes AnyHashable) or "element"."""
    attrs = getattr(node, "attrs", None)

    def keep(new):
        if attrs and new.kind in ("func", "named"):
            new.attrs = attrs
        return new

    k = node.kind
    if k == "optional":
        return Ty("optional", inner=bridge(node.inner, position), iuo=node.iuo)
    if k == "array":
        return Ty("array", elem=bridge(node.elem, "element"))
    if k == "dict":
        return Ty("dict", key=bridge(node.key, "key"), value=bridge(node.value, "element"))
    if k == "tuple":
        return Ty("tuple", elems=[bridge(e) for e in node.elems], labels=node.labels)
    if k == "meta":
        return Ty("meta", inner=bridge(node.inner))
    if k == "any":
        return Ty("any", word=node.word, inner=bridge(node.inner))
    if k == "func":
        return keep(Ty("func", params=[bridge(p) for p in node.params], labels=node.labels,
                       is_async=node.is_async, throws=node.throws, result=bridge(node.result), attrs=[]))
    # named
    parts = [(n, a) for n, a in node.parts]
    while len(parts) > 1 and parts[0][0] in MODULE_PREFIXES:
        parts = parts[1:]
    name = ".".join(n for n, _ in parts)
    args = parts[-1][1]
    if name in ("AnyObject", "Any"):
        return named("AnyHashable") if position == "key" else named("Any")
    if name == "NSArray":
        return Ty("array", elem=bridge(args[0], "element") if args else named("Any"))
    if name == "NSSet":
        return named("Set", bridge(args[0], "key") if args else named("AnyHashable"))
    if name == "NSDictionary":
        if not args:
            return Ty("dict", key=named("AnyHashable"), value=named("Any"))
        return Ty("dict", key=bridge(args[0], "key"), value=bridge(args[1], "element"))
    if name in MUTABLE_UNTYPED:
        return named(name)
    if name == "NSOrderedCollectionDifference":
        return named("CollectionDifference", *[bridge(a, "element") for a in args])
    if name == "NSError":
        return Ty("any", word="any", inner=named("Error"))
    if name == "AutoreleasingObjectPointer":
        return named("AutoreleasingUnsafeMutablePointer", Ty("optional", inner=named("AnyObject"), iuo=False))
    if name in VALUE_BRIDGES:
        return keep(Ty("named", parts=[(p, []) for p in VALUE_BRIDGES[name].split(".")]))
    new_parts = parts[:-1] + [(parts[-1][0], [bridge(a, "generic") for a in args])]
    return keep(Ty("named", parts=new_parts))


# ---------------------------------------------------------------------------------------------
# Declarations


class Decl:
    """One declaration: kind (class, struct, enum, protocol, extension, typealias, func, init,
    var, let, case, subscript), name, and the parts that matter for its shape."""

    def __init__(self, **fields):
        self.attrs = []
        self.is_static = False
        self.generics = ""
        self.params = []  # (label, internal name, Ty, has default)
        self.is_async = False
        self.throws = False
        self.rethrows = False
        self.result = None
        self.type = None
        self.settable = False
        self.failable = None  # None, "?" or "!"
        self.inherits = []
        self.optional_req = False
        self.raw_value = None
        self.where = ""
        self.__dict__.update(fields)

    @property
    def spelling(self):
        if self.kind in ("func", "init", "subscript"):
            base = "init" if self.kind == "init" else ("subscript" if self.kind == "subscript" else self.name)
            return f"{base}({''.join((label or '_') + ':' for label, _, _, _ in self.params)})"
        return self.name


def _split_top(text, sep=","):
    """Split at top-level separators (outside (), [], <>)."""
    depth, out, cur = 0, [], ""
    i = 0
    while i < len(text):
        c = text[i]
        if c in "([<":
            depth += 1
        elif c in ")]>":
            if not (c == ">" and i > 0 and text[i - 1] == "-"):
                depth -= 1
        if c == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur)
    return [p.strip() for p in out]


def _matching(text, start):
    """Index of the bracket closing the one at text[start]."""
    pairs = {"(": ")", "[": "]", "<": ">"}
    opening = text[start]
    closing = pairs[opening]
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == opening:
            depth += 1
        elif c == closing and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced {opening} in {text!r}")


MODIFIERS = {"public", "open", "final", "nonisolated", "convenience", "required", "override",
             "dynamic", "weak", "unowned", "unowned(unsafe)", "mutating", "indirect", "lazy",
             "optional", "static", "class", "@objc", "@NSCopying", "@preconcurrency",
             "@discardableResult", "@_disfavoredOverload", "@inlinable", "__consuming"}


def parse_decl(line):
    """Parse one declaration line (attributes may precede it on the same line)."""
    text = line.strip().rstrip("{").strip()
    attrs = []
    mods = set()
    while True:
        m = re.match(r"(@[A-Za-z_]+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?)\s*", text)
        if m:
            attrs.append(m.group(1))
            text = text[m.end():]
            continue
        m = re.match(r"(unowned\(unsafe\)|public|open|final|nonisolated|convenience|required|override|dynamic|weak|unowned|mutating|indirect|lazy|optional|static|class(?=\s+(?:func|var|let|subscript)\b))\s+", text)
        if m:
            mods.add(m.group(1))
            text = text[m.end():]
            continue
        break
    m = re.match(r"(class|struct|enum|protocol|extension|typealias|func|init|var|let|case|subscript)\b\s*", text)
    if not m:
        raise ValueError(f"not a declaration: {line!r}")
    kind = m.group(1)
    rest = text[m.end():]
    d = Decl(kind=kind, attrs=attrs, is_static=bool(mods & {"static", "class"}),
             optional_req="optional" in mods, mods=mods)
    if kind in ("class", "struct", "enum", "protocol", "extension"):
        m = re.match(r"([A-Za-z_][\w.]*)\s*(<[^{:]*>)?\s*(?::\s*(.*?))?\s*(?:where\s+(.*))?$", rest)
        d.name = m.group(1)
        d.generics = m.group(2) or ""
        d.inherits = _split_top(m.group(3)) if m.group(3) else []
        d.where = m.group(4) or ""
        return d
    if kind == "typealias":
        m = re.match(r"([A-Za-z_]\w*)\s*(<[^=]*>)?\s*=\s*(.*)$", rest)
        d.name = m.group(1)
        d.generics = m.group(2) or ""
        d.type = parse_type(m.group(3))
        return d
    if kind == "case":
        m = re.match(r"`?([A-Za-z_]\w*)`?\s*(?:=\s*(.*))?$", rest)
        d.name = m.group(1)
        d.raw_value = m.group(2)
        return d
    if kind in ("var", "let"):
        m = re.match(r"`?([A-Za-z_]\w*)`?\s*:\s*(.*?)\s*(\{[^}]*\})?\s*$", rest)
        d.name = m.group(1)
        d.type = parse_type(m.group(2))
        accessors = m.group(3)
        d.settable = kind == "var" and (accessors is None or "set" in accessors)
        d.kind = "var"
        d.is_let = kind == "let"
        return d
    # func, init, subscript
    if kind == "func":
        m = re.match(r"(`?[A-Za-z_]\w*`?|==|[^\s(<]+)\s*", rest)
        d.name = m.group(1).strip("`")
        rest = rest[m.end():]
    elif kind == "init":
        d.name = "init"
        if rest[:1] in "?!":
            d.failable = rest[0]
            rest = rest[1:]
    else:
        d.name = "subscript"
    if rest.startswith("<"):
        end = _matching(rest, 0)
        d.generics = rest[:end + 1]
        rest = rest[end + 1:].strip()
    end = _matching(rest, 0)
    params_text = rest[1:end]
    rest = rest[end + 1:].strip()
    for p in _split_top(params_text):
        default = False
        if "=" in p:
            depth = 0
            for i, c in enumerate(p):
                if c in "([<":
                    depth += 1
                elif c in ")]>" and not (c == ">" and p[i - 1] == "-"):
                    depth -= 1
                elif c == "=" and depth == 0 and p[i - 1] not in "=!<>" and p[i + 1:i + 2] != "=":
                    p = p[:i].strip()
                    default = True
                    break
        names, _, type_text = p.partition(":")
        words = names.split()
        if not re.match(r"[A-Za-z_]", d.name):  # operators take no argument labels
            label, internal = None, words[-1]
        elif kind == "subscript":
            label = words[0] if len(words) == 2 else None
            internal = words[-1]
            if label == "_":
                label = None
        else:
            label = words[0] if words[0] != "_" else None
            internal = words[-1]
        d.params.append((label, internal, parse_type(type_text.strip()), default))
    m = re.match(r"(async\b\s*)?((?:re)?throws(?:\([^)]*\))?\s*)?(?:->\s*(.*?))?\s*(\{[^}]*\})?\s*(?:where\s+(.*))?$", rest)
    d.is_async = bool(m.group(1))
    if m.group(2):
        d.throws = True
        d.rethrows = m.group(2).startswith("rethrows")
    if m.group(3):
        result = m.group(3)
        if " where " in result:
            result, _, d.where = result.partition(" where ")
        d.result = parse_type(result.strip())
    if m.group(5):
        d.where = m.group(5)
    if kind == "subscript":
        d.settable = bool(m.group(4) and "set" in m.group(4))
    return d


def show_decl(d):
    """The declaration in a canonical one-line spelling."""
    pre = ""
    if d.optional_req:
        pre += "optional "
    if d.is_static:
        pre += "class " if "class" in d.mods else "static "
    if d.kind in ("class", "struct", "enum", "protocol"):
        text = f"{d.kind} {d.name}{d.generics}"
        if d.inherits:
            text += " : " + ", ".join(d.inherits)
        if d.where:
            text += " where " + d.where
        return text
    if d.kind == "typealias":
        return f"typealias {d.name}{d.generics} = {show(d.type)}"
    if d.kind == "case":
        return f"case {d.name}" + (f" = {d.raw_value}" if d.raw_value else "")
    if d.kind == "var":
        word = "let" if getattr(d, "is_let", False) else "var"
        accessors = "" if word == "let" else (" { get set }" if d.settable else " { get }")
        return f"{pre}{word} {d.name}: {show(d.type)}{accessors}"
    params = []
    for label, internal, ty, default in d.params:
        if d.kind == "subscript":
            head = f"{label} {internal}" if label else internal
        else:
            head = (label if label == internal else f"{label or '_'} {internal}")
        params.append(f"{head}: {show(ty)}" + (" = default" if default else ""))
    base = {"init": "init" + (d.failable or ""), "subscript": "subscript"}.get(d.kind, f"func {d.name}")
    text = f"{pre}{base}{d.generics}({', '.join(params)})"
    if d.is_async:
        text += " async"
    if d.throws:
        text += " rethrows" if d.rethrows else " throws"
    if d.result is not None:
        text += f" -> {show(d.result)}"
    if d.kind == "subscript":
        text += " { get set }" if d.settable else " { get }"
    if d.where:
        text += f" where {d.where}"
    return text
