#!/usr/bin/python3
"""The ImHex pattern description against anvilrt's own reading.

ImHex is not packaged for Debian 12, so this is the check that can be made here: a parser of the part of
ImHex's pattern language that `anvilrt schema --hexpat` writes, which refuses anything outside that
grammar, and an interpreter of it. The part: `#pragma endian little` and the limit pragmas, imports,
global variables, forward declarations (`using NAME;`), structs of typed fields and arrays (sized by an
expression or `[while(...)]`), fields placed with `@`, local variables and assignments, if/else with
`{ }` blocks, std::assert, std::error, and expressions over earlier fields (`.` members, `[i]` elements,
`parent`, `$`, `!`, `!=`, `?:`, std::mem::size(), std::mem::read_unsigned(), std::core::array_index()). The
interpreter is strict where ImHex may be lenient: a type is known only after its definition or a `using`,
a name only in its own struct or among the globals, and std::core::array_index() only inside an array
element before any inner array.

Level files: every object (offset and length from `anvilrt dump --full`) is read with its type and
compared field by field with the dump. `.forge` archives: `forge_archive` placed at 0 reads the whole
archive, compared with `anvilrt ls --json`, and `forge_data_file` reads each data file `anvilrt extract`
writes, compared with `dump` (tests/schema/forge_compare.py, shared with the Kaitai test).
`--self-test` checks that the parser refuses malformed patterns and the interpreter bad data.

usage: hexpat_check.py ANVILRT WORK_DIR FILE...  |  hexpat_check.py --self-test
"""

import json
import os
import re
import struct
import subprocess
import sys

from dump_compare import Mismatch, compare
from forge_compare import compare_forge

SCALARS = {"u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q", "s8": "<b", "s16": "<h", "s32": "<i",
           "s64": "<q", "float": "<f", "char": "<c"}
LOCAL_TYPES = set(SCALARS) | {"bool"}
PRAGMAS = {"array_limit", "pattern_limit", "eval_depth"}  # each with a number; and `endian little`
FUNCTIONS = {"std::mem::size": 0, "std::mem::read_unsigned": 3, "std::core::array_index": 0}
CONSTANTS = {"std::mem::Endian::Little": "little", "true": True, "false": False}
TOKEN = re.compile(r"""\s+|//[^\n]*|(?P<tok>"[^"\\\n]*"|0x[0-9a-fA-F]+|\d+|[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*
                     |==|!=|\|\||&&|<=|>=|\#|[\[\](){};,<>=$+\-*/.!@?:])""", re.X)
