#!/usr/bin/python3
"""The ImHex pattern description against anvilrt's own reading.

ImHex is not packaged for Debian 12, so this is the check that can be made here: a parser of the part of
ImHex's pattern language that `anvilrt schema --hexpat` writes (pragmas, imports, a global variable,
structs of typed fields and arrays, if/else, std::assert, std::error, expressions over earlier fields,
`$` and std::mem::size()), which refuses anything outside that grammar, and an interpreter of it that
reads every object of each level file (offset and length from `anvilrt dump --full`) and compares every
field with the dump. `--self-test` checks that the parser refuses malformed patterns.

usage: hexpat_check.py ANVILRT WORK_DIR LEVEL_FILE...  |  hexpat_check.py --self-test
"""

import json
import os
import re
import struct
import subprocess
import sys

from dump_compare import Mismatch, compare

SCALARS = {"u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q", "s8": "<b", "s16": "<h", "s32": "<i",
           "s64": "<q", "float": "<f"}
TOKEN = re.compile(r"""\s+|//[^\n]*|(?P<tok>"[^"\\\n]*"|0x[0-9a-fA-F]+|\d+|[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*
                     |==|\|\||&&|<=|>=|\#|[\[\](){};,<>=$+\-*/.])""", re.X)


class PatternError(Exception):
    pass


def tokenize(text):
    tokens, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            line = text.count("\n", 0, pos) + 1
            raise PatternError(f"line {line}: unexpected character {text[pos]!r}")
        if m.group("tok"):
            tokens.append((m.group("tok"), text.count("\n", 0, pos) + 1))
        pos = m.end()
    return tokens


class Parser:
    """Recursive descent over the tokens; builds a small tree of tuples."""

    def __init__(self, text):
        self.t = tokenize(text)
        self.i = 0
        self.types = {}
        self.globals = []

    def peek(self, k=0):
        return self.t[self.i + k][0] if self.i + k < len(self.t) else None

    def take(self, want=None):
        if self.i >= len(self.t):
            raise PatternError(f"unexpected end, expected {want or 'more'}")
        tok, line = self.t[self.i]
        if want is not None and tok != want:
            raise PatternError(f"line {line}: expected {want!r}, found {tok!r}")
        self.i += 1
        return tok

    def ident(self):
        tok = self.take()
        if not re.fullmatch(r"[A-Za-z_]\w*", tok):
            raise PatternError(f"line {self.t[self.i - 1][1]}: expected a name, found {tok!r}")
        return tok

    def program(self):
        while self.peek() is not None:
            tok = self.peek()
            if tok == "#":
                self.take("#")
                if self.take() != "pragma" or self.take() != "endian" or self.take() != "little":
                    raise PatternError("only '#pragma endian little' is expected")
            elif tok == "import":
                self.take()
                name = self.ident()
                while self.peek() == ".":
                    self.take(".")
                    name += "." + self.ident()
                self.take(";")
            elif tok == "struct":
                self.take()
                name = self.ident()
                if name in self.types:
                    raise PatternError(f"struct {name} defined twice")
                self.take("{")
                body = []
                while self.peek() != "}":
                    body.append(self.statement())
                self.take("}")
                self.take(";")
                self.types[name] = body
            else:  # a global variable with a value: TYPE NAME = EXPR;
                typ = self.ident()
                name = self.ident()
                self.take("=")
                self.globals.append((typ, name, self.expr()))
                self.take(";")
        return self

    def statement(self):
        tok = self.peek()
        if tok == "if":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            then = self.statement()
            other = None
            if self.peek() == "else":
                self.take()
                other = self.statement()
            return ("if", cond, then, other)
        if tok in ("std::assert", "std::error"):
            self.take()
            self.take("(")
            args = [self.expr()]
            while self.peek() == ",":
                self.take(",")
                args.append(self.expr())
            self.take(")")
            self.take(";")
            return (tok, args)
        typ = self.ident()
        if typ not in SCALARS and typ not in self.types:
            raise PatternError(f"line {self.t[self.i - 1][1]}: unknown type {typ!r} (types are defined before use)")
        name = self.ident()
        size = None
        if self.peek() == "[":
            self.take("[")
            size = self.expr()
            self.take("]")
        self.take(";")
        return ("field", typ, name, size)

    # expr := or; or := and ('||' and)*; and := cmp ('&&' cmp)*; cmp := sum (op sum)?; sum := prod (+|- prod)*
    def expr(self):
        left = self.and_expr()
        while self.peek() == "||":
            self.take()
            left = ("||", left, self.and_expr())
        return left

    def and_expr(self):
        left = self.cmp()
        while self.peek() == "&&":
            self.take()
            left = ("&&", left, self.cmp())
        return left

    def cmp(self):
        left = self.sum()
        if self.peek() in ("==", "<", "<=", ">", ">="):
            op = self.take()
            left = (op, left, self.sum())
        return left

    def sum(self):
        left = self.prod()
        while self.peek() in ("+", "-"):
            op = self.take()
            left = (op, left, self.prod())
        return left

    def prod(self):
        left = self.atom()
        while self.peek() in ("*", "/"):
            op = self.take()
            left = (op, left, self.atom())
        return left

    def atom(self):
        tok = self.take()
        if tok == "(":
            e = self.expr()
            self.take(")")
            return e
        if tok == "$":
            return ("pos",)
        if tok.startswith('"'):
            return ("str", tok[1:-1])
        if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", tok):
            return ("num", int(tok, 0))
        if tok == "std::mem::size":
            self.take("(")
            self.take(")")
            return ("size",)
        if re.fullmatch(r"[A-Za-z_]\w*", tok):
            return ("name", tok)
        raise PatternError(f"line {self.t[self.i - 1][1]}: unexpected {tok!r} in an expression")


