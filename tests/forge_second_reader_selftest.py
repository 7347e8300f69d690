#!/usr/bin/python3
"""Tests of forge_second_reader.py on archives built here, byte by byte, from FORGE.md.

The builder below writes what FORGE.md describes (both block-set forms, chunks, plain data files,
padding, chained table sections); the reader must give back exactly what was put in, and refuse each
broken variant with a message naming the place.
"""

import hashlib
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forge_second_reader as fsr  # noqa: E402

READER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forge_second_reader.py")
LZO = fsr.Lzo()
METHODS = {0: "lzo1x_1", 1: "lzo1x_999", 2: "lzo2a_999", 5: "lzo1c_999"}
RULES = {
    "adler32-0-compressed": lambda c, d: zlib.adler32(c, 0),
    "adler32-1-compressed": lambda c, d: zlib.adler32(c, 1),
    "adler32-0-decompressed": lambda c, d: zlib.adler32(d, 0),
    "adler32-1-decompressed": lambda c, d: zlib.adler32(d, 1),
}


# ---- builder -----------------------------------------------------------------------------------------

def content(seed, entries=3):
    """A decompressed data file (FORGE.md section 3) with compressible and random bodies."""
    rng = random.Random(seed)
    table = b"".join(struct.pack("<IIh", rng.getrandbits(32), rng.getrandbits(16), -1) for _ in range(entries))
    out = struct.pack("<H", entries) + table + struct.pack("<I", 5) + b"kept!"
    for i in range(entries):
        name = f"entry_{seed}_{i}".encode()
        body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(50, 300)))
        body += (b"Visual\0" * rng.randrange(100, 3000))[: rng.randrange(700, 9000)]
        out += struct.pack("<III", 0x1000 + i, len(body), len(name)) + name
        out += b"\x01abc" + struct.pack("<I", 2) + bytes(range(24)) + body
    return out


def set_header(compression, max_size, block_size=0x8000, version=1):
    return fsr.COMPRESSION_MAGIC + struct.pack("<HBHH", version, compression, block_size, max_size)


def block_set(pieces, compression=0, rule="adler32-0-compressed", method=None):
    """The max_size != 0 form: each piece one block, stored plain when compressing does not shrink it."""
    method = method or METHODS[compression]
    sizes, bodies = b"", b""
    for piece in pieces:
        packed = LZO.compress(method, piece)
        stored = packed if len(packed) < len(piece) else piece
        sizes += struct.pack("<HH", len(piece), len(stored))
        bodies += struct.pack("<I", RULES[rule](stored, piece)) + stored
    max_size = max((len(p) for p in pieces), default=1)
    return set_header(compression, max_size) + struct.pack("<H", len(pieces)) + sizes + bodies


def chunk_set(pieces, compression=0, rule="adler32-0-compressed", method=None):
    """The max_size = 0 form: (kind, bytes) pieces, kind 0 plain, kind 1 compressed."""
    method = method or METHODS[compression]
    out = set_header(compression, 0)
    for kind, piece in pieces:
        if kind == 0:
            out += b"\x00" + struct.pack("<H", len(piece)) + piece
        else:
            packed = LZO.compress(method, piece)
            out += b"\x01" + struct.pack("<III", len(packed), len(piece), RULES[rule](packed, piece)) + packed
    return out


def stored(body, prefix_pairs=0):
    """The stored bytes of a data file: [u32 n][8n bytes] then the block sets or the plain data file."""
    return struct.pack("<I", prefix_pairs) + bytes(range(8 * prefix_pairs)) + body


def split(data, *cuts):
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


class DataFile:
    def __init__(self, name, file_id, file_type, stored_bytes, padding=b"", raw_size=None):
        self.name, self.file_id, self.file_type = name, file_id, file_type
        self.stored, self.padding = stored_bytes, padding
        self.raw_size = len(stored_bytes) if raw_size is None else raw_size


