#!/usr/bin/env python3
"""The round trip a modder makes, with Blender itself (docs/blender.md): `anvilrt export` of a generated
archive whose instances are turned, Debian's Blender run headless on tests/blender/blender_edit.py (imports the scene, moves one
instance, deletes one, duplicates one and moves the copy, exports with the extras), `anvilrt import` of
its output, `anvilrt patch` of the archive with that patch; then, field by field in `anvilrt dump`: the
moved instance moved by what Blender moved it (Blender's z-up world is Anvil's), the deleted one gone, the
copy added where Blender put it, and nothing else changed. Prints how far Blender moved the untouched
instances (its rounding), which the import's tolerance must absorb: it reports one move, one addition and
one removal, or the test fails.

Usage: blender_round_trip.py ANVILRT WORK_DIR. Exit 77 (CTest's SKIP_RETURN_CODE) with the reason when
Blender is missing.
"""
import copy
import json
import math
import os
import pathlib
import shutil
import struct
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
MOVE_BY = (12.5, -3.25, 1.5)   # metres, in Blender's world (z-up: Anvil's x, y, z)
COPY_BY = (0.0, 7.75, -2.0)
CLOSE = 1e-4                   # how near a moved element must come to old + move (f32 of Blender's sums)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"FAILED: {' '.join(map(str, cmd))}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r.stdout


def glb_json(path):
    data = pathlib.Path(path).read_bytes()
    magic, _, _ = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF", path
    length, kind = struct.unpack_from("<I4s", data, 12)
    assert kind == b"JSON", path
    return json.loads(data[20:20 + length])


def mul(a, b):  # column-major 4x4
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]


def local(node):
    if "matrix" in node:
        return node["matrix"]
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    sx, sy, sz = node.get("scale", [1, 1, 1])
    t = node.get("translation", [0, 0, 0])
    rot = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
           2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
           2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    m = [0.0] * 16
    for c, s in enumerate((sx, sy, sz)):
        for r in range(3):
            m[c * 4 + r] = rot[c * 3 + r] * s
    m[12:15] = t
    m[15] = 1.0
    return m


def instance_worlds(doc):
    """{(key, datafile, index): [world matrices (glTF frame)]} of the nodes whose extras name an instance."""
    nodes = doc["nodes"]
    out = {}
    ident = [1.0 if i % 5 == 0 else 0.0 for i in range(16)]
    stack = [(n, ident) for n in doc["scenes"][doc.get("scene", 0)]["nodes"]]
    while stack:
        n, parent = stack.pop()
        node = nodes[n]
        world = mul(parent, local(node))
        stack.extend((c, world) for c in node.get("children", []))
        extras = node.get("extras", {})
        if "key" in extras and "index" in extras:
            out.setdefault((extras["key"], extras.get("datafile", ""), int(extras["index"])), []).append(world)
    return out


def deviation(a, b):
    return max(abs(x - y) / max(1.0, abs(x)) for x, y in zip(a, b))


def lod_visuals(doc):
    """(datafile, key, object) of each Visual with a LODSelectorInstance's own list and no LOD slot list of
    the same count (so its own list alone changes), in dump order."""
    for name, datafile in doc["datafiles"].items():
        for key, obj in datafile["objects"].items():
            inst = obj.get("instance")
            if not isinstance(inst, dict) or "slots" not in inst or not inst.get("instances"):
                continue
            n = len(inst["instances"])
            if any(isinstance(s, dict) and len(s.get("instances", [])) == n for s in inst["slots"]):
                continue
            yield name, key, obj