NAME = re.compile(r"[A-Za-z_]\w*")


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
        self.declared = set()  # forward declarations not yet defined
        self.globals = []
        self.global_names = set()
        self.locals = None  # the local variables of the struct being parsed

    def line(self):
        return self.t[min(self.i, len(self.t) - 1)][1] if self.t else 0

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
        if not NAME.fullmatch(tok) or tok in ("parent", "if", "else", "struct", "using", "while"):
            raise PatternError(f"line {self.t[self.i - 1][1]}: expected a name, found {tok!r}")
        return tok

    def program(self):
        while self.peek() is not None:
            tok = self.peek()
            if tok == "#":
                self.take("#")
                if self.take() != "pragma":
                    raise PatternError(f"line {self.line()}: only #pragma is expected")
                key = self.take()
                if key == "endian":
                    if self.take() != "little":
                        raise PatternError("only '#pragma endian little' is expected")
                elif key in PRAGMAS:
                    if not re.fullmatch(r"0x[0-9a-fA-F]+|\d+", self.take()):
                        raise PatternError(f"line {self.line()}: #pragma {key} takes a number")
                else:
                    raise PatternError(f"line {self.line()}: unknown pragma {key!r}")
            elif tok == "import":
                self.take()
                self.ident()
                while self.peek() == ".":
                    self.take(".")
                    self.ident()
                self.take(";")
            elif tok == "using":  # a forward declaration
                self.take()
                name = self.ident()
                if name in self.types or name in self.declared:
                    raise PatternError(f"line {self.line()}: {name} declared twice")
                self.take(";")
                self.declared.add(name)
            elif tok == "struct":
                self.take()
                name = self.ident()
                if name in self.types:
                    raise PatternError(f"struct {name} defined twice")
                self.take("{")
                self.locals = set()
                body = []
                while self.peek() != "}":
                    body.append(self.statement())
                self.take("}")
                self.take(";")
                self.locals = None
                self.types[name] = body
                self.declared.discard(name)
            else:  # a global variable with a value: TYPE NAME = EXPR;
                typ = self.ident()
                if typ not in LOCAL_TYPES:
                    raise PatternError(f"line {self.line()}: a global of type {typ!r}")
                name = self.ident()
                self.take("=")
                self.globals.append((typ, name, self.expr()))
                self.global_names.add(name)
                self.take(";")
        if self.declared:
            raise PatternError(f"declared but never defined: {sorted(self.declared)}")
        return self

    def block(self):
        """The body of an if or else: one statement, or `{ statements }`."""
        if self.peek() != "{":
            return [self.statement()]
        self.take("{")
        body = []
        while self.peek() != "}":
            body.append(self.statement())
        self.take("}")
        return body

    def statement(self):
        tok = self.peek()
        if tok == "if":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            then = self.block()
            other = None
            if self.peek() == "else":
                self.take()
                other = self.block()
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
            if len(args) != (2 if tok == "std::assert" else 1):
                raise PatternError(f"line {self.line()}: {tok} takes {2 if tok == 'std::assert' else 1} arguments")
            return (tok, args)
        if self.peek(1) == "=":  # an assignment to a global or a local variable
            name = self.ident()
            if name not in self.global_names and name not in self.locals:
                raise PatternError(f"line {self.line()}: assignment to undeclared {name!r}")
            self.take("=")
            value = self.expr()
            self.take(";")
            return ("assign", name, value)
        typ = self.ident()
        if typ not in SCALARS and typ not in self.types and typ not in self.declared:
            if not (typ == "bool" and self.peek(1) == "="):
                raise PatternError(f"line {self.line()}: unknown type {typ!r} (types are defined before use)")
        name = self.ident()
        if self.peek() == "=":  # a local variable: not a field
            if typ not in LOCAL_TYPES:
                raise PatternError(f"line {self.line()}: a local variable of type {typ!r}")
            self.take("=")
            value = self.expr()
            self.take(";")
            self.locals.add(name)
            return ("local", name, value)
        size = None
        if self.peek() == "[":
            self.take("[")
            if self.peek() == "while":
                self.take()
                self.take("(")
                size = ("while", self.expr())
                self.take(")")
            else:
                size = ("count", self.expr())
            self.take("]")
        at = None
        if self.peek() == "@":
            self.take("@")
            at = self.expr()
        self.take(";")
        return ("field", typ, name, size, at)

    # expr := or; or := and ('||' and)*; and := cmp ('&&' cmp)*; cmp := sum (op sum)?; sum := prod (+|- prod)*;
    # prod := unary (*|/ unary)*; unary := ('!' | '-') unary | postfix; postfix := atom ('.' name | '[' expr ']')*
    def expr(self):
        condition = self.or_expr()
        if self.peek() != "?":
            return condition
        self.take()  # C's conditional: COND ? A : B, right-associative
        then = self.expr()
        self.take(":")
        return ("?", condition, then, self.expr())

    def or_expr(self):
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
        if self.peek() in ("==", "!=", "<", "<=", ">", ">="):
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
        left = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            left = (op, left, self.unary())
        return left

    def unary(self):
        if self.peek() in ("!", "-"):
            op = self.take()
            return ("not" if op == "!" else "neg", self.unary())
        return self.postfix()

    def postfix(self):
        e = self.atom()
        while self.peek() in (".", "["):
            if e[0] not in ("name", "parent", "member", "index"):
                raise PatternError(f"line {self.line()}: member access on a value")
            if self.take() == ".":
                e = ("member", e, self.ident())
            else:
                e = ("index", e, self.expr())
                self.take("]")
        return e

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
        if tok in FUNCTIONS:
            self.take("(")
            args = []
            while self.peek() != ")":
                if args:
                    self.take(",")
                args.append(self.expr())
            self.take(")")
            if len(args) != FUNCTIONS[tok]:
                raise PatternError(f"line {self.line()}: {tok} takes {FUNCTIONS[tok]} arguments")
            return ("call", tok, args)
        if tok in CONSTANTS:
            return ("const", CONSTANTS[tok])
        if tok == "parent":
            if self.peek() != ".":
                raise PatternError(f"line {self.line()}: parent without a member")
            return ("parent",)
        if NAME.fullmatch(tok) and tok not in ("if", "else", "struct", "using", "while"):
            return ("name", tok)
        raise PatternError(f"line {self.t[self.i - 1][1]}: unexpected {tok!r} in an expression")


