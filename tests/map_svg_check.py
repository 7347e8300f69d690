#!/usr/bin/env python3
"""The SVG of `anvilrt map` read by an XML parser (Python's xml.etree), not by the map's own tests' regular
expressions: for every corpus file (level files, data files of archives) and for a map before and after a
patch, the document parses, its root is an SVG element, and every mark (an element with data-key) has a
whole-number data-index and a <title> child that names its key and index; a map without patches holds at
most one mark per instance.

    map_svg_check.py ANVILRT CORPUS_DIR WORK_DIR

Exit 0 when every map passes, 1 with the failures listed.
"""
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def check_map(path, compared):
    failures = []
    root = ET.parse(path).getroot()
    if root.tag != SVG + "svg":
        return [f"{path}: the root is {root.tag}, not svg"], 0
    seen = set()
    marks = 0
    for element in root.iter():
        key = element.get("data-key")
        if key is None:
            continue
        marks += 1
        index = element.get("data-index", "")
        if not index.isdigit():
            failures.append(f"{path}: {key}: data-index {index!r} is not a whole number")
            continue
        title = element.find(SVG + "title")
        if title is None or not (title.text or "").startswith(f"{key} instance {index}"):
            failures.append(f"{path}: {key}/{index}: its title does not name it ({None if title is None else title.text!r})")
        name = (title.text or "").split(" in ", 1)[1].split(",")[0] if title is not None and " in " in (title.text or "") else ""
        identity = (name, key, index, "removed" in element.get("class", "").split())
        if identity in seen and not compared:
            failures.append(f"{path}: {key}/{index} has more than one mark")
        seen.add(identity)
    return failures, marks


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    anvilrt, corpus, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    inputs = sorted(corpus.glob("ac2/*.bin")) + sorted(corpus.glob("sws/*.bin")) + sorted(corpus.glob("forge/*.forge"))
    runs = [(str(f), []) for f in inputs]
    runs.append((str(corpus / "ac2/lod_selector_slots.bin"), [str(corpus / "patches/move_instances.json")]))
    failures, total = [], 0
    for number, (source, patches) in enumerate(runs):
        out = work / f"map{number}.svg"
        command = [anvilrt, "map", source, "-o", str(out), "-q"] + (["--patch"] + patches if patches else [])
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"{' '.join(command)}: exit {result.returncode}: {result.stderr.strip()}")
            continue
        try:
            found, marks = check_map(out, bool(patches))
        except ET.ParseError as e:
            failures.append(f"{out} (of {source}): not XML: {e}")
            continue
        failures += found
        total += marks
    for line in failures:
        print(line)
    if failures:
        return 1
    if total == 0:
        print("map_svg_check: no mark in any map")
        return 1
    print(f"map_svg_check: {len(runs)} maps, {total} marks, every one XML with its key and index")
    return 0


if __name__ == "__main__":
    sys.exit(main())
