#!/usr/bin/python3
"""A second, independent reader of `.forge` archives, to check anvilrt's against.

Written from ../shared/FORGE.md alone; it shares no code with anvilrt's library, only liblzo2 (through
ctypes) for the LZO decoders. Checksums use Python's own zlib.adler32, not liblzo2's.

  forge_second_reader.py list FORGE          JSON: every data file in index order
  forge_second_reader.py extract FORGE DIR   DIR/<name>.data: each data file decompressed

Any failed check of FORGE.md ends the run with one line on stderr naming the archive offset (and the
data file and block) and exit status 1: as a test oracle it accepts only archives it fully understands.
"""

import ctypes
import hashlib
import json
import os
import re
import struct
import sys
import zlib

ARCHIVE_MAGIC = b"scimitar"
COMPRESSION_MAGIC = bytes.fromhex("33AAFB5799FA0410")
VERSIONS = (25, 26, 27)
SECTION_SIZE = 48


class Layout:
    """The sizes of archive version `version` (FORGE.md sections 1 and 7): 26 is 25's; 27 has the first
    section's offset at H + 36, 20-byte index entries [u64 offset][u64 file_id][u32 size] pointing at the
    stored bytes themselves (no 440-byte data file header), 192-byte name entries, and 64-bit ids."""

    def __init__(self, version, data_layout=1):
        later = version == 27
        self.version = version
        # The data-file layout (FORGE.md 7, pyUbiForge2's DataFileFormat 0-3): not stored anywhere; found by
        # trying each on the data files (read_archive).
        self.data_layout = data_layout
        self.section_pointer = 36 if later else 32
        self.index_entry = 20 if later else 16
        self.index_format = "<QQI" if later else "<QII"
        self.name_entry = 192 if later else 188
        self.data_file_header = 0 if later else 440
        self.id_digits = 16 if later else 8

    def id_text(self, file_id):
        return f"0x{file_id:0{self.id_digits}x}"
BLOCK_SET_HEADER = 15  # magic, u16 version, u8 compression, u16 block_size, u16 max_size
COMPRESSION_NAMES = {0: "lzo1x", 1: "lzo1x", 2: "lzo2a", 5: "lzo1c"}
# The four checksum candidates of FORGE.md section 2, in the order they are reported.
CHECKSUM_RULES = (
    ("adler32-0-compressed", 0, "compressed"),
    ("adler32-1-compressed", 1, "compressed"),
    ("adler32-0-decompressed", 0, "decompressed"),
    ("adler32-1-decompressed", 1, "decompressed"),
)
# A chunk states its decompressed size in a u32; this reader refuses to allocate more than this for one
# chunk (FORGE.md: nothing is allocated on a size the bytes cannot back; LZO's own ratio bound is ~255).
CHUNK_LIMIT = 1 << 30


class ForgeError(Exception):
    """A failed check: the message is the whole one-line diagnosis after the archive name."""


