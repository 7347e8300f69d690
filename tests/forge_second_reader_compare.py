#!/usr/bin/python3
"""anvilrt against the second reader: `forge_second_reader_compare.py ANVILRT generated|patched|put|packed|resized`.

generated: archives of `anvilrt gen --forge` (several seeds and shapes) and corpus/forge/; patched: generated ones after
`anvilrt patch`; put: generated ones after `anvilrt put` of unchanged, grown and shrunk data files, --add and --remove. For each archive, `anvilrt ls --json` and `anvilrt extract` are compared with
forge_second_reader.py on every data file: id, name, type, sizes, compression, checksum rule and
decompressed bytes. packed: generated archives after `anvilrt pack` of their extraction and after `anvilrt
compact`: the second reader reads each as anvilrt does, and the same data files as the original. resized:
generated ones of both games after a `duplicate_instance` that grows one data file (FORGE.md 5). Any
difference, or any command that fails, fails the test (exit 1) naming it.
"""

import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
READER = os.path.join(HERE, "forge_second_reader.py")
CORPUS = os.path.join(HERE, os.pardir, "corpus", "forge")
# The second reader's checksum rule names and anvilrt ls's.
RULE_NAMES = {"adler32-0-compressed": "adler32-0/stored", "adler32-1-compressed": "adler32-1/stored",
              "adler32-0-decompressed": "adler32-0/decompressed", "adler32-1-decompressed": "adler32-1/decompressed"}
# (game, data files, visuals per entry body, seed, block size[, archive version[, data-file layout]]): every
# form gen writes, blocks from the default size down to the smallest, where most blocks do not shrink and
# are stored plain; the later archive versions of FORGE.md 7 (26, and 27 with its 64-bit ids and no data
# file headers) and the data-file layouts 0 (AC1), 2 (AC3, AC4) and 3 (Unity).
SHAPES = [("ac2", 5, 20, 1, 32768), ("ac2", 7, 3, 2, 700), ("ac2", 10, 2, 3, 16), ("sws", 5, 4, 4, 4096),
          ("ac2", 1, 1, 5, 100), ("sws", 4, 3, 6, 500, 26), ("ac2", 6, 3, 7, 300, 27),
          ("ac2", 4, 3, 8, 300, 25, 0), ("sws", 4, 3, 9, 400, 26, 2), ("ac2", 5, 3, 10, 200, 27, 3)]
# The other pairs of version and layout, generated and patched only (every mode runs SHAPES).
OTHER_PAIRS = [("ac2", 3, 2, 11, 300, 25, 2), ("ac2", 3, 2, 12, 300, 25, 3), ("ac2", 3, 2, 13, 300, 26, 0),
               ("ac2", 3, 2, 14, 300, 26, 3), ("ac2", 3, 2, 15, 300, 27, 0), ("ac2", 3, 2, 16, 300, 27, 2)]


class Mismatch(Exception):
    pass


def run(*cmd, ok=(0,)):
    r = subprocess.run(list(cmd), capture_output=True)
    if r.returncode not in ok:
        raise Mismatch(f"`{' '.join(cmd)}` exited {r.returncode}: {r.stderr.decode(errors='replace').strip()}")
    return r


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def data_files_in(folder):
    """The data files `anvilrt extract` wrote into a folder (not the forge.json beside them)."""
    return [f for f in os.listdir(folder) if f != "forge.json"]


def ls_json(anvilrt, forge):
    doc = json.loads(run(anvilrt, "ls", forge, "--json").stdout)
    return doc["datafiles"], doc["checksum_rule"], doc["version"]


def same_rule(mine, theirs):
    """The reader's list of matching rules (None: no checksummed block) against ls's one rule."""
    if mine is None:
        return theirs == "n/a"
    if not mine:
        return theirs == "none"
    return theirs in [RULE_NAMES[r] for r in mine]