def archive(files, sections=None, reverse_sections=False, first_header=0x20):
    """An archive: header, file-data header at `first_header`, then table sections (each with its index
    and name tables; `sections` gives how many data files each holds), then the data files with their
    440-byte headers and padding. Returns (bytes, places) where places records where things went."""
    sections = sections or [len(files)]
    assert sum(sections) == len(files)
    head = bytearray(b"scimitar" + b"\x07" + struct.pack("<iQ", 25, first_header))
    head += bytes(0x40 + i for i in range(first_header - len(head)))
    head += bytes(range(100, 132))
    tables_at = len(head) + 8
    section_sizes = [48 + n * (16 + 188) for n in sections]
    order = list(range(len(sections)))
    if reverse_sections:
        order.reverse()
    section_at, pos = {}, tables_at
    for s in order:
        section_at[s] = pos
        pos += section_sizes[s]
    file_at, data = [], bytearray()
    for f in files:
        file_at.append(pos + len(data))
        data += f.name.encode().ljust(128, b"\0") + bytes((i * 7) & 0xFF for i in range(312))
        data += f.stored + f.padding
    head += struct.pack("<q", section_at[0])
    tables = {}
    first = 0
    for s, count in enumerate(sections):
        at = section_at[s]
        index_at, names_at = at + 48, at + 48 + 16 * count
        nxt = section_at[s + 1] if s + 1 < len(sections) else -1
        sec = struct.pack("<iIqqQqQ", count, 0xAAAA0000 + s, index_at, nxt, 0x1111, names_at, 0x2222)
        index = b"".join(struct.pack("<QII", file_at[i], files[i].file_id, len(files[i].stored))
                         for i in range(first, first + count))
        names = b"".join(struct.pack("<I", files[i].raw_size) + b"\x11" * 12 + struct.pack("<I", files[i].file_type)
                         + b"\x22" * 24 + files[i].name.encode().ljust(128, b"\0") + b"\x33" * 16
                         for i in range(first, first + count))
        tables[at] = sec + index + names
        first += count
    out = bytearray(head)
    for at in sorted(tables):
        assert at == len(out)
        out += tables[at]
    out += data
    return bytes(out), {"sections": section_at, "files": file_at, "pointer": first_header + 32}


# ---- tests -------------------------------------------------------------------------------------------

def mixed_files():
    """Every form FORGE.md names, with the decompressed bytes each must give back."""
    c = [content(seed) for seed in range(6)]
    noise = random.Random(99).randbytes(900)  # LZO cannot shrink it: its blocks are stored plain
    files = [
        DataFile("Two_Sets_LZO1X", 0x00000011, 0x1F, stored(
            block_set([c[0][:40]], 0) + block_set(split(c[0][40:], 1000, 5000), 0), prefix_pairs=2),
            padding=b"\0" * 13),
        DataFile("Chunks_LZO1X999", 0x00000022, 0x2F, stored(
            chunk_set([(1, p) if i % 2 == 0 else (0, p) for i, p in enumerate(split(c[1], 3000, 3100, 9000))],
                      1))),
        DataFile("Blocks_LZO2A", 0xDEADBEEF, 0x3F, stored(
            block_set([c[2][:100]], 2) + block_set(split(c[2][100:], 4096), 2)),
            padding=b"\xff" * 40),
        DataFile("Plain", 0x00000044, 0x4F, stored(c[3], prefix_pairs=1), raw_size=7),
        DataFile("Blocks_LZO1C", 0x00000055, 0x5F, stored(block_set([c[4]], 5) + chunk_set([(1, b"")], 5))),
        DataFile("Incompressible", 0x00000066, 0x6F, stored(
            block_set([noise[:600]], 0) + block_set([noise[600:], c[5]], 0))),
    ]
    expected = [c[0], c[1], c[2], c[3], c[4], noise + c[5]]
    return files, expected


