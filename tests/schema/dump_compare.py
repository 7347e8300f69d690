"""Compares an object of `anvilrt dump` with the same object as another reader read it.

`compare(want, got, path)`: `want` is the dump's JSON value, `got` the other reader's value at the same
place, with the naming rules of `anvilrt schema --ksy` and `--hexpat` (a pointer is `<name>_tag` then
`<name>`, or an element type with `tag` and `value`; a class switch `class_id` then `class_body`; an array
used as an element a type with `items`). Raises Mismatch; returns the number of values compared.
"""

import struct
import zlib


def f32_bits(x):
    return struct.pack("<f", x)


class Mismatch(Exception):
    pass


def compare(want, got, path, depth=0):
    """`want` is the dump's JSON value, `got` what the other reader read at the same place."""
    # A pointer read through its element type (a LOD slot): tag, and value when the tag is 00.
    if type(got).__name__.startswith("PointerTo"):
        if want is None:
            if got.tag != 3:
                raise Mismatch(f"{path}: null in the dump, pointer tag {got.tag} as read")
            return 1
        return compare(want, got.value, path, depth)
    # An array or byte run used as an element (ImHex and Kaitai cannot nest arrays): its `items`.
    if not isinstance(want, dict) and not isinstance(got, (list, bytes, int, float, type(None))) and hasattr(got, "items"):
        got = got.items
    if want is None:
        if got is not None:
            raise Mismatch(f"{path}: null in the dump, {got!r} as read")
        return 1
    if isinstance(want, dict):
        if got is None:
            raise Mismatch(f"{path}: an object in the dump, nothing as read")
        n = 0
        for key, value in want.items():
            if depth == 0 and key in ("offset", "length"):
                continue  # where the object lies: given to the other reader, not read by it
            if key == "class":
                if depth == 0:
                    continue  # the top-level class is the type the other reader was asked to read, which checks it
                cls = int(value, 16) if value.startswith("0x") else zlib.crc32(value.encode())
                if getattr(got, "class_id", None) != cls:
                    raise Mismatch(f"{path}/class: {value} (0x{cls:08x}) in the dump, "
                                   f"{getattr(got, 'class_id', None)!r} as read")
                n += 1
                continue
            if hasattr(got, key):
                read = getattr(got, key)
            elif hasattr(got, "class_body") and hasattr(got.class_body, key):
                read = getattr(got.class_body, key)
            elif isinstance(value, list) and hasattr(got, f"{key}_0"):
                # values unrolled, each followed by a constant of its place (the ImHex pattern)
                read = [getattr(got, f"{key}_{i}", None) for i in range(len(value))]
                if hasattr(got, f"{key}_{len(value)}"):
                    raise Mismatch(f"{path}/{key}: more values read than the dump's {len(value)}")
            elif value is None:
                read = None  # a field under a condition that did not hold
            else:
                raise Mismatch(f"{path}/{key}: in the dump, not read by the other reader")
            n += compare(value, read, f"{path}/{key}", depth + 1)
        return n
    if isinstance(want, list):
        if isinstance(got, bytes):
            got = list(got)  # a u8 array (ShownObject's tag) read as a byte run
        if not isinstance(got, list) or len(got) != len(want):
            raise Mismatch(f"{path}: {len(want)} elements in the dump, {got!r} as read")
        return sum(compare(w, g, f"{path}/{i}", depth + 1) for i, (w, g) in enumerate(zip(want, got)))
    if isinstance(want, str):
        if want.startswith("f32:0x"):
            bits = int(want[6:], 16)
            if bits & 0x7F800000 == 0x7F800000 and bits & 0x007FFFFF:
                # Python reads an f32 through a double, which sets a signalling NaN's quiet bit (the rest of
                # its payload is kept): compare with that bit set.
                bits |= 0x00400000
            if not isinstance(got, float) or f32_bits(got) != struct.pack("<I", bits):
                raise Mismatch(f"{path}: {want} in the dump, {got!r} as read")
            return 1
        if isinstance(got, int):
            if not want.startswith("0x") or int(want, 16) != got:
                raise Mismatch(f"{path}: {want} in the dump, 0x{got:x} as read")
            return 1
        if isinstance(got, bytes):
            if bytes.fromhex(want) != got:
                raise Mismatch(f"{path}: {want} in the dump, {got.hex()} as read")
            return 1
        raise Mismatch(f"{path}: {want!r} in the dump, {got!r} as read")
    if isinstance(want, bool):
        raise Mismatch(f"{path}: unexpected boolean")
    if isinstance(got, float):
        if f32_bits(float(want)) != f32_bits(got):
            raise Mismatch(f"{path}: {want!r} in the dump, {got!r} as read")
        return 1
    if isinstance(want, int) and isinstance(got, int) and want == got:
        return 1
    raise Mismatch(f"{path}: {want!r} in the dump, {got!r} as read")
