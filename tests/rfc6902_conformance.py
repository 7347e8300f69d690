#!/usr/bin/python3
"""RFC 6902 conformance of `anvilrt patch` against a second, independent implementation.

For each case, the same patch is applied two ways:
  * `anvilrt patch FILE PATCH -o A`;
  * Debian's python3-jsonpatch on `anvilrt dump --full FILE`, then `anvilrt build` of the result -o B;
and the outcomes must agree: the same exit status, the same bytes when both succeed, and, where
jsonpatch accepts but `build` refuses the result, `patch` refuses with build's reason. The one rule of
anvilrt's document that RFC 6902 does not state is modelled here as FORMAT.md and patch/patch.hpp
state it: after each operation an object's key follows its id.

Edits outside the objects' JSON (spans, size, format, removing an object) are refused by anvilrt's
patch language itself; for those only the exit status is compared.

usage: rfc6902_conformance.py ANVILRT CORPUS_DIR
"""

import atexit
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import jsonpatch
    import jsonpointer
except ImportError:
    sys.exit("rfc6902_conformance: python3-jsonpatch is missing (apt-get install python3-jsonpatch; ./dev installs "
             "it): this test cannot run without it")

ANVILRT, CORPUS = sys.argv[1], sys.argv[2]
# A fresh folder, in memory where the machine has one: every output is written atomically, with fsync.
WORK = tempfile.mkdtemp(prefix="anvilrt-rfc6902-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
atexit.register(shutil.rmtree, WORK, True)
failures = []
counts = {"cases": 0, "accepted": 0, "test failed": 0, "refused": 0, "reasons compared": 0}


def run(args):
    return subprocess.run([ANVILRT] + args, capture_output=True, text=True)


def game_of(path):
    return "sws" if "/sws/" in path or os.path.basename(path).startswith("sws") else "ac2"


_dumps = {}


def dump(path):
    if path not in _dumps:
        r = run(["dump", path, "--full", "--game", game_of(path)])
        if r.returncode != 0:
            sys.exit("rfc6902_conformance: cannot dump %s: %s" % (path, r.stderr))
        _dumps[path] = r.stdout
    return json.loads(_dumps[path])


def follow_ids(doc, order, width):
    """Re-keys doc["objects"] after an operation: an object's key is its id (when its "id" reads as one),
    "<id>@<offset>" when an earlier object has the same id. `order` lists [key, offset, id] per object
    in file order and is updated."""
    objects = doc.get("objects")
    if not isinstance(objects, dict):
        return
    pattern = re.compile(r"0x[0-9a-fA-F]{%d}\Z" % (2 * width))
    values = []
    for entry in order:
        value = objects.get(entry[0]) if entry[0] is not None else None
        if isinstance(value, dict) and isinstance(value.get("id"), str) and pattern.match(value["id"]):
            entry[2] = value["id"].lower()
        values.append(value)
    seen, renamed = set(), {}
    for entry, value in zip(order, values):
        key = entry[2] if entry[2] not in seen else "%s@%d" % (entry[2], entry[1])
        seen.add(entry[2])
        if entry[0] is None or entry[0] not in objects:
            entry[0] = None  # removed by the patch
            continue
        renamed[entry[0]] = key
        entry[0] = key
    rebuilt = {}
    for entry, value in zip(order, values):
        if entry[0] is not None:
            rebuilt[entry[0]] = value
    for key, value in objects.items():  # members a patch added
        if key not in renamed and key not in rebuilt:
            rebuilt[key] = value
    doc["objects"] = rebuilt
    for span in doc.get("spans", []) if isinstance(doc.get("spans"), list) else []:
        if isinstance(span, dict) and span.get("object") in renamed:
            span["object"] = renamed[span["object"]]


def with_jsonpatch(path, ops):
    """(status, bytes or reason) of jsonpatch on the dump, then build."""
    doc = dump(path)
    width = 8 if game_of(path) == "ac2" else 4
    order = [[k, v["offset"], k.split("@")[0]] for k, v in doc["objects"].items()]
    try:
        for op in ops:
            # FORMAT.md section 6: a pointer to nothing is bad input (exit 2), for a `test` too, where
            # jsonpatch reports a failed test.
            if op.get("op") == "test":
                jsonpointer.resolve_pointer(doc, op["path"])
            doc = jsonpatch.apply_patch(doc, [op])
            follow_ids(doc, order, width)
    except jsonpatch.JsonPatchTestFailed as e:
        return 1, "jsonpatch: %s" % e
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError, KeyError, IndexError) as e:
        return 2, "jsonpatch: %s" % e
    fd, dump_path = tempfile.mkstemp(suffix=".json", dir=WORK)
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f)
    out = dump_path + ".bin"
    r = run(["build", dump_path, "-o", out])
    if r.returncode != 0:
        prefix = "anvilrt: %s: " % dump_path
        return r.returncode, r.stderr.strip()[len(prefix):] if r.stderr.startswith(prefix) else r.stderr.strip()
    with open(out, "rb") as f:
        return 0, f.read()