def strip(value):
    """The dump without what a resize moves: offsets, lengths, sizes."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in ("offset", "length", "size")}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def near(matrix, expected, what):
    for i, (a, b) in enumerate(zip(matrix, expected)):
        if abs(a - b) > CLOSE * max(1.0, abs(b)):
            sys.exit(f"FAILED: {what}: element {i} is {a}, expected {b} (matrix {matrix})")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    anvilrt, work = sys.argv[1], pathlib.Path(sys.argv[2])
    blender = os.environ.get("ANVILRT_BLENDER") or shutil.which("blender")
    if not blender:
        print("skipped: Blender is not installed (Debian's blender package; ./dev installs it)")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    level = work / "level.forge"
    run([anvilrt, "gen", "--game", "ac2", "--visuals", "80", "--forge", "--seed", "5", "-q", "-o", level])
    # Every instance turned 30 degrees about z (the generator's are not turned): Blender's rotations then
    # round, as they do in a real level, and the tolerance must absorb it.
    turn = work / "turn.json"
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    turn.write_text(json.dumps([{"op": "transform", "objects": "*",
                                 "matrix": [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]))
    run([anvilrt, "patch", level, turn, "--in-place", "-q"])
    before = json.loads(run([anvilrt, "dump", level]))
    chosen = list(lod_visuals(before))
    if len(chosen) < 3:
        sys.exit(f"FAILED: the generated archive has {len(chosen)} Visuals to edit, not 3")
    (mdf, mkey, _), (ddf, dkey, dobj), (cdf, ckey, cobj) = chosen[0], chosen[1], chosen[2]
    scene = work / "scene.glb"
    run([anvilrt, "export", level, "-o", scene, "-q"])
    edited, report_path = work / "edited.glb", work / "blender.json"
    delete_index = len(dobj["instance"]["instances"]) - 1
    r = subprocess.run([blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
                        HERE / "blender_edit.py", "--", scene, edited, f"{mkey}/0", *map(str, MOVE_BY),
                        f"{dkey}/{delete_index}", f"{ckey}/0", *map(str, COPY_BY), report_path],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or not edited.exists():
        sys.exit(f"FAILED: blender exit {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")
    report = json.loads(report_path.read_text())
    print(f"Blender moved {mkey}/0, deleted {dkey}/{delete_index}, copied {ckey}/0 as {report['copy_name']!r} "
          f"(extras kept: {report['copy_extras']})")

    # Blender's rounding of the nodes it did not touch.
    exported, returned = instance_worlds(glb_json(scene)), instance_worlds(glb_json(edited))
    worst = max(deviation(exported[k][0], returned[k][0]) for k in exported
                if k in returned and len(returned[k]) == 1 and k[0] not in (mkey, dkey, ckey))
    print(f"untouched nodes: largest change after Blender |new - old| / max(1, |old|) = {worst:.3g}")

    patch = work / "patch.json"
    out = run([anvilrt, "import", edited, "--onto", level, "-o", patch])
    print(out.strip())
    if "(1 moved, 1 added, 1 removed)" not in out:
        sys.exit(f"FAILED: import should find one move, one copy and one deletion: {out}\n{patch.read_text()}")
    patched = work / "patched.forge"
    run([anvilrt, "patch", level, patch, "-o", patched, "-q"])
    after = json.loads(run([anvilrt, "dump", patched]))

    expected = copy.deepcopy(before)
    # The move: Blender's vector added to the translation (Blender z-up = Anvil z-up), the rest as it was.
    m_before = before["datafiles"][mdf]["objects"][mkey]["instance"]["instances"][0]
    m_after = after["datafiles"][mdf]["objects"][mkey]["instance"]["instances"][0]
    near(m_after, m_before[:12] + [m_before[12] + MOVE_BY[0], m_before[13] + MOVE_BY[1],
                                   m_before[14] + MOVE_BY[2], m_before[15]], f"moved {mkey}/0")
    expected["datafiles"][mdf]["objects"][mkey]["instance"]["instances"][0] = m_after
    # The deletion.
    del expected["datafiles"][ddf]["objects"][dkey]["instance"]["instances"][delete_index]
    # The copy, appended where Blender put it.
    c_list = after["datafiles"][cdf]["objects"][ckey]["instance"]["instances"]
    c_source = before["datafiles"][cdf]["objects"][ckey]["instance"]["instances"][0]
    near(c_list[-1], c_source[:12] + [c_source[12] + COPY_BY[0], c_source[13] + COPY_BY[1],
                                      c_source[14] + COPY_BY[2], c_source[15]], f"the copy of {ckey}/0")
    expected["datafiles"][cdf]["objects"][ckey]["instance"]["instances"].append(c_list[-1])
    if strip(after) != strip(expected):
        for name in expected["datafiles"]:
            for key, obj in expected["datafiles"][name]["objects"].items():
                if strip(obj) != strip(after["datafiles"][name]["objects"].get(key)):
                    print(f"differs: {name} {key}", file=sys.stderr)
        sys.exit("FAILED: the patched archive differs from the expected one beyond the three edits")
    # Lengths: the moved object's is the same; the others' too but the two resized ones.
    for name, datafile in before["datafiles"].items():
        for key, obj in datafile["objects"].items():
            if (name, key) in ((ddf, dkey), (cdf, ckey)):
                continue
            if obj["length"] != after["datafiles"][name]["objects"][key]["length"]:
                sys.exit(f"FAILED: {name} {key}: length {obj['length']} became "
                         f"{after['datafiles'][name]['objects'][key]['length']}")
    print("blender round trip: one moved, one gone, one added, nothing else changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