class Struct:
    """A struct as read: fields as attributes; the class name is the CamelCase type name."""


def struct_class(name, cache={}):
    if name not in cache:
        cache[name] = type("".join(p.capitalize() for p in name.split("_")), (Struct,), {})
    return cache[name]


STALE = object()  # an array index overwritten by an inner array (ImHex keeps one current index)


class Interpreter:
    def __init__(self, program, data):
        self.p = program
        self.data = data
        self.pos = 0
        self.frames = []  # (struct, scope) of the structs being read, innermost last
        self.indices = []  # the element index of each array being read, innermost last
        self.globals = {}
        for _typ, name, e in program.globals:
            self.globals[name] = self.eval(e, {})

    def lookup(self, name, scope):
        if name in scope:
            return scope[name]
        if name in self.globals:
            return self.globals[name]
        raise PatternError(f"unknown name {name!r}")

    def eval(self, e, scope):
        kind = e[0]
        if kind in ("num", "str", "const"):
            return e[1]
        if kind == "pos":
            return self.pos
        if kind == "name":
            return self.lookup(e[1], scope)
        if kind == "parent":
            if len(self.frames) < 2:
                raise PatternError("parent outside a nested struct")
            return self.frames[-2][0]
        if kind == "member":
            obj = self.eval(e[1], scope)
            if not isinstance(obj, Struct) or not hasattr(obj, e[2]):
                raise PatternError(f"no member {e[2]!r} in {type(obj).__name__}")
            return getattr(obj, e[2])
        if kind == "index":
            seq, i = self.eval(e[1], scope), self.eval(e[2], scope)
            if not isinstance(seq, (list, bytes)) or not 0 <= i < len(seq):
                raise PatternError(f"index {i} out of range")
            return seq[i]
        if kind == "call":
            return self.call(e[1], [self.eval(a, scope) for a in e[2]])
        if kind == "not":
            return not self.eval(e[1], scope)
        if kind == "?":
            return self.eval(e[2] if self.eval(e[1], scope) else e[3], scope)
        if kind == "neg":
            return -self.eval(e[1], scope)
        a = self.eval(e[1], scope)
        if kind == "&&" and not a:  # ImHex's && and || short-circuit like C's
            return False
        if kind == "||" and a:
            return True
        b = self.eval(e[2], scope)
        return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b, "||": lambda: bool(b), "&&": lambda: bool(b),
                "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b}[kind]()

    def call(self, name, args):
        if name == "std::mem::size":
            return len(self.data)
        if name == "std::mem::read_unsigned":
            address, size, endian = args
            if endian != "little" or size not in (1, 2, 4, 8) or address + size > len(self.data):
                raise PatternError(f"read_unsigned({address}, {size}): past the end of the data or not supported")
            return int.from_bytes(self.data[address:address + size], "little")
        if not self.indices or self.indices[-1] is STALE:
            raise PatternError("std::core::array_index() outside an array element, or after an inner array")
        return self.indices[-1]

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
        self.frames.append((obj, scope))
        for st in self.p.types[name]:
            self.run(st, scope, obj)
        self.frames.pop()
        return obj

    def element(self, typ, i):
        self.indices[-1] = i
        return self.value(typ)

    def array(self, typ, name, size, scope):
        if size[0] == "count":
            n = self.eval(size[1], scope)
            if n < 0:
                raise PatternError(f"{name}: negative array size {n}")
            if typ in ("u8", "char"):  # a byte run
                if self.pos + n > len(self.data):
                    raise PatternError(f"{name}: {n} bytes past the end of the data")
                self.pos += n
                return bytes(self.data[self.pos - n:self.pos])
            if typ in SCALARS:
                return [self.scalar(typ) for _ in range(n)]
            self.indices.append(None)
            items = [self.element(typ, i) for i in range(n)]
        else:  # [while(condition)]: an element while the condition holds before it
            if typ in SCALARS:
                raise PatternError(f"{name}: a while-sized array of {typ} is not written")
            self.indices.append(None)
            items = []
            while self.eval(size[1], scope):
                start = self.pos
                items.append(self.element(typ, len(items)))
                if self.pos == start:
                    raise PatternError(f"{name}: an element of no bytes would repeat forever")
        self.indices.pop()
        if self.indices:
            self.indices[-1] = STALE
        return items

    def run(self, st, scope, obj):
        kind = st[0]
        if kind == "field":
            _, typ, name, size, at = st
            back = None
            if at is not None:  # placed: read there, the cursor stays
                back, self.pos = self.pos, self.eval(at, scope)
                if not 0 <= self.pos <= len(self.data):
                    raise PatternError(f"{name} placed at {self.pos}, outside the data")
            v = self.value(typ) if size is None else self.array(typ, name, size, scope)
            if back is not None:
                self.pos = back
            scope[name] = v
            setattr(obj, name, v)
        elif kind == "local":
            scope[st[1]] = self.eval(st[2], scope)
        elif kind == "assign":
            value = self.eval(st[2], scope)
            if st[1] in scope:
                scope[st[1]] = value
            else:
                self.globals[st[1]] = value
        elif kind == "if":
            for s in (st[2] if self.eval(st[1], scope) else st[3] or []):
                self.run(s, scope, obj)
        elif kind == "std::assert":
            if not self.eval(st[1][0], scope):
                raise PatternError(f"assertion failed: {self.eval(st[1][1], scope)}")
        elif kind == "std::error":
            raise PatternError(f"error: {self.eval(st[1][0], scope)}")

    def place(self, name, at=0):
        """A top-level placement: `name x @ at;`."""
        self.pos = at
        return self.read_struct(name)


