#!/usr/bin/python3
"""The Kaitai Struct description against anvilrt's own reading.

Compiles `anvilrt schema --ksy` with the Kaitai Struct compiler (npm kaitai-struct-compiler, run by
node through ksc.js) for Python, parses every object of each level file with Debian's
python3-kaitaistruct runtime (the object's offset and length taken from `anvilrt dump --full`), and
compares every field of the dump with what Kaitai read. Any difference, or any object Kaitai cannot
read, fails the test.

A `.forge` archive among the files is read whole with `forge_archive` (header, table sections, index and
name entries, each data file's header and stored bytes: prefix and block sets) and compared with
`anvilrt ls --json`: every data file's id, name, type, stored size, compression and decompressed size
(the sum of its blocks' or chunks' sizes). Its data files, decompressed by `anvilrt extract`, are read
with `forge_data_file`, which must take exactly their bytes: their sizes are those `anvilrt dump` gives,
and every object dump carves lies inside one resource body Kaitai read (FORGE.md 3).

usage: ksy_roundtrip.py ANVILRT KSC_DIR WORK_DIR FILE...
"""

import importlib.util
import json
import os
import subprocess
import sys

from kaitaistruct import KaitaiStream, BytesIO  # Debian python3-kaitaistruct

from dump_compare import Mismatch, compare


def fail(message):
    print(f"ksy_roundtrip: {message}", file=sys.stderr)
    sys.exit(1)


