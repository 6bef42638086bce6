#!/usr/bin/env python3
"""Scripts/package-access.py: which `package` declarations no other target names.

A stage target's `package` declarations are its interface to the later stages. One that no other
target (nor a test, nor a fuzz harness) names is an internal detail spelled as interface; this
script lists them, and with --apply drops their `package` so they fall back to `internal`.

    python3 Scripts/package-access.py            # list, one per line: file:line: name; exit 1 if any
    python3 Scripts/package-access.py --apply    # narrow them in place
    python3 Scripts/package-access.py --count    # package declarations per target, kept / narrowable

The reading is textual and conservative: a declaration stays `package` when its name appears as a
word in any other target's, test's or fuzz harness's Swift source; when it names a type that a kept
declaration's signature uses; when it may witness a protocol requirement (a kept protocol's
requirement, or a standard one such as `description` or `==`); and always for `init`, `subscript`,
`override` and extensions. What it narrows is then only what the compiler can prove unused outside:
`swift build` afterwards is the check (docs/contributing.md, "Access").
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
OUTSIDE_EXTRA = [ROOT / "Tests", ROOT / "Fuzz"]
# Requirement names of the standard library's and Foundation's protocols a type may conform to.
STANDARD = {
    "description", "debugDescription", "errorDescription", "hash", "encode", "id", "rawValue",
    "allCases", "makeIterator", "next", "startIndex", "endIndex", "index", "count", "underestimatedCount",
    "localizedDescription", "failureReason", "recoverySuggestion", "unownedExecutor", "run", "validate",
    "configuration", "callAsFunction", "distance", "advanced", "zero", "values", "isEmpty",
    "codingKey", "stringValue", "intValue", "makeAsyncIterator", "customMirror",
}
# Protocols whose requirements are all in STANDARD or are operators and initialisers.
KNOWN = {
    "Sendable", "Equatable", "Hashable", "Codable", "Encodable", "Decodable", "Comparable", "CaseIterable",
    "Error", "CustomStringConvertible", "CustomDebugStringConvertible", "Identifiable", "RawRepresentable",
    "LocalizedError", "CodingKey", "CodingKeyRepresentable", "BitwiseCopyable",
}
DECL = re.compile(
    r"^(?P<indent>\s*)(?P<before>(?:@[\w.]+(?:\([^)]*\))?\s+|(?:static|final|nonisolated|override|mutating|"
    r"nonmutating|lazy|convenience|required|indirect|dynamic|weak|unowned|consuming|borrowing)\s+)*)"
    r"package(?P<set>\s+private\(set\)|\s+fileprivate\(set\)|\s+internal\(set\))?\s+"
    r"(?P<after>(?:static|final|nonisolated|override|mutating|nonmutating|lazy|convenience|required|indirect|"
    r"dynamic|weak|unowned|@[\w.]+(?:\([^)]*\))?)\s+)*"
    r"(?P<kind>func|var|let|struct|class|enum|protocol|typealias|actor|init|subscript|extension)\b\s*"
    r"(?P<name>`?[A-Za-z_][A-Za-z0-9_]*`?|[^\sA-Za-z_(<]+)?"
)
TYPE_KINDS = {"struct", "class", "enum", "protocol", "typealias", "actor"}
OPENER = re.compile(
    r"\b(struct|class|enum|protocol|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)(?:<[^>{]*>)?\s*(?::\s*([^{]*))?"
)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CASE = re.compile(r"^\s*(?:indirect\s+)?case\s+\w")


def code_only(text, strings=False):
    """The text with comments removed and string literals emptied (kept with `strings`), newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(text[i:j] if strings else '""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1] if strings else '""')
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def words(path):
    # Strings keep their words here: an interpolation may name a declaration.
    return set(WORD.findall(code_only(path.read_text(encoding="utf-8"), strings=True)))


class Decl:
    def __init__(self, path, line, kind, name, parents, signature, conforms):
        self.path, self.line, self.kind, self.name = path, line, kind, name.strip("`") if name else ""
        self.parents, self.signature, self.keep = parents, signature, True
        # The protocols the enclosing type or extension names: a member may witness their requirements.
        self.conforms = conforms
        self.names = [self.name]


def declarations(path, text):
    """Each `package` declaration of a file (`text`: its code_only) with its enclosing type names and
    signature words."""
    code = text.split("\n")
    stack, pending, depth, found, owner = [], None, 0, [], None
    for number, line in enumerate(code):
        match = DECL.match(line)
        if match:
            signature, balance, k = [], 0, number
            while k < len(code) and k < number + 12:
                part = code[k].split("{")[0] if k > number or "{" in code[k] else code[k]
                signature.append(part)
                balance += code[k].count("(") - code[k].count(")")
                if balance <= 0 and ("{" in code[k] or not code[k].rstrip().endswith((",", "(", "->"))):
                    nxt = code[k + 1].strip() if k + 1 < len(code) else ""
                    if not nxt.startswith(("->", "where", "throws", "async", ")")):
                        break
                k += 1
            parents = [entry[1] for entry in stack]
            conforms = stack[-1][2] if stack else set()
            found.append(Decl(path, number, match["kind"], match["name"], parents,
                              set(WORD.findall(" ".join(signature))), conforms))
            if match["kind"] in {"let", "var"}:
                found[-1].names += re.findall(r",\s*(\w+)\s*[:=]", line)
            owner = found[-1] if match["kind"] in TYPE_KINDS - {"typealias"} else None
        elif CASE.match(line) and stack and stack[-1][3] is not None:
            # An enum's cases are part of its signature: their payloads' types go where it goes.
            stack[-1][3].signature |= set(WORD.findall(line))
        opener = OPENER.search(line)
        if opener:
            listed = (opener.group(3) or "").split(" where ")[0]
            pending = (opener.group(2).split(".")[-1], set(WORD.findall(listed)), owner)
            owner = None
        for ch in line:
            if ch == "{":
                depth += 1
                if pending:
                    stack.append((depth, *pending))
                    pending = None
            elif ch == "}":
                if stack and stack[-1][0] == depth:
                    stack.pop()
                depth -= 1
        if pending and line.rstrip().endswith("}"):
            pending = None
    return found


def analyse():
    targets = sorted(p for p in SOURCES.iterdir() if p.is_dir() and (p.name.startswith("Gallery") or p.name == "galleryssg"))
    files = {t.name: sorted(t.rglob("*.swift")) for t in targets}
    vocab = {t: set().union(*(words(f) for f in fs)) if fs else set() for t, fs in files.items()}
    extra = set()
    for folder in OUTSIDE_EXTRA:
        for f in folder.rglob("*.swift"):
            extra |= words(f)
    result = {}
    for target, fs in files.items():
        outside = set(extra)
        for other, v in vocab.items():
            if other != target:
                outside |= v
        codes = {f: code_only(f.read_text(encoding="utf-8")) for f in fs}
        decls = [d for f in fs for d in declarations(f, codes[f])]
        # Requirement names of this target's protocols: their witnesses keep the protocol's access.
        requirements = set()
        for text in codes.values():
            for m in re.finditer(r"\bprotocol\s+\w+[^{]*\{(?P<body>[^}]*)\}", text):
                requirements |= set(re.findall(r"\b(?:func|var|let|typealias|associatedtype)\s+(\w+)", m["body"]))
        types = {}
        for d in decls:
            d.keep = False
            if d.kind in TYPE_KINDS:
                types.setdefault(d.name, []).append(d)

        def parents_kept(d):
            return all(any(t.keep for t in types[p]) for p in d.parents if p in types)

        def seed(d):
            if d.kind in TYPE_KINDS:
                return d.name in outside
            if d.kind in {"func", "var", "let"} and WORD.fullmatch(d.name or "-"):
                # `package static let a = 1, b = 2` declares two names; each may be used outside.
                named = any(n in outside or n in requirements or n in STANDARD for n in d.names)
                # A witness of another module's protocol (a Mustache parent's `child`, GRDB's columns).
                named = named or bool(d.conforms - KNOWN - set(types))
                return named and parents_kept(d)
            return parents_kept(d)  # init, subscript, extension, operators

        # Only ever adds `keep`, so it ends: seeds, then what a kept declaration's signature names,
        # then the types enclosing a kept type.
        changed = True
        while changed:
            changed = False
            for d in decls:
                if not d.keep and seed(d):
                    d.keep = changed = True
                if not d.keep:
                    continue
                for word in d.signature | set(d.parents if d.kind in TYPE_KINDS else []):
                    for t in types.get(word, []):
                        if not t.keep:
                            t.keep = changed = True
        result[target] = decls
    return result


def narrow(decls):
    by_file = {}
    for d in decls:
        if not d.keep:
            by_file.setdefault(d.path, []).append(d.line)
    for path, lines in by_file.items():
        text = path.read_text(encoding="utf-8").split("\n")
        for n in lines:
            text[n] = re.sub(r"\bpackage ", "", text[n], count=1)
        path.write_text("\n".join(text), encoding="utf-8")


def main(argv):
    result = analyse()
    if "--count" in argv:
        for target, decls in result.items():
            kept = sum(d.keep for d in decls)
            print(f"{target}: {len(decls)} package declarations, {kept} kept, {len(decls) - kept} no other target names")
        return 0
    loose = [d for decls in result.values() for d in decls if not d.keep]
    if "--apply" in argv:
        narrow(loose)
        print(f"narrowed {len(loose)} declarations to internal")
        return 0
    for d in loose:
        print(f"{d.path.relative_to(ROOT)}:{d.line + 1}: {d.kind} {d.name}")
    return 1 if loose else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