# The self-test: patterns of each construct the parser must accept, with data the interpreter must read
# as shown, and malformed patterns and bad data that must be refused.
ACCEPTED = [
    # a conditional size (a data-file entry's pairs: extra > 0 ? 2 * extra : 0)
    ("struct a { u8 n; u8 x[n > 1 ? 2 * n : 0]; u8 m; };", b"\x02\x00\x00\x00\x00\x07", lambda a: a.m == 7),
    ("struct a { u8 n; u8 x[n > 1 ? 2 * n : 0]; u8 m; };", b"\x01\x07", lambda a: a.m == 7),
    # placement with @: the cursor stays
    ("struct a { u8 n; u8 x @ 2; u8 m; };", b"\x01\x02\x03", lambda a: (a.n, a.x, a.m) == (1, 3, 2)),
    # a while-sized array
    ("struct e { u8 v; }; struct a { e xs[while($ < 3)]; };", b"\x01\x02\x03",
     lambda a: [e.v for e in a.xs] == [1, 2, 3]),
    # parent, array elements and std::core::array_index(): a table's bodies sized by its heads
    ("import std.core;\nstruct h { u8 size; }; struct b { u8 data[parent.heads[std::core::array_index()].size]; };"
     "struct a { u8 n; h heads[n]; b bodies[n]; };", b"\x02\x01\x02\xaa\xbb\xcc",
     lambda a: [b.data for b in a.bodies] == [b"\xaa", b"\xbb\xcc"]),
    # a forward declaration and a struct placed inside itself
    ("using n; struct n { u8 next; if (next != 0) n child @ next; };", b"\x02\x00\x00",
     lambda a: a.child.next == 0 and not hasattr(a.child, "child")),
    # a global, a local variable, assignments, std::mem::read_unsigned, `!` and `-`
    ("u64 end = std::mem::size();\nstruct a { bool c = false; if ($ + 2 <= end) c = "
     "std::mem::read_unsigned($, 2, std::mem::Endian::Little) == 0x0201; end = 1; if (!(c != true)) s8 k; "
     "if (k == -1) u8 rest[end - $ + 2]; };", b"\x01\x02\x00",
     lambda a: a.k == 1 and not hasattr(a, "c") and not hasattr(a, "rest")),
    # if/else with blocks, the same name in both forms
    ("struct a { u8 k; if (k == 0) { u8 x; } else { u16 x; u8 y; } };", b"\x01\x02\x00\x03",
     lambda a: (a.x, a.y) == (2, 3)),
    # the limit pragmas and a char array
    ("#pragma endian little\n#pragma array_limit 0x100\n#pragma pattern_limit 4096\n#pragma eval_depth 64\n"
     "struct a { char name[3]; };", b"ab\x00", lambda a: a.name == b"ab\x00"),
]
REFUSED = [
    "struct a { u8 x };",                     # missing ';'
    "struct a { b x; };",                     # type used before it is defined
    "struct a { u8 x[; };",                   # broken array size
    "struct a { u8 x; }; struct a { u8 y; };",  # defined twice
    "#pragma endian big\n",                   # not what anvilrt writes
    "struct a { if x == 0) u8 y; };",         # missing '('
    "struct a { u8 x; std::assert(x ==, \"m\"); };",
    "struct a { u8 x @; };",                  # a placement without an address
    "struct a { u8 x @ 3 };",                 # a placement without ';'
    "struct a { u8 x[while()]; };",           # a while-sized array without a condition
    "struct a { u8 x[while $ < 3]; };",       # ... or its parentheses
    "struct a { a x; };",                     # a struct in itself without a forward declaration
    "using b; struct a { u8 x; };",           # declared, never defined
    "using a; using a; struct a { u8 x; };",  # declared twice
    "struct a { y = 3; };",                   # an assignment to an undeclared name
    "struct a { u8 x = ; };",                 # a local variable without a value
    "struct a { a2 x = 1; };",                # a local variable of no known type
    "struct a { u8 x; if (x == 0) { u8 y; };",  # an unclosed block
    "struct a { u8 x[parent]; };",            # parent without a member
    "struct a { u8 x; u8 y[3 . x]; };",       # a member of a value
    "struct a { u8 x; u8 y[x[0 ]; };",        # an unclosed index
    "struct a { u8 x; u8 y[x != ]; };",       # an operator without its right side
    "struct a { u8 x[std::mem::read_unsigned($, 1)]; };",  # a call with too few arguments
    "struct a { u8 x[std::core::array_index]; };",          # a call without parentheses
    "struct a { u8 x[std::mem::find_sequence(0, 1)]; };",   # a function not in the grammar
    "#pragma array_limit big\n",              # a limit that is no number
    "#pragma once\n",                         # a pragma not written
]
BAD_DATA = [
    ("struct a { u8 x; std::assert(x == 0x03, \"x must be 03\"); u8 y[2]; };", b"\x04\x00\x00"),  # an assert
    ("struct a { u8 x; std::assert(x == 0x03, \"x must be 03\"); u8 y[2]; };", b"\x03\x00"),  # past the end
    ("import std.core;\nstruct a { u8 x[std::core::array_index()]; };", b"\x00"),  # no array
    ("import std.core;\nstruct e { u8 v; }; struct b { e inner[1]; u8 d[std::core::array_index()]; };"
     "struct a { b xs[1]; };", b"\x00\x00"),  # the index after an inner array (ImHex keeps one)
    ("struct z { }; struct a { z xs[while(1)]; };", b"\x00"),  # elements of no bytes, forever
    ("struct a { u8 x @ 10; };", b"\x00\x00"),  # placed outside the data
    ("struct a { u8 x[parent.y]; };", b"\x00"),  # no parent
    ("struct a { u8 x[std::mem::read_unsigned(1, 4, std::mem::Endian::Little)]; };", b"\x00\x00"),  # past the end
    ("struct e { u8 v; }; struct a { u8 n; e xs[n]; u8 y[xs[1].v]; };", b"\x01\x00"),  # an index out of range
    ("struct a { u8 x[y]; };", b"\x00"),  # an unknown name
]