def with_anvilrt(path, ops):
    fd, patch_path = tempfile.mkstemp(suffix=".json", dir=WORK)
    with os.fdopen(fd, "w") as f:
        json.dump(ops, f)
    out = patch_path + ".bin"
    r = run(["patch", path, patch_path, "-o", out, "--game", game_of(path)])
    if r.returncode != 0:
        reason = r.stderr.strip()
        prefix = "anvilrt: %s: " % patch_path
        if reason.startswith(prefix):
            reason = reason[len(prefix):]
        # "op N (PATH): reason": the reason about PATH itself leaves PATH out (it is named once), which
        # build's reason names: put it back so that the two compare.
        m = re.match(r"^op \d+ \(([^)]*)\): ", reason)
        if m:
            reason = reason[m.end():]
            if not reason.startswith("/"):
                reason = "%s: %s" % (m.group(1), reason) if m.group(1).startswith("/objects/") else reason
        return r.returncode, reason
    with open(out, "rb") as f:
        return 0, f.read()


def inside_objects(ops):
    """Whether every operation edits only fields of objects (where `patch` and `build` share their rules)."""
    for op in ops:
        for member in ("path", "from") if op["op"] in ("move",) else ("path",):
            if op["op"] == "test":
                continue
            segments = op[member].split("/")
            if len(segments) < 4 or segments[1] != "objects":
                return False
    return True


def check(name, path, ops, expect=None):
    counts["cases"] += 1
    a_status, a = with_anvilrt(path, ops)
    b_status, b = with_jsonpatch(path, ops)
    where = "%s (%s): %s" % (name, os.path.basename(path), json.dumps(ops)[:300])
    if expect is not None and a_status != expect:
        failures.append("%s\n  expected exit %d, anvilrt patch gave %d: %s" % (where, expect, a_status, a))
    if a_status != b_status:
        failures.append("%s\n  anvilrt patch exit %d (%s)\n  jsonpatch + build exit %d (%s)" %
                        (where, a_status, a if a_status else "", b_status, b if b_status else ""))
        return
    if a_status == 0:
        counts["accepted"] += 1
        if a != b:
            failures.append("%s\n  both accept, but the bytes differ" % where)
    elif a_status == 1:
        counts["test failed"] += 1
    else:
        counts["refused"] += 1
        if inside_objects(ops) and not b.startswith("jsonpatch: "):
            counts["reasons compared"] += 1
            if a != b:
                failures.append("%s\n  anvilrt patch: %s\n  build:         %s" % (where, a, b))


def corpus(relative):
    return os.path.join(CORPUS, relative)


# --- hand-written cases: each exercises one rule, with the outcome anvilrt must give ---

SLOTS = corpus("ac2/lod_selector_slots.bin")
K = "/objects/0x00000000000004d2"
S = K + "/instance/slots/"
MAT = S + "1/materials/"
EDGES = corpus("ac2/float_edges.bin")
M = K + "/instance/instances/0/"
BACK = corpus("ac2/back_to_back.bin")
DIRECT = corpus("ac2/direct_mesh.bin")
LODS = corpus("sws/lod_selector.bin")
UNKNOWN = corpus("ac2/unknown_instance.bin")

check("slot reorder by move", SLOTS, [{"op": "move", "from": S + "0", "path": S + "4"}], 0)
check("slot reorder back", SLOTS, [{"op": "move", "from": S + "4", "path": S + "0"}], 0)
check("slot reorder by copy and remove", SLOTS, [{"op": "copy", "from": S + "1", "path": S + "-"},
                                                 {"op": "remove", "path": S + "1"}], 0)