class Lzo:
    """liblzo2's safe decoders (and, for the self-test's fixtures, its compressors) through ctypes."""

    def __init__(self):
        try:
            self.lib = ctypes.CDLL("liblzo2.so.2")
        except OSError as e:
            raise ForgeError(f"cannot load liblzo2.so.2 (Debian package liblzo2-2): {e}") from None
        lib = self.lib
        lib.lzo_version.restype = ctypes.c_uint
        init = getattr(lib, "__lzo_init_v2")
        init.restype = ctypes.c_int
        init.argtypes = [ctypes.c_uint] + [ctypes.c_int] * 9
        pointer = ctypes.sizeof(ctypes.c_void_p)
        size_t = ctypes.sizeof(ctypes.c_size_t)
        # lzo_init()'s arguments: short, int, long, lzo_uint32_t, lzo_uint, dict entry, char*, voidp,
        # lzo_callback_t (three function pointers, a pointer and two lzo_xint).
        rc = init(lib.lzo_version(), ctypes.sizeof(ctypes.c_short), ctypes.sizeof(ctypes.c_int),
                  ctypes.sizeof(ctypes.c_long), 4, size_t, pointer, pointer, pointer, 4 * pointer + 2 * size_t)
        if rc != 0:
            raise ForgeError(f"liblzo2: lzo_init failed with {rc}")
        signature = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t),
                     ctypes.c_void_p]
        self.decoders = {}
        for name in ("lzo1x", "lzo2a", "lzo1c"):
            f = getattr(lib, f"{name}_decompress_safe")
            f.restype, f.argtypes = ctypes.c_int, signature
            self.decoders[name] = f
        # Compressors and the work memory each needs (lzo1x.h, lzo2a.h, lzo1c.h on a 64-bit build).
        self.encoders = {}
        for name, memory in (("lzo1x_1", 16384 * pointer), ("lzo1x_999", 14 * 16384 * 2),
                             ("lzo2a_999", 8 * 16384 * 2), ("lzo1c_999", 5 * 16384 * 2)):
            f = getattr(lib, f"{name}_compress")
            f.restype, f.argtypes = ctypes.c_int, signature
            self.encoders[name] = (f, memory)

    def decompress(self, algorithm, src, size):
        """The bytes `src` decodes to with `algorithm`, which must be exactly `size` bytes; else a message."""
        out = ctypes.create_string_buffer(max(size, 1))
        out_len = ctypes.c_size_t(size)
        rc = self.decoders[algorithm](bytes(src), len(src), out, ctypes.byref(out_len), None)
        if rc != 0:
            raise ValueError(f"{algorithm}_decompress_safe returned {rc} (stated size {size})")
        if out_len.value != size:
            raise ValueError(f"decompresses to {out_len.value} bytes, not the stated {size}")
        return out.raw[:size]

    def compress(self, method, src):
        f, memory = self.encoders[method]
        out = ctypes.create_string_buffer(len(src) + len(src) // 16 + 64 + 3)
        out_len = ctypes.c_size_t(len(out))
        work = ctypes.create_string_buffer(memory)
        rc = f(bytes(src), len(src), out, ctypes.byref(out_len), ctypes.cast(work, ctypes.c_void_p))
        if rc != 0:
            raise ForgeError(f"{method}_compress returned {rc}")
        return out.raw[:out_len.value]


class Cursor:
    """Little-endian reads over buf[start:end], each checked against the bytes left; `where` names the place."""

    def __init__(self, buf, start, end, where):
        self.buf, self.pos, self.end, self.where = buf, start, end, where

    def need(self, n, what):
        if n < 0 or n > self.end - self.pos:
            raise ForgeError(f"offset {self.pos:#x}: {self.where}: {what} needs {n} bytes, "
                             f"{self.end - self.pos} left")

    def take(self, n, what):
        self.need(n, what)
        data = self.buf[self.pos:self.pos + n]
        self.pos += n
        return data

    def unpack(self, fmt, what):
        size = struct.calcsize("<" + fmt)
        self.need(size, what)
        value = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += size
        return value[0] if len(value) == 1 else value


def c_name(raw):
    """A NUL-padded name field as text (bytes up to the first NUL; Latin-1 keeps every byte)."""
    return raw.split(b"\0", 1)[0].decode("latin-1")


def read_tables(buf):
    """Header and table sections (FORGE.md section 1): the index and name entries in index order."""
    size = len(buf)
    if len(buf) < 0x15 or buf[:8] != ARCHIVE_MAGIC:
        raise ForgeError(f"offset 0x0: magic is {bytes(buf[:8])!r}, not {ARCHIVE_MAGIC!r}")
    version, first_header = struct.unpack_from("<iQ", buf, 9)
    if version not in VERSIONS:
        raise ForgeError(f"offset 0x9: archive version {version} is not supported (only {VERSIONS})")
    layout = Layout(version)
    if first_header < 0x15 or first_header + layout.section_pointer + 8 > size:
        raise ForgeError(f"offset 0xd: file-data header offset {first_header:#x} does not lie inside the "
                         f"file ({size:#x} bytes, {layout.section_pointer + 8} needed after 0x15)")
    (section,) = struct.unpack_from("<q", buf, first_header + layout.section_pointer)
    pointer_at = first_header + layout.section_pointer
    seen = set()
    entries = []
    while section != -1:
        if section in seen:
            raise ForgeError(f"offset {pointer_at:#x}: table sections form a cycle back to {section:#x}")
        seen.add(section)
        if section < 0 or section + SECTION_SIZE > size:
            raise ForgeError(f"offset {pointer_at:#x}: table section offset {section:#x} does not lie inside "
                             f"the file ({size:#x} bytes)")
        count, index_table, next_section, name_table = (
            struct.unpack_from("<i", buf, section)[0], struct.unpack_from("<q", buf, section + 8)[0],
            struct.unpack_from("<q", buf, section + 16)[0], struct.unpack_from("<q", buf, section + 32)[0])
        if count < 0:
            raise ForgeError(f"offset {section:#x}: table section count {count} is negative")
        for table, width, what, field in ((index_table, layout.index_entry, "index", 8),
                                          (name_table, layout.name_entry, "name", 32)):
            if table < 0 or table + count * width > size:
                raise ForgeError(f"offset {section + field:#x}: {what} table at {table:#x} with count {count} "
                                 f"({count * width} bytes) does not fit in the file ({size:#x} bytes)")
        for i in range(count):
            offset, file_id, stored = struct.unpack_from(layout.index_format, buf, index_table + i * layout.index_entry)
            name_at = name_table + i * layout.name_entry
            (raw_size,) = struct.unpack_from("<I", buf, name_at)
            (file_type,) = struct.unpack_from("<I", buf, name_at + 16)
            entries.append({
                "index_entry_at": index_table + i * layout.index_entry, "offset": offset, "file_id": file_id,
                "stored_size": stored, "raw_size": raw_size, "file_type": file_type,
                "name": c_name(buf[name_at + 44:name_at + 44 + 128])})
        pointer_at = section + 16
        section = next_section
    return layout, entries


def check_places(buf, layout, entries):
    """Every data file (440-byte header, none in version 27, + stored bytes) inside the file, and no two
    overlapping."""
    size = len(buf)
    for n, e in enumerate(entries):
        end = e["offset"] + layout.data_file_header + e["stored_size"]
        if end > size:
            raise ForgeError(f"offset {e['index_entry_at']:#x}: data file {n} ({e['name']}) at {e['offset']:#x} "
                             f"with {e['stored_size']} stored bytes ends at {end:#x}, past the file's end {size:#x}")
        e["end"] = end
    ordered = sorted(range(len(entries)), key=lambda n: entries[n]["offset"])
    for a, b in zip(ordered, ordered[1:]):
        if entries[b]["offset"] < entries[a]["end"]:
            raise ForgeError(f"offset {entries[b]['offset']:#x}: data file {b} ({entries[b]['name']}) overlaps "
                             f"data file {a} ({entries[a]['name']}, {entries[a]['offset']:#x}..{entries[a]['end']:#x})")


class Checksums:
    """The checksummed blocks seen so far: for each, where it is and which candidate rules it matches."""

    def __init__(self):
        self.matching = {rule for rule, _, _ in CHECKSUM_RULES}  # those every block matches
        self.seen = []  # (archive offset, "data file n (...) set s block b", set of matching rules)

    @property
    def blocks(self):
        return len(self.seen)

    def add(self, stored, compressed, decompressed, at, where):
        matched = {rule for rule, start, over in CHECKSUM_RULES
                   if zlib.adler32(compressed if over == "compressed" else decompressed, start) == stored}
        self.matching &= matched
        self.seen.append((at, where, matched))

    def extend(self, other):
        self.matching &= other.matching
        self.seen.extend(other.seen)

    def report(self):
        """The matching rules in a fixed order; None when there was no block to decide on."""
        if self.blocks == 0:
            return None
        return [rule for rule, _, _ in CHECKSUM_RULES if rule in self.matching]

    def vote(self):
        """FORGE.md section 2: the candidate the most blocks match, if more than half do (ties: the first in
        CHECKSUM_RULES order), with its count; (None, best count) when none does."""
        counts = [sum(rule in m for _, _, m in self.seen) for rule, _, _ in CHECKSUM_RULES]
        best = max(range(len(counts)), key=lambda i: (counts[i], -i))
        if 2 * counts[best] > self.blocks:
            return CHECKSUM_RULES[best][0], counts[best]
        return None, counts[best]

    def check(self):
        """The archive's rule as a report ([rule], [] for none, None without blocks); a block the rule does
        not match is damaged: ForgeError naming it, its offset and the rule with its count."""
        if self.blocks == 0:
            return None
        rule, count = self.vote()
        if rule is None:
            return []
        for at, where, matched in self.seen:
            if rule not in matched:
                raise ForgeError(f"offset {at:#x}: {where}: damaged: its checksum does not match the archive's "
                                 f"rule {rule} ({count} of {self.blocks} blocks)")
        return [rule]


def read_block_set(cur, layout, lzo, checksums, where, out):
    """One block set at cur.pos (FORGE.md section 2), decompressed onto `out`; returns its description."""
    start = cur.pos
    cur.where = where
    magic = cur.take(8, "block set magic")
    if magic != COMPRESSION_MAGIC:
        raise ForgeError(f"offset {start:#x}: {where}: block set magic is {magic.hex()}, "
                         f"not {COMPRESSION_MAGIC.hex()}")
    version, compression, block_size, max_size = cur.unpack("HBHH", "block set header")
    if version != 1:
        raise ForgeError(f"offset {start + 8:#x}: {where}: block set version {version}, not 1")
    if compression not in COMPRESSION_NAMES:
        raise ForgeError(f"offset {start + 10:#x}: {where}: compression id {compression} is not 0, 1, 2 or 5")
    algorithm = COMPRESSION_NAMES[compression]
    described = {"compression": algorithm, "compression_id": compression, "block_size": block_size,
                 "max_size": max_size}
    if max_size != 0:
        blocks = cur.unpack("I" if layout.data_layout == 3 else "H", "block count")
        sizes = [cur.unpack("HH", f"size pair of block {i}") for i in range(blocks)]
        for i, (uncompressed, compressed) in enumerate(sizes):
            block_at = cur.pos
            stored_sum = cur.unpack("I", f"checksum of block {i}")
            data = cur.take(compressed, f"compressed bytes of block {i}")
            if uncompressed == compressed:
                plain = data
            else:
                try:
                    plain = lzo.decompress(algorithm, data, uncompressed)
                except ValueError as e:
                    raise ForgeError(f"offset {block_at:#x}: {where}: block {i}: {e}") from None
            checksums.add(stored_sum, data, plain, block_at, f"{where} block {i}")
            out.append(plain)
        described.update(form="blocks", blocks=blocks)
    else:
        chunks = 0
        while cur.pos < cur.end:
            chunk_at = cur.pos
            kind = cur.unpack("B", f"kind of chunk {chunks}")
            if kind == 0:
                length = cur.unpack("I" if layout.data_layout == 3 else "H", f"size of chunk {chunks}")
                out.append(cur.take(length, f"plain bytes of chunk {chunks}"))
            elif kind == 1:
                compressed, uncompressed, stored_sum = cur.unpack("III", f"header of chunk {chunks}")
                data = cur.take(compressed, f"compressed bytes of chunk {chunks}")
                if uncompressed > CHUNK_LIMIT:
                    raise ForgeError(f"offset {chunk_at:#x}: {where}: chunk {chunks} claims {uncompressed} "
                                     f"decompressed bytes, over this reader's limit of {CHUNK_LIMIT}")
                try:
                    plain = lzo.decompress(algorithm, data, uncompressed)
                except ValueError as e:
                    raise ForgeError(f"offset {chunk_at:#x}: {where}: chunk {chunks}: {e}") from None
                checksums.add(stored_sum, data, plain, chunk_at, f"{where} chunk {chunks}")
                out.append(plain)
            else:
                raise ForgeError(f"offset {chunk_at:#x}: {where}: chunk {chunks} kind {kind} is neither 0 nor 1")
            chunks += 1
        described.update(form="chunks", blocks=chunks)
    return described


def read_data_file(buf, layout, n, e, lzo):
    """The stored bytes of data file n decoded (FORGE.md section 2): (decompressed bytes, description)."""
    where = f"data file {n} ({e['name']}, {layout.id_text(e['file_id'])})"
    start = e["offset"] + layout.data_file_header
    cur = Cursor(buf, start, start + e["stored_size"], where)
    prefix = 0
    if layout.data_layout == 1:  # [u32 n][8n]
        prefix = cur.unpack("I", "prefix count")
        cur.take(8 * prefix, f"{prefix} prefix pairs")
    elif layout.data_layout == 2:  # [u32 b][b bytes]
        prefix = cur.unpack("I", "prefix byte count")
        cur.take(prefix, f"{prefix} prefix bytes")
    checksums = Checksums()
    out = []
    sets = []
    if cur.end - cur.pos >= 8 and buf[cur.pos:cur.pos + 8] == COMPRESSION_MAGIC:
        sets.append(read_block_set(cur, layout, lzo, checksums, where + " set 0", out))
        if sets[0]["max_size"] != 0:
            sets.append(read_block_set(cur, layout, lzo, checksums, where + " set 1", out))
        cur.where = where
        if cur.pos != cur.end:
            raise ForgeError(f"offset {cur.pos:#x}: {where}: {cur.end - cur.pos} stored bytes follow the "
                             f"last block set")
        compression = "+".join(dict.fromkeys(s["compression"] for s in sets))
    else:
        data = buf[cur.pos:cur.end]
        found = data.find(COMPRESSION_MAGIC)
        if found >= 0:
            raise ForgeError(f"offset {cur.pos + found:#x}: {where}: the plain data file contains the "
                             f"compression magic")
        out.append(data)
        compression = "plain"
    return b"".join(out), {"compression": compression, "prefix_pairs": prefix, "block_sets": sets,
                           "checksums": checksums}


def count_entries(data, layout, flag_zero=False, sizes=None):
    """The decompressed data file's entry table (FORGE.md section 3): number of entries, or why not.

    Informational (list reports it, nothing fails on it). FORGE.md's flag rule is read as written: "if
    flag = 1: [...]; any other flag: an error", so flag 0 is refused here. `sizes`, a list, receives each
    entry's (data_size, bytes of its resource header and body)."""
    cur = Cursor(data, 0, len(data), "entry table")
    data_sizes = []
    try:
        count = cur.unpack("H", "entry count")
        for i in range(count):  # FORGE.md 7's table of layouts
            if layout.data_layout == 0:
                data_sizes.append(cur.unpack("II", f"entry {i} of the table")[1])
            elif layout.data_layout == 1:
                data_sizes.append(cur.unpack("IIh", f"entry {i} of the table")[1])
            else:
                data_sizes.append(cur.unpack("QI", f"entry {i} of the table")[1])
                e = cur.unpack("h", f"entry {i} e")
                if e > 0:
                    cur.take(2 * e, f"entry {i} e pairs")
        if layout.version == 26 and layout.data_layout != 0:
            x = cur.unpack("I", "version 26 byte count")
            cur.take(x, "version 26 bytes")
        if layout.data_layout == 1:
            kept = cur.unpack("I", "kept byte count")
            cur.take(kept, "kept bytes")
        for i in range(count):
            resource_at = cur.pos
            _, file_size, name_length = cur.unpack("III", f"entry {i} header")
            cur.take(name_length, f"entry {i} name")
            flag = cur.unpack("B", f"entry {i} flag")
            if flag == 0 and flag_zero:
                cur.take(file_size, f"entry {i} body")
                if sizes is not None:
                    sizes.append((data_sizes[i], cur.pos - resource_at))
                continue
            if flag != 1:
                raise ForgeError(f"offset {cur.pos - 1:#x}: entry {i} flag is {flag}, not 1")
            cur.take(3, f"entry {i} flag bytes")
            k = cur.unpack("I", f"entry {i} k")
            cur.take(12 * k, f"entry {i} {k} triples")
            cur.take(file_size, f"entry {i} body")
            if sizes is not None:
                sizes.append((data_sizes[i], cur.pos - resource_at))
        if cur.pos != len(data):
            raise ForgeError(f"offset {cur.pos:#x}: {len(data) - cur.pos} bytes follow the last body")
    except ForgeError as e:
        return None, str(e)
    return count, None


# Each archive version's likeliest data-file layouts first (pyUbiForge2's game classes).
LAYOUTS_TO_TRY = {25: (1, 0, 2, 3), 26: (1, 2, 3, 0), 27: (3, 2, 1, 0)}


def find_layout(buf, layout, entries, lzo):
    """The data-file layout (FORGE.md 7: not stored; the one whose stored form and entry table read
    exactly, those where each entry's data_size is its resource's size first, FORGE.md 5): the first of the
    version's candidates that reads the first data file that reads in any; failing
    that, the first in which every data file's stored form reads, one at least compressed.
    Flag 0 entries are let through here (gen writes them; count_entries reports them)."""
    candidates = LAYOUTS_TO_TRY[layout.version]
    for n, e in enumerate(entries):
        if e["stored_size"] == 0:
            continue
        parses = None  # the first that parses, when in none every data_size is its resource's size
        for candidate in candidates:
            layout.data_layout = candidate
            try:
                data, _ = read_data_file(buf, layout, n, e, lzo)
            except ForgeError:
                continue
            sizes = []
            if count_entries(data, layout, flag_zero=True, sizes=sizes)[1] is None:
                if all(a == b for a, b in sizes):
                    return candidate
                parses = candidate if parses is None else parses
        if parses is not None:
            return parses
    # Raw data files (put --raw) have no entry table to parse: the first layout in which every data file's
    # stored form reads, one at least compressed.
    for candidate in candidates:
        layout.data_layout = candidate
        compressed = False
        try:
            for n, e in enumerate(entries):
                if e["stored_size"] != 0:
                    compressed |= bool(read_data_file(buf, layout, n, e, lzo)[1]["block_sets"])
        except ForgeError:
            continue
        if compressed:  # plain bytes read in any layout without a prefix: only block sets tell
            return candidate
    return candidates[0]


def read_archive(buf, lzo):
    """Every data file of the archive in index order, decoded and described; raises ForgeError."""
    layout, entries = read_tables(buf)
    check_places(buf, layout, entries)
    layout.data_layout = find_layout(buf, layout, entries, lzo)
    archive_sums = Checksums()
    files = []
    for n, e in enumerate(entries):
        data, d = read_data_file(buf, layout, n, e, lzo)
        sums = d["checksums"]
        archive_sums.extend(sums)
        entries_count, entries_error = count_entries(data, layout)
        files.append({
            "index": n, "file_id": layout.id_text(e["file_id"]), "name": e["name"],
            "header_name": c_name(buf[e["offset"]:e["offset"] + 128]) if layout.data_file_header else None,
            "file_type": e["file_type"],
            "offset": e["offset"], "stored_size": e["stored_size"], "raw_size": e["raw_size"],
            "decompressed_size": len(data), "compression": d["compression"], "prefix_pairs": d["prefix_pairs"],
            "block_sets": d["block_sets"], "checksummed_blocks": sums.blocks, "checksum_rules": sums.report(),
            "entries": entries_count, "entries_error": entries_error,
            "sha256": hashlib.sha256(data).hexdigest(), "data": data})
    return {"size": len(buf), "version": layout.version, "layout": layout.data_layout,
            "checksummed_blocks": archive_sums.blocks,
            "checksum_rules": archive_sums.check(), "datafiles": files}


def extract_name(name, file_id, taken):
    """DIR/<name>.data, with anything but [A-Za-z0-9._-] replaced; the id decides clashes and empty names."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    if safe in ("", ".", ".."):
        safe = f"{file_id:#010x}"
    if safe in taken:
        safe = f"{safe}-{file_id:#010x}"
    taken.add(safe)
    return safe + ".data"


def main(argv):
    usage = "usage: forge_second_reader.py list FORGE | extract FORGE DIR"
    if len(argv) < 2 or (argv[0], len(argv)) not in (("list", 2), ("extract", 3)):
        print(usage, file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, "rb") as f:
            buf = f.read()
        archive = read_archive(buf, Lzo())
    except (OSError, ForgeError) as e:
        print(f"forge_second_reader: {path}: {e}", file=sys.stderr)
        return 1
    if argv[0] == "list":
        for d in archive["datafiles"]:
            del d["data"]
        json.dump({"archive": path, **archive}, sys.stdout, indent=1)
        print()
        return 0
    os.makedirs(argv[2], exist_ok=True)
    taken = set()
    for d in archive["datafiles"]:
        with open(os.path.join(argv[2], extract_name(d["name"], int(d["file_id"], 16), taken)), "wb") as f:
            f.write(d["data"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