def compare(anvilrt, forge, tmp, label):
    """Every data file of `forge` as anvilrt sees it and as the second reader sees it; returns the reader's."""
    archive = json.loads(run(sys.executable, READER, "list", forge).stdout)
    mine = archive["datafiles"]
    theirs, their_rule, their_version = ls_json(anvilrt, forge)
    if their_version != archive["version"]:
        raise Mismatch(f"{label}: anvilrt ls reads archive version {their_version}, the second reader "
                       f"{archive['version']}")
    if len(theirs) != len(mine):
        raise Mismatch(f"{label}: anvilrt ls lists {len(theirs)} data files, the second reader {len(mine)}")
    for m, t in zip(mine, theirs):
        m["file_type"] = f"{m['file_type']:#010x}"
        t = dict(t, stored_size=t["size"])  # ls --json names it as the index entry does
        for key in ("index", "file_id", "name", "file_type", "stored_size", "decompressed_size", "compression"):
            if m[key] != t[key]:
                raise Mismatch(f"{label}: data file {m['index']} ({m['name']}): {key} is {t[key]!r} for "
                               f"anvilrt ls, {m[key]!r} for the second reader")
        if t.get("layout") != archive["layout"]:
            raise Mismatch(f"{label}: data file {m['index']} ({m['name']}): anvilrt ls reads layout {t.get('layout')}, "
                           f"the second reader {archive['layout']}")
        if not same_rule(m["checksum_rules"], t["checksum_rule"]):
            raise Mismatch(f"{label}: data file {m['index']} ({m['name']}): anvilrt ls finds checksum rule "
                           f"{t['checksum_rule']!r}, the second reader {m['checksum_rules']!r}")
    if not same_rule(archive["checksum_rules"], their_rule):
        raise Mismatch(f"{label}: anvilrt ls finds the archive's checksum rule {their_rule!r}, the second "
                       f"reader {archive['checksum_rules']!r}")
    # extract of everything: as many files as data files, the same bytes (names may be made safe
    # differently, so the bytes are compared as a multiset here and per id below).
    every = os.path.join(tmp, f"{label}-all")
    run(anvilrt, "extract", forge, "-o", every)
    got = sorted(sha256_of(os.path.join(every, f)) for f in data_files_in(every))
    if got != sorted(m["sha256"] for m in mine):
        raise Mismatch(f"{label}: anvilrt extract wrote {len(got)} files whose bytes differ from the second "
                       f"reader's {len(mine)} data files")
    # extract of each data file by id: the one file written is that data file's bytes.
    ids = [m["file_id"] for m in mine]
    for m in mine:
        if ids.count(m["file_id"]) != 1:
            continue
        one = os.path.join(tmp, f"{label}-{m['file_id']}")
        run(anvilrt, "extract", forge, m["file_id"], "-o", one)
        written = data_files_in(one)
        if len(written) != 1 or sha256_of(os.path.join(one, written[0])) != m["sha256"]:
            raise Mismatch(f"{label}: anvilrt extract {m['file_id']} wrote {written}, not the bytes the second "
                           f"reader decompresses for data file {m['index']} ({m['name']})")
    # The second reader's own extract writes the same bytes as its list reports.
    own = os.path.join(tmp, f"{label}-reader")
    run(sys.executable, READER, "extract", forge, own)
    if sorted(sha256_of(os.path.join(own, f)) for f in os.listdir(own)) != sorted(m["sha256"] for m in mine):
        raise Mismatch(f"{label}: the second reader's extract differs from its list")
    return mine


def generate(anvilrt, tmp, shape):
    game, datafiles, visuals, seed, block_size = shape[:5]
    version = shape[5] if len(shape) > 5 else 25
    layout = shape[6] if len(shape) > 6 else 1
    label = f"{game}-{datafiles}x{visuals}-seed{seed}-block{block_size}-v{version}-layout{layout}"
    forge = os.path.join(tmp, label + ".forge")
    run(anvilrt, "gen", "--forge", "--game", game, "--datafiles", str(datafiles), "--visuals", str(visuals),
        "--seed", str(seed), "--block-size", str(block_size), "--forge-version", str(version), "--layout",
        str(layout), "-o", forge)
    return label, forge