class Struct:
    """A struct as read: fields as attributes; the class name is the CamelCase type name."""


def struct_class(name, cache={}):
    if name not in cache:
        cache[name] = type("".join(p.capitalize() for p in name.split("_")), (Struct,), {})
    return cache[name]


class Interpreter:
    def __init__(self, program, data):
        self.p = program
        self.data = data
        self.pos = 0
        self.globals = {"_size": len(data)}
        for _typ, name, e in program.globals:
            self.globals[name] = self.eval(e, {})

    def eval(self, e, scope):
        kind = e[0]
        if kind == "num":
            return e[1]
        if kind == "str":
            return e[1]
        if kind == "pos":
            return self.pos
        if kind == "size":
            return len(self.data)
        if kind == "name":
            if e[1] in scope:
                return scope[e[1]]
            if e[1] in self.globals:
                return self.globals[e[1]]
            raise PatternError(f"unknown name {e[1]!r}")
        a, b = self.eval(e[1], scope), self.eval(e[2], scope)
        return {"==": lambda: a == b, "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
                ">=": lambda: a >= b, "||": lambda: bool(a or b), "&&": lambda: bool(a and b), "+": lambda: a + b,
                "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b}[kind]()

    def scalar(self, typ):
        fmt = SCALARS[typ]
        n = struct.calcsize(fmt)
        if self.pos + n > len(self.data):
            raise PatternError(f"{typ} at {self.pos}: past the end of the data")
        v = struct.unpack_from(fmt, self.data, self.pos)[0]
        self.pos += n
        return v

    def value(self, typ):
        return self.scalar(typ) if typ in SCALARS else self.read_struct(typ)

    def read_struct(self, name):
        obj = struct_class(name)()
        scope = {}
        for st in self.p.types[name]:
            self.run(st, scope, obj)
        return obj

    def run(self, st, scope, obj):
        kind = st[0]
        if kind == "field":
            _, typ, name, size = st
            if size is None:
                v = self.value(typ)
            else:
                n = self.eval(size, scope)
                if n < 0:
                    raise PatternError(f"{name}: negative array size {n}")
                if typ == "u8":
                    if self.pos + n > len(self.data):
                        raise PatternError(f"{name}: {n} bytes past the end of the data")
                    v = bytes(self.data[self.pos:self.pos + n])
                    self.pos += n
                else:
                    v = [self.value(typ) for _ in range(n)]
            scope[name] = v
            setattr(obj, name, v)
        elif kind == "if":
            if self.eval(st[1], scope):
                self.run(st[2], scope, obj)
            elif st[3] is not None:
                self.run(st[3], scope, obj)
        elif kind == "std::assert":
            if not self.eval(st[1][0], scope):
                raise PatternError(f"assertion failed: {self.eval(st[1][1], scope)}")
        elif kind == "std::error":
            raise PatternError(f"error: {self.eval(st[1][0], scope)}")


def self_test():
    good = "#pragma endian little\nimport std.mem;\nstruct a { u8 x; if (x == 0) u8 y[2]; };\n"
    Parser(good).program()
    bad = [
        "struct a { u8 x };",                     # missing ';'
        "struct a { b x; };",                     # type used before it is defined
        "struct a { u8 x[; };",                   # broken array size
        "struct a { u8 x; }; struct a { u8 y; };",  # defined twice
        "#pragma endian big\n",                   # not what anvilrt writes
        "struct a { if x == 0) u8 y; };",         # missing '('
        "struct a { u8 x; std::assert(x ==, \"m\"); };",
        "struct a { u8 x @ 3; };",
    ]
    for text in bad:
        try:
            Parser(text).program()
        except PatternError:
            continue
        print(f"hexpat_check: the parser accepted a malformed pattern: {text!r}", file=sys.stderr)
        sys.exit(1)
    # The interpreter's checks: an assert that fails, and a read past the end.
    p = Parser("struct a { u8 x; std::assert(x == 0x03, \"x must be 03\"); u8 y[2]; };").program()
    for data in (b"\x04\x00\x00", b"\x03\x00"):
        try:
            Interpreter(p, data).read_struct("a")
        except PatternError:
            continue
        print(f"hexpat_check: the interpreter read {data!r} without an error", file=sys.stderr)
        sys.exit(1)
    print(f"hexpat_check: self-test passed ({len(bad)} malformed patterns refused)")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    anvilrt, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "anvilrt.hexpat")
    subprocess.run([anvilrt, "schema", "--hexpat", "-o", path], check=True)
    with open(path) as f:
        program = Parser(f.read()).program()
    types = {("ac2", "Visual"): "ac2_visual", ("sws", "LODSelector"): "sws_lod_selector",
             ("sws", "Visual"): "sws_visual"}
    objects = fields = 0
    for level in sys.argv[3:]:
        dump = json.loads(subprocess.run([anvilrt, "dump", "--full", level], check=True, capture_output=True).stdout)
        with open(level, "rb") as f:
            data = f.read()
        for key, obj in dump["objects"].items():
            raw = data[obj["offset"]:obj["offset"] + obj["length"]]
            try:
                it = Interpreter(program, raw)
                parsed = it.read_struct(types[(dump["game"], obj["class"])])
                if it.pos != len(raw):
                    raise Mismatch(f"the pattern read {it.pos} of the object's {len(raw)} bytes")
                fields += compare(obj, parsed, f"{level}:/{key}")
            except (Mismatch, PatternError) as e:
                sys.exit(f"hexpat_check: {level}: object {key}: {e}")
            objects += 1
    if objects == 0:
        sys.exit("hexpat_check: no object was compared")
    print(f"hexpat_check: {objects} objects in {len(sys.argv) - 3} files, {fields} fields, all equal to anvilrt dump")


if __name__ == "__main__":
    main()