class ReadBack(unittest.TestCase):
    def test_every_form_reads_back(self):
        files, expected = mixed_files()
        buf, places = archive(files, sections=[2, 3, 1], reverse_sections=True)
        got = fsr.read_archive(buf, LZO)
        self.assertEqual(len(got["datafiles"]), len(files))
        for n, (f, d) in enumerate(zip(files, got["datafiles"])):
            self.assertEqual(d["index"], n)
            self.assertEqual(d["name"], f.name)
            self.assertEqual(d["header_name"], f.name)
            self.assertEqual(d["file_id"], f"{f.file_id:#010x}")
            self.assertEqual(d["file_type"], f.file_type)
            self.assertEqual(d["offset"], places["files"][n])
            self.assertEqual(d["stored_size"], len(f.stored))
            self.assertEqual(d["raw_size"], f.raw_size)
            self.assertEqual(d["data"], expected[n])
            self.assertEqual(d["decompressed_size"], len(expected[n]))
            self.assertEqual(d["sha256"], hashlib.sha256(expected[n]).hexdigest())
        self.assertEqual([d["entries"] for d in got["datafiles"]], [3, 3, 3, 3, 3, None])
        self.assertEqual([d["compression"] for d in got["datafiles"]],
                         ["lzo1x", "lzo1x", "lzo2a", "plain", "lzo1c", "lzo1x"])
        self.assertEqual([[s["form"] for s in d["block_sets"]] for d in got["datafiles"]],
                         [["blocks", "blocks"], ["chunks"], ["blocks", "blocks"], [], ["blocks", "chunks"],
                          ["blocks", "blocks"]])
        self.assertEqual(got["checksum_rules"], ["adler32-0-compressed"])
        self.assertIsNone(got["datafiles"][3]["checksum_rules"])

    def test_each_checksum_rule_is_found(self):
        for rule in RULES:
            with self.subTest(rule=rule):
                c = content(7)
                f = DataFile("x", 1, 2, stored(block_set(split(c, 50), 0, rule) + chunk_set([(1, c[50:])], 0, rule)))
                got = fsr.read_archive(archive([f])[0], LZO)
                self.assertEqual(got["checksum_rules"], [rule])
                self.assertEqual(got["checksummed_blocks"], 3)

    def test_plain_blocks_match_both_checksum_inputs(self):
        noise = random.Random(5).randbytes(200)
        f = DataFile("x", 1, 2, stored(block_set([noise[:100]], 0, "adler32-1-decompressed")
                                        + block_set([noise[100:]], 0, "adler32-1-decompressed")))
        got = fsr.read_archive(archive([f])[0], LZO)
        # Both candidates match every block: the tie goes to the first in FORGE.md's order.
        self.assertEqual(got["checksum_rules"], ["adler32-1-compressed"])
        self.assertEqual(got["datafiles"][0]["checksum_rules"], ["adler32-1-compressed", "adler32-1-decompressed"])

    def test_the_rule_most_blocks_match_wins_and_the_others_are_damaged(self):
        c = content(9)
        good = [DataFile(f"g{i}", i, 0, stored(chunk_set([(1, c)], 0, "adler32-0-compressed"))) for i in range(2)]
        odd = DataFile("odd", 9, 0, stored(chunk_set([(1, c)], 0, "adler32-1-decompressed")))
        buf = archive(good + [odd])[0]
        with self.assertRaises(fsr.ForgeError) as caught:
            fsr.read_archive(buf, LZO)
        message = str(caught.exception)
        self.assertIn("data file 2 (odd", message)
        self.assertIn("chunk 0: damaged", message)
        self.assertIn("adler32-0-compressed (2 of 3 blocks)", message)

    def test_no_rule_when_data_files_disagree(self):
        c = content(8)
        files = [DataFile(f"f{i}", i, 0, stored(chunk_set([(1, c)], 0, rule))) for i, rule in
                 enumerate(["adler32-0-compressed", "adler32-1-decompressed"])]
        got = fsr.read_archive(archive(files)[0], LZO)
        self.assertEqual(got["checksum_rules"], [])
        self.assertEqual([d["checksum_rules"] for d in got["datafiles"]],
                         [["adler32-0-compressed"], ["adler32-1-decompressed"]])

    def test_no_checksummed_blocks_decides_nothing(self):
        got = fsr.read_archive(archive([DataFile("p", 1, 0, stored(content(1)))])[0], LZO)
        self.assertIsNone(got["checksum_rules"])
        self.assertEqual(got["checksummed_blocks"], 0)

    def test_empty_archive(self):
        self.assertEqual(fsr.read_archive(archive([], sections=[0])[0], LZO)["datafiles"], [])