def self_test():
    for text, data, check in ACCEPTED:
        try:
            program = Parser(text).program()
            read = Interpreter(program, data).place("a" if "struct a " in text else "n")
        except PatternError as e:
            sys.exit(f"hexpat_check: the self-test pattern {text!r} failed: {e}")
        if not check(read):
            sys.exit(f"hexpat_check: the self-test pattern {text!r} read {vars(read)!r}")
    for text in REFUSED:
        try:
            Parser(text).program()
        except PatternError:
            continue
        sys.exit(f"hexpat_check: the parser accepted a malformed pattern: {text!r}")
    for text, data in BAD_DATA:
        program = Parser(text).program()
        try:
            Interpreter(program, data).place("a")
        except PatternError:
            continue
        sys.exit(f"hexpat_check: the interpreter read {data!r} with {text!r} without an error")
    print(f"hexpat_check: self-test passed ({len(ACCEPTED)} patterns read, {len(REFUSED)} malformed patterns "
          f"and {len(BAD_DATA)} bad data refused)")


def check_forge(program, anvilrt, path, work):
    """The archive through forge_archive placed at 0, its data files through forge_data_file."""
    def read_data_file(raw, version, layout):
        it = Interpreter(program, raw)
        it.globals.update(archive_version=version, data_layout=layout)  # what a user sets in ImHex
        return it.place("forge_data_file"), it.pos

    def read_archive(data, layout):
        it = Interpreter(program, data)
        it.globals["data_layout"] = layout
        return it.place("forge_archive")
    return compare_forge(anvilrt, path, work, "the pattern", read_archive, read_data_file)


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
    objects = fields = archives = 0
    files = sys.argv[3:]
    for level in [p for p in files if p.endswith(".forge")]:
        try:
            n, f = check_forge(program, anvilrt, level, work)
        except Mismatch as e:
            sys.exit(f"hexpat_check: {e}")
        except PatternError as e:
            sys.exit(f"hexpat_check: {level}: {e}")
        archives += 1
        objects += n
        fields += f
    levels = [p for p in files if not p.endswith(".forge")]
    for level in levels:
        dump = json.loads(subprocess.run([anvilrt, "dump", "--full", level], check=True, capture_output=True).stdout)
        with open(level, "rb") as f:
            data = f.read()
        for key, obj in dump["objects"].items():
            raw = data[obj["offset"]:obj["offset"] + obj["length"]]
            try:
                it = Interpreter(program, raw)
                parsed = it.place(types[(dump["game"], obj["class"])])
                if it.pos != len(raw):
                    raise Mismatch(f"the pattern read {it.pos} of the object's {len(raw)} bytes")
                fields += compare(obj, parsed, f"{level}:/{key}")
            except (Mismatch, PatternError) as e:
                sys.exit(f"hexpat_check: {level}: object {key}: {e}")
            objects += 1
    if objects == 0 or archives == 0:
        sys.exit("hexpat_check: no object or no .forge archive was compared")
    print(f"hexpat_check: {objects} objects and data files in {len(levels)} files and {archives} archives, "
          f"{fields} fields, all equal to anvilrt dump and ls")


if __name__ == "__main__":
    main()