check("slot swap with a null one", SLOTS, [{"op": "move", "from": S + "1", "path": S + "0"}], 0)
check("slot removed", SLOTS, [{"op": "remove", "path": S + "2"}], 2)
check("slot added", SLOTS, [{"op": "add", "path": S + "-", "value": None}], 2)
check("slot null over a mesh", SLOTS, [{"op": "replace", "path": S + "1", "value": None}], 2)
check("material reorder", DIRECT, [{"op": "move", "from": K + "/instance/materials/0",
                                    "path": K + "/instance/materials/2"}], 0)
check("material copy inserted", SLOTS, [{"op": "copy", "from": MAT + "0", "path": MAT + "1"}], 2)  # an add
check("material copy over another", SLOTS, [{"op": "copy", "from": MAT + "0", "path": MAT + "1"},
                                            {"op": "remove", "path": MAT + "2"}], 0)
check("material added", SLOTS, [{"op": "add", "path": MAT + "0", "value": {"id": "0x0000000000000001"}}], 2)
check("test a number written 1.0", EDGES, [{"op": "test", "path": M + "15", "value": 1.0},
                                           {"op": "replace", "path": K + "/active", "value": 3}], 0)
check("test an integer written 1.0", EDGES, [{"op": "test", "path": K + "/active", "value": 1.0},
                                             {"op": "replace", "path": K + "/active", "value": 4}], 0)
check("test -0.0 against 0", EDGES, [{"op": "test", "path": M + "0", "value": 0},
                                     {"op": "replace", "path": M + "0", "value": 0}], 0)
check("test 0.1 as dump prints it", EDGES, [{"op": "test", "path": M + "6", "value": 0.1}], 0)
check("test the f32's exact value", EDGES, [{"op": "test", "path": M + "6", "value": 0.10000000149011612}], 1)
check("test uppercase hex", EDGES, [{"op": "test", "path": K + "/instance/compiled/mesh_hash",
                                     "value": "0x7FF8000000000001"}], 1)
check("test a NaN's string", EDGES, [{"op": "test", "path": M + "2", "value": "f32:0x7fc12345"}], 0)
check("test an object in another member order", EDGES, [{"op": "test", "path": K + "/object",
                                                          "value": {"id": "0x0000000000000000", "tag": [3, 0]}}], 0)
check("test after replace sees the value as written", SLOTS,
      [{"op": "replace", "path": MAT + "1/replacement", "value": "0x00000000000000AB"},
       {"op": "test", "path": MAT + "1/replacement", "value": "0x00000000000000ab"}], 1)
check("replace then test as written", SLOTS,
      [{"op": "replace", "path": MAT + "1/replacement", "value": "0x00000000000000AB"},
       {"op": "test", "path": MAT + "1/replacement", "value": "0x00000000000000AB"}], 0)
check("id replace then the new key", BACK, [
    {"op": "replace", "path": "/objects/0x00000000000004d2/id", "value": "0x0000000000000099"},
    {"op": "replace", "path": "/objects/0x0000000000000099/active", "value": 7}], 0)
check("id replace then the old key", BACK, [
    {"op": "replace", "path": "/objects/0x00000000000004d2/id", "value": "0x0000000000000099"},
    {"op": "replace", "path": "/objects/0x00000000000004d2/active", "value": 7}], 2)
check("a repeated id's key shifts", BACK, [
    {"op": "replace", "path": "/objects/0x00000000000004d5/id", "value": "0x00000000000004d6"},
    {"op": "replace", "path": "/objects/0x00000000000004d5/managed", "value": 9},
    {"op": "test", "path": "/objects/0x00000000000004d6/id", "value": "0x00000000000004d6"}], 0)
check("id copied from another object", BACK, [
    {"op": "copy", "from": "/objects/0x00000000000004d3/id", "path": "/objects/0x00000000000004d5/id"},
    {"op": "replace", "path": "/objects/0x00000000000004d3@656/active", "value": 2}], 0)
check("id in uppercase", BACK, [
    {"op": "replace", "path": "/objects/0x00000000000004d2/id", "value": "0x00000000000004D9"},
    {"op": "test", "path": "/objects/0x00000000000004d9/id", "value": "0x00000000000004D9"}], 0)