def check_generated(anvilrt, tmp):
    """The archives gen writes now, and those it wrote into corpus/forge/."""
    archives = [generate(anvilrt, tmp, shape) for shape in SHAPES + OTHER_PAIRS]
    archives += [(name, os.path.join(CORPUS, name)) for name in sorted(os.listdir(CORPUS)) if name.endswith(".forge")]
    lines = []
    for label, forge in archives:
        mine = compare(anvilrt, forge, tmp, label)
        kinds = sorted({m["compression"] + ":" + "+".join(s["form"] for s in m["block_sets"]) for m in mine})
        lines.append(f"{label}: {len(mine)} data files agree ({', '.join(kinds)})")
        # Not compared (ls --json lists no entry table): whether FORGE.md section 3 reads each one.
        refused = [f"{m['name']}: {m['entries_error']}" for m in mine if m["entries_error"]]
        lines.append(f"  entry tables read by FORGE.md section 3: {len(mine) - len(refused)} of {len(mine)}"
                     + (f" (first refused: {refused[0]})" if refused else ""))
    return lines


def first_material(node):
    """The first (object key, replacement) of a material info found in a dumped object, or None."""
    if isinstance(node, dict):
        if "replacement" in node and "source" in node:
            return node["replacement"]
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            found = first_material(child)
            if found:
                return found
    return None


def check_patched(anvilrt, tmp):
    """One material swapped in one object of each compressed data file, by `anvilrt patch` on the archive
    and on the extracted data file: the second reader must agree with ls/extract on the patched archive,
    read the patched data files as the patched extracts, and every other data file unchanged."""
    lines = []
    for shape in SHAPES[:3] + SHAPES[-1:] + OTHER_PAIRS:
        label, forge = generate(anvilrt, tmp, shape)
        before = {m["file_id"]: m for m in compare(anvilrt, forge, tmp, label)}
        dump = json.loads(run(anvilrt, "dump", forge).stdout)
        ops, targets = [], {}
        for m in before.values():
            objects = dump["datafiles"][m["name"]]["objects"] if m["compression"] != "plain" else {}
            for key, obj in objects.items():
                replacement = first_material(obj)
                if replacement:
                    ops.append({"op": "swap_material", "from": replacement, "to": "0x0123456789abcdef",
                                "objects": [key]})
                    targets[m["file_id"]] = [ops[-1]]
                    break
        if not ops:
            raise Mismatch(f"{label}: no material info in any compressed data file to patch")
        patch = os.path.join(tmp, label + ".patch.json")
        with open(patch, "w") as f:
            json.dump(ops, f)
        patched = os.path.join(tmp, label + ".patched.forge")
        run(anvilrt, "patch", forge, patch, "-o", patched)
        after = {m["file_id"]: m for m in compare(anvilrt, patched, tmp, label + "-patched")}
        if list(after) != list(before):
            raise Mismatch(f"{label}: patching changed the archive's data files: {list(before)} -> {list(after)}")
        for file_id, m in after.items():
            if file_id not in targets:
                if m["sha256"] != before[file_id]["sha256"]:
                    raise Mismatch(f"{label}: data file {m['name']} changed though the patch does not touch it")
                continue
            # The same edit made on the extracted data file gives the bytes the second reader reads.
            extracted = os.path.join(tmp, f"{label}-{file_id}-single")
            run(anvilrt, "extract", forge, file_id, "-o", extracted)
            (name,) = data_files_in(extracted)
            one_patch = os.path.join(tmp, f"{label}-{file_id}.patch.json")
            with open(one_patch, "w") as f:
                json.dump(targets[file_id], f)
            expected = os.path.join(tmp, f"{label}-{file_id}.patched.data")
            run(anvilrt, "patch", os.path.join(extracted, name), one_patch, "-o", expected)
            if m["sha256"] == before[file_id]["sha256"]:
                raise Mismatch(f"{label}: data file {m['name']} reads the same after the patch")
            if m["sha256"] != sha256_of(expected):
                raise Mismatch(f"{label}: data file {m['name']} of the patched archive differs from the extracted "
                               f"data file patched alone")
        lines.append(f"{label}: patched in {len(targets)} of {len(after)} data files; all agree")
    return lines


