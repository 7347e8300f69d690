"""A `.forge` archive as another reader read it, against anvilrt's own reading (FORGE.md).

Shared by ksy_roundtrip.py and hexpat_check.py, whose descriptions name the container fields alike
(schema/ksy.cpp, schema/hexpat.cpp). `compare_forge(anvilrt, path, work, reader, read_archive,
read_data_file)`: the archive read whole by `read_archive(data, layout)` (a `forge_archive`: header, table
sections chained by `next`, index and name entries, each data file's header and stored bytes) is compared
with `anvilrt ls --json`: every data file's id, name, type, stored size, compression and decompressed size
(the sum of its blocks' or chunks' sizes). Its data files, decompressed by `anvilrt extract`, are read by
`read_data_file(raw, version, layout)` (a `forge_data_file` and the bytes it took), which must take exactly their bytes:
their sizes are those `anvilrt dump` gives, and every object dump carves lies inside one resource body
read (FORGE.md 3). Raises Mismatch; returns (data files compared, values compared).
"""

import json
import os
import subprocess

from dump_compare import Mismatch

COMPRESSION = {0: "lzo1x", 1: "lzo1x", 2: "lzo2a", 5: "lzo1c"}


def text(raw):
    return bytes(raw).rstrip(b"\0").decode("ascii")


def decompressed_size(block_set):
    if block_set.max_size != 0:
        # the block table is `blocks` in layout 3 (u32 count), `blocks_2` in the others (u16 count)
        blocks = block_set.blocks if getattr(block_set, "blocks", None) is not None else block_set.blocks_2
        return sum(b.uncompressed_size for b in blocks)
    # a plain chunk's bytes are `stored` or, in the form the schema names second, `stored_2`
    return sum(len(c.stored if getattr(c, "stored", None) is not None else c.stored_2) if c.kind == 0
               else c.uncompressed_size for c in block_set.chunks)


def body_ranges(data_file):
    """Where each resource body lies in the data file, from the fields read (FORGE.md 3 and 7: a field is
    there only in the layouts and versions that have it)."""
    pos = 2
    for e in data_file.entries:  # [id][u32 data_size], then [i16 extra] (layouts 1-3), then the pairs (2-3)
        pairs = getattr(e, "pairs", None)
        if pairs is not None:
            pos += 8 + 4 + 2 + len(pairs)
        else:
            pos += 4 + 4 + (2 if getattr(e, "extra", None) is not None else 0)
    for kept in ("unknown_26", "unknown"):  # version 26's [u32 x][x], layout 1's [u32 m][m]
        if getattr(data_file, kept, None) is not None:
            pos += 4 + len(getattr(data_file, kept))
    ranges = []
    for r in data_file.resources:
        pos += 4 + 4 + 4 + len(r.name) + 1
        if r.flag == 1:
            pos += 3 + 4 + 12 * r.num_flag_records
        ranges.append((pos, pos + len(r.body)))
        pos += len(r.body)
    return ranges


def compare_forge(anvilrt, path, work, reader, read_archive, read_data_file):
    ls = json.loads(subprocess.run([anvilrt, "ls", "--json", "-q", path], check=True, capture_output=True).stdout)
    with open(path, "rb") as f:
        data = f.read()
    # The data-file layout is in no file (FORGE.md 7): the one ls found, given to the description.
    layout = ls["datafiles"][0]["layout"] if ls["datafiles"] else 1
    archive = read_archive(data, layout)
    version = archive.header.version
    if version != ls["version"]:
        raise Mismatch(f"{path}: {reader} reads archive version {version}, ls {ls['version']}")
    digits = 16 if version == 27 else 8  # FORGE.md 7: 64-bit ids in version 27
    read = []
    section = archive.first_section
    while section is not None:
        for i, at in enumerate(section.index_entries):
            name = section.name_entries[i]
            row = {"file_id": f"0x{at.entry.file_id:0{digits}x}", "name": text(name.name),
                   "file_type": f"0x{name.file_type:08x}", "size": at.entry.size}
            stored = getattr(at, "stored", None)  # absent when the stored size is 0
            first = getattr(stored, "first", None)  # a field is there only when its condition holds
            if first is None:
                row["compression"] = "plain"
                row["decompressed_size"] = 0 if stored is None else len(stored.plain)
            else:
                row["compression"] = COMPRESSION[first.compression]
                second = getattr(stored, "second", None)
                row["decompressed_size"] = decompressed_size(first) + (
                    decompressed_size(second) if second is not None else 0)
            read.append(row)
        section = getattr(section, "next", None) if section.section.next != -1 else None
    expected = ls["datafiles"]
    if len(read) != len(expected):
        raise Mismatch(f"{path}: {reader} read {len(read)} data files, ls lists {len(expected)}")
    fields = 0
    for row, want in zip(read, expected):
        for key, value in row.items():
            if want[key] != value:
                raise Mismatch(f"{path}: data file {want['index']}: {key}: {reader} {value!r}, ls {want[key]!r}")
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
        parsed, taken = read_data_file(raw, version, layout)
        if taken != len(raw):
            raise Mismatch(f"{path}: {name}: {reader} read {taken} of its {len(raw)} bytes")
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