check("move between objects", BACK, [{"op": "move", "from": "/objects/0x00000000000004d3/object",
                                      "path": "/objects/0x00000000000004d4/object"}], 2)
check("move between objects, repaired", BACK, [
    {"op": "move", "from": "/objects/0x00000000000004d3/object", "path": "/objects/0x00000000000004d4/object"},
    {"op": "copy", "from": "/objects/0x00000000000004d4/object", "path": "/objects/0x00000000000004d3/object"}], 0)
check("remove then add back", DIRECT, [{"op": "remove", "path": K + "/managed"},
                                       {"op": "add", "path": K + "/managed", "value": 5}], 0)
check("a member removed", DIRECT, [{"op": "remove", "path": K + "/managed"}], 2)
check("an unknown member", DIRECT, [{"op": "add", "path": K + "/nonsense", "value": 1}], 2)
check("out of range", DIRECT, [{"op": "replace", "path": K + "/active", "value": 300}], 2)
check("out of range as a float", DIRECT, [{"op": "replace", "path": K + "/active", "value": 300.0}], 2)
check("not an integer", DIRECT, [{"op": "replace", "path": K + "/active", "value": 1.5}], 2)
check("a string for a number", DIRECT, [{"op": "replace", "path": K + "/active", "value": "1"}], 2)
check("an f32 out of range", DIRECT, [{"op": "replace", "path": M + "0", "value": 1e39}], 2)
check("an f32 written 1", DIRECT, [{"op": "replace", "path": M + "0", "value": 1}], 0)
check("an f32 given as 0.1", DIRECT, [{"op": "replace", "path": M + "1", "value": 0.1}], 0)
check("a short matrix", DIRECT, [{"op": "remove", "path": M + "15"}], 2)
check("a matrix element moved", DIRECT, [{"op": "move", "from": M + "12", "path": M + "0"}], 0)
check("a short tag", DIRECT, [{"op": "remove", "path": K + "/object/tag/1"}], 2)
check("bounds of another size", DIRECT, [{"op": "replace", "path": K + "/instance/bounds", "value": "00"}], 2)
check("offset changed", DIRECT, [{"op": "replace", "path": K + "/offset", "value": 17}], 2)
check("length changed", DIRECT, [{"op": "replace", "path": K + "/length", "value": 1}], 2)
check("offset replaced by itself", DIRECT, [{"op": "replace", "path": K + "/offset", "value": 16}], 0)
check("class changed", DIRECT, [{"op": "replace", "path": K + "/class", "value": "LODSelector"}], 2)
check("instance class changed", DIRECT, [{"op": "replace", "path": K + "/instance/class",
                                          "value": "LODSelectorInstance"}], 2)
check("unknown instance class changed", UNKNOWN, [{"op": "copy", "from": "/objects/0x0000000000000bad/instance/class",
                                                   "path": "/objects/0x0000000000000bad/instance/class"}], None)
check("shader_constants", DIRECT, [{"op": "replace", "path": K + "/instance/shader_constants", "value": 4}], 2)
check("whole object replaced by a number", DIRECT, [{"op": "replace", "path": K, "value": 5}], 2)
check("whole object copied over another", BACK, [{"op": "copy", "from": "/objects/0x00000000000004d5",
                                                  "path": "/objects/0x00000000000004d5@816"}], 2)
check("pointer to nothing", DIRECT, [{"op": "replace", "path": K + "/nothing", "value": 1}], 2)
check("test of nothing", DIRECT, [{"op": "test", "path": K + "/nothing", "value": 1}], 2)
check("array index past the end", DIRECT, [{"op": "add", "path": K + "/instance/materials/9", "value": 1}], 2)
check("move into itself", DIRECT, [{"op": "move", "from": K + "/object", "path": K + "/object/tag/0"}], 2)
check("move onto itself", DIRECT, [{"op": "move", "from": K + "/object", "path": K + "/object"}], 0)
check("sws selector slots reordered", LODS, [{"op": "move", "from": "/objects/0x00001234/slots/0",
                                              "path": "/objects/0x00001234/slots/3"}], 0)
check("sws switch distance", LODS, [{"op": "replace", "path": "/objects/0x00001235/slots/2/switch_distance",
                                     "value": 2000.5}], 0)