def compile_ksy(anvilrt, ksc_dir, work):
    ksy = os.path.join(work, "anvilrt.ksy")
    subprocess.run([anvilrt, "schema", "--ksy", "-o", ksy], check=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ksc.js")
    env = dict(os.environ, NODE_PATH=os.path.join(ksc_dir, "node_modules"))
    subprocess.run(["node", script, ksy, work], check=True, env=env)
    spec = importlib.util.spec_from_file_location("anvilrt_ksy", os.path.join(work, "anvilrt.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Anvilrt


COMPRESSION = {0: "lzo1x", 1: "lzo1x", 2: "lzo2a", 5: "lzo1c"}


def text(raw):
    return raw.rstrip(b"\0").decode("ascii")


def decompressed_size(block_set):
    if block_set.max_size != 0:
        return sum(b.uncompressed_size for b in block_set.blocks)
    return sum(len(c.stored) if c.kind == 0 else c.uncompressed_size for c in block_set.chunks)


def body_ranges(data_file):
    """Where each resource body lies in the data file, from the fields Kaitai read (FORGE.md 3)."""
    pos = 2 + 10 * data_file.num_entries + 4 + data_file.len_unknown
    ranges = []
    for r in data_file.resources:
        pos += 4 + 4 + 4 + len(r.name) + 1
        if r.flag == 1:
            pos += 3 + 4 + 12 * r.num_flag_records
        ranges.append((pos, pos + len(r.body)))
        pos += len(r.body)
    return ranges


def compare_forge(Anvilrt, anvilrt, path, work):
    """The archive through forge_archive against `ls --json`; the data files through forge_data_file."""
    ls = json.loads(subprocess.run([anvilrt, "ls", "--json", "-q", path], check=True, capture_output=True).stdout)
    with open(path, "rb") as f:
        data = f.read()
    archive = Anvilrt.ForgeArchive(KaitaiStream(BytesIO(data)))
    if archive.header.version != 25:
        raise Mismatch(f"{path}: version {archive.header.version}")
    read = []
    section = archive.first_section
    while section is not None:
        for i, at in enumerate(section.index_entries):
            name = section.name_entries[i]
            row = {"file_id": f"0x{at.entry.file_id:08x}", "name": text(name.name),
                   "file_type": f"0x{name.file_type:08x}", "stored_size": at.entry.size}
            stored = at.stored
            if stored is None or not stored.compressed:
                row["compression"] = "plain"
                row["decompressed_size"] = 0 if stored is None else len(stored.plain)
            else:
                row["compression"] = COMPRESSION[stored.first.compression]
                second = getattr(stored, "second", None)  # Kaitai sets a field only when its `if` holds
                row["decompressed_size"] = decompressed_size(stored.first) + (
                    decompressed_size(second) if second is not None else 0)
            read.append(row)
        section = getattr(section, "next", None) if section.section.next != -1 else None
    expected = ls["datafiles"]
    if len(read) != len(expected):
        raise Mismatch(f"{path}: Kaitai read {len(read)} data files, ls lists {len(expected)}")
    fields = 0
    for row, want in zip(read, expected):
        for key, value in row.items():
            if want[key] != value:
                raise Mismatch(f"{path}: data file {want['index']}: {key}: Kaitai {value!r}, ls {want[key]!r}")
            fields += 1
    # The decompressed data files, each read whole, against `dump`.
    dump = json.loads(subprocess.run([anvilrt, "dump", "-q", path], check=True, capture_output=True).stdout)
    out = os.path.join(work, os.path.basename(path) + ".extract")
    subprocess.run([anvilrt, "extract", "-q", path, "-o", out], check=True)
    for name, dumped in dump["datafiles"].items():
        with open(os.path.join(out, name + ".data"), "rb") as f:
            raw = f.read()
        if len(raw) != dumped["size"]:
            raise Mismatch(f"{path}: {name}: extract wrote {len(raw)} bytes, dump says {dumped['size']}")
        parsed = Anvilrt.ForgeDataFile(KaitaiStream(BytesIO(raw)))
        if not parsed._io.is_eof():
            raise Mismatch(f"{path}: {name}: Kaitai read {parsed._io.pos()} of its {len(raw)} bytes")
        if len(parsed.resources) != parsed.num_entries:
            raise Mismatch(f"{path}: {name}: {parsed.num_entries} entries, {len(parsed.resources)} resources")
        bodies = body_ranges(parsed)
        for key, obj in dumped["objects"].items():
            start, end = obj["offset"], obj["offset"] + obj["length"]
            if not any(b <= start and end <= e for b, e in bodies):
                raise Mismatch(f"{path}: {name}: object {key} at {start}..{end} is in no resource body {bodies}")
            fields += 1
        fields += 1 + parsed.num_entries
    return len(read), fields


def main():
    if len(sys.argv) < 5:
        fail(__doc__.strip().splitlines()[-1])
    anvilrt, ksc_dir, work = sys.argv[1:4]
    files = sys.argv[4:]
    if not os.path.isdir(os.path.join(ksc_dir, "node_modules", "kaitai-struct-compiler")):
        fail(f"the Kaitai Struct compiler is not installed in {ksc_dir} (./dev installs it)")
    os.makedirs(work, exist_ok=True)
    Anvilrt = compile_ksy(anvilrt, ksc_dir, work)
    types = {("ac2", "Visual"): Anvilrt.Ac2Visual, ("sws", "LODSelector"): Anvilrt.SwsLodSelector,
             ("sws", "Visual"): Anvilrt.SwsVisual}
    objects = fields = archives = 0
    for path in [p for p in files if p.endswith(".forge")]:
        try:
            n, f = compare_forge(Anvilrt, anvilrt, path, work)
        except Mismatch as e:
            fail(str(e))
        except Exception as e:
            fail(f"{path}: Kaitai cannot read the archive: {type(e).__name__}: {e}")
        archives += 1
        objects += n
        fields += f
    if archives == 0:
        fail("no .forge archive was compared")
    files = [p for p in files if not p.endswith(".forge")]
    for path in files:
        dump = json.loads(subprocess.run([anvilrt, "dump", "--full", path], check=True,
                                         capture_output=True).stdout)
        with open(path, "rb") as f:
            data = f.read()
        for key, obj in dump["objects"].items():
            cls = types[(dump["game"], obj["class"])]
            raw = data[obj["offset"]:obj["offset"] + obj["length"]]
            try:
                parsed = cls(KaitaiStream(BytesIO(raw)))
                if not parsed._io.is_eof():
                    raise Mismatch(f"Kaitai read {parsed._io.pos()} of the object's {len(raw)} bytes")
                fields += compare(obj, parsed, f"{path}:/{key}")
            except Mismatch as e:
                fail(str(e))
            except Exception as e:  # a Kaitai validation or end-of-stream error
                fail(f"{path}: object {key}: Kaitai cannot read it: {type(e).__name__}: {e}")
            objects += 1
    if objects == 0:
        fail("no object was compared")
    print(f"ksy_roundtrip: {objects} objects and data files in {len(files)} files and {archives} archives, "
          f"{fields} fields, all equal to anvilrt dump and ls")


if __name__ == "__main__":
    main()