class Refusals(unittest.TestCase):
    def refused(self, buf, *words):
        with self.assertRaises(fsr.ForgeError) as caught:
            fsr.read_archive(bytes(buf), LZO)
        message = str(caught.exception)
        self.assertTrue(message.startswith("offset 0x"), message)
        self.assertNotIn("\n", message)
        for w in words:
            self.assertIn(w, message)
        return message

    def one(self, body, **kw):
        return archive([DataFile("df", 0x77, 1, stored(body), **kw)])

    def patch(self, buf, at, fmt, *values):
        buf = bytearray(buf)
        struct.pack_into("<" + fmt, buf, at, *values)
        return buf

    def test_magic_and_version(self):
        buf, _ = archive([])
        self.refused(b"scimitaR" + buf[8:], "offset 0x0", "magic")
        for version in (24, 28):
            self.refused(self.patch(buf, 9, "i", version), "offset 0x9", f"version {version}")
        # Version 26 has version 25's tables (FORGE.md 7): the same archive reads as one of 26.
        self.assertEqual(fsr.read_archive(self.patch(buf, 9, "i", 26), fsr.Lzo())["version"], 26)
        self.refused(buf[:0x10], "offset 0x0")

    def test_header_and_section_offsets(self):
        buf, places = archive([DataFile("a", 1, 0, stored(b"x"))])
        self.refused(self.patch(buf, 0xD, "Q", len(buf)), "offset 0xd")
        self.refused(self.patch(buf, 0xD, "Q", 0x10), "offset 0xd")
        self.refused(self.patch(buf, places["pointer"], "q", len(buf) - 47), "does not lie inside")
        self.refused(self.patch(buf, places["pointer"], "q", -2), "does not lie inside")

    def test_section_cycle(self):
        files = [DataFile(f"f{i}", i, 0, stored(b"x")) for i in range(3)]
        buf, places = archive(files, sections=[1, 1, 1])
        looped = self.patch(buf, places["sections"][2] + 16, "q", places["sections"][0])
        self.refused(looped, f"offset {places['sections'][2] + 16:#x}", "cycle")
        self.refused(self.patch(buf, places["sections"][0] + 16, "q", places["sections"][0]), "cycle")

    def test_counts_that_cannot_fit(self):
        buf, places = archive([DataFile("a", 1, 0, stored(b"x"))])
        at = places["sections"][0]
        self.refused(self.patch(buf, at, "i", -1), f"offset {at:#x}", "negative")
        self.refused(self.patch(buf, at, "i", 0x7FFFFFFF), "does not fit")
        self.refused(self.patch(buf, at + 32, "q", len(buf) - 100), f"offset {at + 32:#x}", "name table")
        self.refused(self.patch(buf, at + 8, "q", -16), f"offset {at + 8:#x}", "index table")

    def test_data_file_outside_or_overlapping(self):
        files = [DataFile(f"f{i}", i, 0, stored(content(i))) for i in range(2)]
        buf, places = archive(files)
        index = places["sections"][0] + 48
        self.refused(self.patch(buf, index + 12, "I", len(buf)), "past the file's end")
        self.refused(self.patch(buf, index, "Q", (1 << 64) - 8), "past the file's end")
        self.refused(self.patch(buf, index + 16, "Q", places["files"][0] + 100), "overlaps")

    def test_block_set_header(self):
        c = content(3)
        self.refused(self.one(block_set([c], 0)[:8] + struct.pack("<HBHH", 2, 0, 0x8000, 1))[0], "version 2")
        for bad in (3, 4, 6, 255):
            raw = bytearray(block_set([c], 0))
            raw[10] = bad
            self.refused(self.one(bytes(raw) + chunk_set([]))[0], f"compression id {bad}")

    def test_block_must_decompress_to_its_size(self):
        c = content(4)
        good = bytearray(block_set([c], 0) + chunk_set([]))
        size_at = 15 + 2  # after the set header and the block count
        for stated in (len(c) - 1, len(c) + 1):
            bad = self.patch(good, size_at, "H", stated)
            self.refused(self.one(bytes(bad))[0], "df", "block 0")
        corrupt = bytearray(good)
        corrupt[15 + 2 + 4 + 4 + 30] ^= 0xFF
        corrupt[15 + 2 + 4 + 4 + 31] ^= 0xFF
        self.refused(self.one(bytes(corrupt))[0], "block 0")

    def test_chunk_must_decompress_to_its_size(self):
        c = content(5)
        good = chunk_set([(1, c)])
        for stated in (len(c) - 1, len(c) + 1, 0):
            self.refused(self.one(self.patch(good, 15 + 1 + 4, "I", stated))[0], "chunk 0")
        self.refused(self.one(self.patch(good, 15 + 1 + 4, "I", 0xFFFFFFFF))[0], "chunk 0", "limit")

    def test_truncated_and_extra_bytes(self):
        c = content(6)
        whole = block_set([c], 0) + block_set([c], 0)
        self.refused(self.one(whole[:-1])[0], "block 0", "needs")
        self.refused(self.one(block_set([c], 0))[0], "set 1", "needs")
        self.refused(self.one(whole + b"\0")[0], "follow the last block set")
        self.refused(self.one(chunk_set([(0, b"abc")]) + b"\x00\x10")[0], "chunk 1")
        self.refused(self.one(chunk_set([(0, b"abc")]) + b"\x02")[0], "chunk 1 kind 2")
        self.refused(archive([DataFile("empty", 1, 0, b"")])[0], "prefix count")
        self.refused(archive([DataFile("p", 1, 0, struct.pack("<I", 1000) + b"x" * 100)])[0], "prefix pairs")

    def test_plain_data_file_must_not_hold_the_magic(self):
        self.refused(self.one(b"abc" + fsr.COMPRESSION_MAGIC + b"def")[0], "compression magic")
        # Fewer than 8 bytes after the prefix: plain.
        got = fsr.read_archive(self.one(fsr.COMPRESSION_MAGIC[:7])[0], LZO)
        self.assertEqual(got["datafiles"][0]["compression"], "plain")