def check_put(anvilrt, tmp):
    """Every output of `anvilrt put` read by the second reader: it agrees with ls/extract, each data file put
    back reads as the bytes given, each added one as its file, a removed one is gone, the others unchanged."""
    lines = []
    for shape in SHAPES:
        label, forge = generate(anvilrt, tmp, shape)
        before = compare(anvilrt, forge, tmp, label)
        extracted = os.path.join(tmp, label + "-x")
        run(anvilrt, "extract", forge, "-o", extracted)
        files = sorted(f for f in os.listdir(extracted) if f.endswith(".data"))  # not forge.json
        # Unchanged: the identical archive.
        same = os.path.join(tmp, label + ".same.forge")
        run(anvilrt, "put", forge, *[os.path.join(extracted, f) for f in files], "-o", same)
        if sha256_of(same) != sha256_of(forge):
            raise Mismatch(f"{label}: put of the unchanged extraction is not the identical archive")
        # Grown (by bytes that do not compress) and shrunk data files, stored as given (--raw), one added
        # and, with more than two data files, one removed.
        expected = {m["name"]: m["sha256"] for m in before}
        edited = os.path.join(tmp, label + "-edited")
        os.makedirs(edited)
        args = [anvilrt, "put", forge, "--raw"]
        removed = files[1][: -len(".data")] if len(files) > 2 else None
        # Raw bytes in every data file leave the layout to guess (it is found by the entries' tables, FORGE.md
        # 7; layouts 1 and 2 store a prefix alike): in another layout than 1, the last data file stays as it is.
        kept = files[-1] if len(shape) > 6 and shape[6] != 1 else None
        for k, name in enumerate(files):
            if name[: -len(".data")] == removed or name == kept:
                continue
            with open(os.path.join(extracted, name), "rb") as f:
                data = f.read()
            if k % 2 == 0:
                noise = b"".join(hashlib.sha256(f"{label}{k}{i}".encode()).digest()
                                 for i in range((3 * shape[4] + 17) // 32 + 1))
                data = data[: len(data) // 3] + noise + data[len(data) // 3:]
            else:
                data = data[: max(1, len(data) - 2 * shape[4] - 5)]
            path = os.path.join(edited, name)
            with open(path, "wb") as f:
                f.write(data)
            args.append(path)
            expected[name[: -len(".data")]] = hashlib.sha256(data).hexdigest()
        added = os.path.join(tmp, label + "-added.bin")
        with open(added, "wb") as f:
            f.write(b"added by put " * 400)
        args += ["--add", added, "--name", "Added_By_Put", "--id", "0x00c0ffee", "--type", "0x10"]
        expected["Added_By_Put"] = sha256_of(added)
        if removed:
            args += ["--remove", removed]
            del expected[removed]
        out = os.path.join(tmp, label + ".put.forge")
        run(*args, "-o", out)
        after = compare(anvilrt, out, tmp, label + "-put")
        got = {m["name"]: m["sha256"] for m in after}
        if got != expected:
            differ = sorted(set(got.items()) ^ set(expected.items()))
            raise Mismatch(f"{label}: after put the second reader reads {differ[:2]} otherwise than put was given")
        lines.append(f"{label}: put of {len(files)} data files, one added"
                     f"{', one removed' if len(files) > 2 else ''}; the second reader agrees")
    return lines


def check_packed(anvilrt, tmp):
    """`pack` of each generated archive's extraction, and `compact` of the archive: both read by the second
    reader as by ls/extract, with the original's data files (by id, name and bytes)."""
    lines = []
    for shape in SHAPES:
        label, forge = generate(anvilrt, tmp, shape)
        original = [(m["file_id"], m["name"], m["sha256"]) for m in compare(anvilrt, forge, tmp, label)]
        folder = os.path.join(tmp, label + "-extracted")
        run(anvilrt, "extract", forge, "-o", folder, "-q")
        packed = os.path.join(tmp, label + ".packed.forge")
        run(anvilrt, "pack", folder, "-o", packed, "-q")
        compacted = os.path.join(tmp, label + ".compact.forge")
        run(anvilrt, "compact", forge, "-o", compacted, "--align", "1", "-q")
        for kind, out in (("packed", packed), ("compacted", compacted)):
            got = [(m["file_id"], m["name"], m["sha256"]) for m in compare(anvilrt, out, tmp, f"{label}-{kind}")]
            if got != original:
                raise Mismatch(f"{label}: the {kind} archive's data files differ from the original's")
        lines.append(f"{label}: packed and compacted, {len(original)} data files agree")
    return lines


def entry_table(data, version=25, layout=1):
    """A decompressed data file's entries (FORGE.md 3, flag 0 or 1; the rows and what follows them by the
    layout and version of FORGE.md 7): each one's data_size, file_size and the bytes of its table row and
    resource header without those two fields."""
    count = struct.unpack_from("<H", data, 0)[0]
    rows, pos = [], 2
    for i in range(count):
        if layout < 2:  # [u32 id][u32 data_size], then layout 1's [i16 extra]
            row = data[pos:pos + (8 if layout == 0 else 10)]
            size_at = 4
        else:  # [u64 id][u32 data_size][i16 e], then 2e bytes when e > 0
            e = struct.unpack_from("<h", data, pos + 12)[0]
            row = data[pos:pos + 14 + (2 * e if e > 0 else 0)]
            size_at = 8
        rows.append((row, size_at))
        pos += len(row)
    if version == 26 and layout != 0:
        pos += 4 + struct.unpack_from("<I", data, pos)[0]
    if layout == 1:
        pos += 4 + struct.unpack_from("<I", data, pos)[0]
    entries = []
    for i in range(count):
        row, size_at = rows[i]
        data_size = struct.unpack_from("<I", row, size_at)[0]
        resource_type, file_size, name_length = struct.unpack_from("<III", data, pos)
        start = pos
        pos += 12 + name_length
        flag = data[pos]
        pos += 1
        if flag == 1:
            pos += 3 + 4 + 12 * struct.unpack_from("<I", data, pos + 3)[0]
        elif flag != 0:
            raise Mismatch(f"entry {i}: flag {flag}")
        header = row[:size_at] + row[size_at + 4:] + data[start:start + 4] + data[start + 8:pos]
        entries.append({"data_size": data_size, "file_size": file_size, "header": header})
        pos += file_size
    if pos != len(data):
        raise Mismatch(f"{len(data) - pos} bytes follow the last body")
    return entries


def check_resized(anvilrt, tmp):
    """An instance placed again in every Visual of one compressed data file, by `anvilrt patch` on the
    archive: the second reader agrees with ls/extract on the patched archive and reads the grown data file's
    entry table (FORGE.md 3), which is the extracted data file patched alone; every other data file is
    unchanged, and remove_instance of the added instances gives the original data file back."""
    lines = []
    for shape in (SHAPES[0], SHAPES[1], SHAPES[3], SHAPES[-1]):
        label, forge = generate(anvilrt, tmp, shape)
        before = {m["file_id"]: m for m in compare(anvilrt, forge, tmp, label)}
        target = next(m for m in before.values() if m["compression"] != "plain" and m["decompressed_size"] > 0)
        dump = json.loads(run(anvilrt, "dump", forge).stdout)
        objects = dump["datafiles"][target["name"]]["objects"]
        def undoable(instance):
            # A slot list of one more instance than the Visual's own would lose one to remove_instance too.
            n = len(instance["instances"])
            return all(not isinstance(slot, dict) or len(slot.get("instances", [])) != n + 1
                       for slot in instance.get("slots", []))
        keys = [k for k, o in objects.items()
                if isinstance(o.get("instance"), dict) and o["instance"].get("instances") and undoable(o["instance"])]
        if not keys:
            raise Mismatch(f"{label}: no Visual with an instance list in data file {target['name']}")
        grow = [{"op": "duplicate_instance", "datafiles": [target["name"]], "objects": keys, "index": 0,
                 "translate": [1, 2, 3]}]
        patch = os.path.join(tmp, label + ".grow.json")
        with open(patch, "w") as f:
            json.dump(grow, f)
        patched = os.path.join(tmp, label + ".grown.forge")
        run(anvilrt, "patch", forge, patch, "-o", patched)
        after = {m["file_id"]: m for m in compare(anvilrt, patched, tmp, label + "-grown")}
        for file_id, m in after.items():
            if file_id != target["file_id"]:
                if m["sha256"] != before[file_id]["sha256"]:
                    raise Mismatch(f"{label}: data file {m['name']} changed though the patch does not touch it")
                continue
            if m["decompressed_size"] <= target["decompressed_size"]:
                raise Mismatch(f"{label}: data file {m['name']} did not grow")
        # The entry tables of the data file before and after, read here from FORGE.md 3 (the second reader's
        # own entry reading refuses flag 0, which gen writes): each entry's file_size and data_size changed by
        # the same d, the d adding up to the growth, and every byte outside the bodies otherwise the same.
        def reader_bytes(forge_path, tag):
            out = os.path.join(tmp, f"{label}-{tag}-reader")
            run(sys.executable, READER, "extract", forge_path, out)
            for name in os.listdir(out):
                with open(os.path.join(out, name), "rb") as f:
                    data = f.read()
                if hashlib.sha256(data).hexdigest() == (target if tag == "before" else after[target["file_id"]])["sha256"]:
                    return data
            raise Mismatch(f"{label}: the second reader extracts no data file {target['name']}")
        form = (shape[5] if len(shape) > 5 else 25, shape[6] if len(shape) > 6 else 1)
        old_table = entry_table(reader_bytes(forge, "before"), *form)
        new_table = entry_table(reader_bytes(patched, "after"), *form)
        if len(old_table) != len(new_table):
            raise Mismatch(f"{label}: the grown data file has {len(new_table)} entries, not {len(old_table)}")
        total = 0
        for e, (a, b) in enumerate(zip(old_table, new_table)):
            d = b["file_size"] - a["file_size"]
            if b["data_size"] - a["data_size"] != d or a["header"] != b["header"]:
                raise Mismatch(f"{label}: entry {e} of the grown data file: file_size grew by {d}, data_size by "
                               f"{b['data_size'] - a['data_size']}, header {'kept' if a['header'] == b['header'] else 'changed'}")
            total += d
        if total != after[target["file_id"]]["decompressed_size"] - target["decompressed_size"]:
            raise Mismatch(f"{label}: the entries grew by {total} bytes, the data file otherwise")
        extracted = os.path.join(tmp, f"{label}-single")
        run(anvilrt, "extract", forge, target["file_id"], "-o", extracted)
        (name,) = [f for f in os.listdir(extracted) if f.endswith(".data")]
        one_patch = os.path.join(tmp, f"{label}.grow-one.json")
        with open(one_patch, "w") as f:
            json.dump([{k: v for k, v in grow[0].items() if k != "datafiles"}], f)
        alone = os.path.join(tmp, f"{label}.grown.data")
        run(anvilrt, "patch", os.path.join(extracted, name), one_patch, "-o", alone)
        if after[target["file_id"]]["sha256"] != sha256_of(alone):
            raise Mismatch(f"{label}: the grown data file of the archive differs from the extracted one patched alone")
        # Each Visual's added instance is its last: removed again, the archive's data file is the original.
        counts = {k: len(objects[k]["instance"]["instances"]) for k in keys}
        undo = [{"op": "remove_instance", "objects": [k], "index": n} for k, n in counts.items()]
        undo_path = os.path.join(tmp, label + ".undo.json")
        with open(undo_path, "w") as f:
            json.dump(undo, f)
        back = os.path.join(tmp, label + ".back.forge")
        run(anvilrt, "patch", patched, undo_path, "-o", back)
        restored = {m["file_id"]: m for m in compare(anvilrt, back, tmp, label + "-back")}
        if restored[target["file_id"]]["sha256"] != target["sha256"]:
            raise Mismatch(f"{label}: remove_instance did not give data file {target['name']} back")
        grown_by = after[target["file_id"]]["decompressed_size"] - target["decompressed_size"]
        lines.append(f"{label}: data file {target['name']} grown by {grown_by} bytes in {len(keys)} Visuals; "
                     f"all agree, and undone")
    return lines


def main(argv):
    if len(argv) != 2 or argv[1] not in ("generated", "patched", "put", "packed", "resized"):
        print("usage: " + __doc__.strip().splitlines()[0].split("`")[1], file=sys.stderr)
        return 2
    anvilrt, which = argv
    with tempfile.TemporaryDirectory() as tmp:
        try:
            check = {"generated": check_generated, "patched": check_patched, "put": check_put,
                     "packed": check_packed, "resized": check_resized}[which]
            lines = check(anvilrt, tmp)
        except Mismatch as e:
            print(f"forge_second_reader_compare: {e}", file=sys.stderr)
            return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
