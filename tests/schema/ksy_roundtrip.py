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
and every object dump carves lies inside one resource body Kaitai read (FORGE.md 3). That comparison is
tests/schema/forge_compare.py, shared with the ImHex pattern's check (hexpat_check.py).

usage: ksy_roundtrip.py ANVILRT KSC_DIR WORK_DIR FILE...
"""

import importlib.util
import json
import os
import subprocess
import sys

from kaitaistruct import KaitaiStream, BytesIO  # Debian python3-kaitaistruct

from dump_compare import Mismatch, compare
from forge_compare import compare_forge


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


def compare_archive(Anvilrt, anvilrt, path, work):
    """The archive through forge_archive, its data files through forge_data_file (forge_compare.py)."""
    def read_data_file(raw, version, layout):
        parsed = Anvilrt.ForgeDataFile(version, layout, KaitaiStream(BytesIO(raw)))
        return parsed, parsed._io.pos()
    return compare_forge(anvilrt, path, work, "Kaitai",
                         lambda data, layout: Anvilrt.ForgeArchive(layout, KaitaiStream(BytesIO(data))),
                         read_data_file)


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
            n, f = compare_archive(Anvilrt, anvilrt, path, work)
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