class CommandLine(unittest.TestCase):
    def run_reader(self, *args):
        return subprocess.run([sys.executable, READER, *args], capture_output=True, text=True)

    def test_list_and_extract(self):
        files, expected = mixed_files()
        files[4].name = "a/b: c"
        files.append(DataFile("Plain", 0x99, 0, stored(b"same name")))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "a.forge")
            with open(path, "wb") as f:
                f.write(archive(files)[0])
            listed = self.run_reader("list", path)
            self.assertEqual(listed.returncode, 0, listed.stderr)
            doc = json.loads(listed.stdout)
            self.assertEqual([d["name"] for d in doc["datafiles"]], [f.name for f in files])
            self.assertNotIn("data", doc["datafiles"][0])
            out = os.path.join(tmp, "out")
            extracted = self.run_reader("extract", path, out)
            self.assertEqual(extracted.returncode, 0, extracted.stderr)
            names = sorted(os.listdir(out))
            self.assertEqual(names, sorted(["Two_Sets_LZO1X.data", "Chunks_LZO1X999.data", "Blocks_LZO2A.data",
                                            "Plain.data", "a_b__c.data", "Incompressible.data",
                                            "Plain-0x00000099.data"]))
            for d in doc["datafiles"]:
                name = "Plain-0x00000099.data" if d["file_id"] == "0x00000099" else \
                    {"a/b: c": "a_b__c"}.get(d["name"], d["name"]) + ".data"
                with open(os.path.join(out, name), "rb") as f:
                    self.assertEqual(hashlib.sha256(f.read()).hexdigest(), d["sha256"])

    def test_errors_are_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.forge")
            with open(path, "wb") as f:
                f.write(b"not an archive at all")
            r = self.run_reader("list", path)
            self.assertEqual(r.returncode, 1)
            self.assertEqual(r.stdout, "")
            self.assertEqual(r.stderr, f"forge_second_reader: {path}: offset 0x0: magic is b'not an a', "
                                       f"not b'scimitar'\n")
            self.assertEqual(self.run_reader("list").returncode, 2)


if __name__ == "__main__":
    unittest.main()