check("sws slot from another selector", LODS, [{"op": "copy", "from": "/objects/0x00001234/slots/1",
                                                "path": "/objects/0x00001235/slots/1"},
                                               {"op": "remove", "path": "/objects/0x00001235/slots/2"}], 0)
check("sws slot inserted", LODS, [{"op": "copy", "from": "/objects/0x00001234/slots/1",
                                   "path": "/objects/0x00001235/slots/1"}], 2)
check("sws id then new key", LODS, [
    {"op": "replace", "path": "/objects/0x00001234/id", "value": "0x00001235"},
    {"op": "replace", "path": "/objects/0x00001235@%d/category" % dump(LODS)["objects"]["0x00001235"]["offset"],
     "value": 5},
    {"op": "test", "path": "/objects/0x00001235/category", "value": dump(LODS)["objects"]["0x00001234"]["category"]}],
      0)
check("sws wrong id width", LODS, [{"op": "replace", "path": "/objects/0x00001234/slots/0/object",
                                    "value": "0x0000000000001234"}], 2)
# Outside the objects: refused by the patch language (status only).
check("size", DIRECT, [{"op": "replace", "path": "/size", "value": 1}], 2)
check("format", DIRECT, [{"op": "replace", "path": "/format", "value": "anvilrt/2"}], 2)
check("an object removed", DIRECT, [{"op": "remove", "path": K}], 2)
check("copy from the document", DIRECT, [{"op": "copy", "from": "/size", "path": K + "/tail/display_order"}], 0)


# --- generated cases: random operations between the fields of every corpus file and a generated one ---

def leaves(value, pointer, out):
    if isinstance(value, dict):
        for k, v in value.items():
            leaves(v, pointer + "/" + k.replace("~", "~0").replace("/", "~1"), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            leaves(v, "%s/%d" % (pointer, i), out)
    out.append((pointer, value))


def random_cases(path, rng, n):
    doc = dump(path)
    spots = []
    for key, obj in doc["objects"].items():
        leaves(obj, "/objects/" + key, spots)
    spots = [s for s in spots if s[0].count("/") > 2]
    if not spots:
        return
    for i in range(n):
        (a, va), (b, vb) = rng.choice(spots), rng.choice(spots)
        kind = rng.choice(["replace", "copy", "move", "test", "test-other", "number", "remove-add"])
        if kind == "replace":
            ops = [{"op": "replace", "path": b, "value": va}]
        elif kind == "copy":
            ops = [{"op": "copy", "from": a, "path": b}]
        elif kind == "move":
            ops = [{"op": "move", "from": a, "path": b}]
        elif kind == "test":
            ops = [{"op": "test", "path": a, "value": va}, {"op": "copy", "from": a, "path": b}]
        elif kind == "test-other":
            ops = [{"op": "test", "path": a, "value": vb}]
        elif kind == "number":
            value = rng.choice([0, 1, 1.0, -0.0, 255, 256, 0.1, 2.5e38, 1e39, 4294967295, 4294967296, -1])
            ops = [{"op": "replace", "path": a, "value": value}]
        else:
            ops = [{"op": "remove", "path": a}, {"op": "add", "path": b, "value": va}]
        check("random %s %d" % (kind, i), path, ops)


rng = random.Random(6902)
generated = []
for game in ("ac2", "sws"):
    out = os.path.join(WORK, "%s_gen.bin" % game)
    r = run(["gen", "--game", game, "--visuals", "6", "--seed", "12", "-o", out])
    if r.returncode != 0:
        sys.exit("rfc6902_conformance: gen failed: " + r.stderr)
    generated.append(out)
for path in sorted(corpus("ac2/" + f) for f in os.listdir(corpus("ac2")) if f.endswith(".bin")) + \
        sorted(corpus("sws/" + f) for f in os.listdir(corpus("sws")) if f.endswith(".bin")) + generated:
    random_cases(path, rng, 20)

print("rfc6902_conformance: %(cases)d cases: %(accepted)d accepted by both with the same bytes, "
      "%(test failed)d failed tests, %(refused)d refused by both (%(reasons compared)d with build's reason)" % counts)
if failures:
    print("%d disagreements:" % len(failures))
    for f in failures:
        print(f)
    sys.exit(1)
if counts["accepted"] < 50 or counts["reasons compared"] < 50 or counts["test failed"] < 5:
    sys.exit("rfc6902_conformance: too few cases of some outcome to mean anything")
