#!/usr/bin/env python3
"""The layers (docs/design.md): every #include "folder/..." of a library folder names its own folder or a
layer below it. One static library per folder links only the layers below it, so an include against the
layers fails the link, except a header-only one: this check fails those too.

    platform < model < codec < reader, writer < patch < pipeline < gen, stats, schema, view < serve, scene < cli

Folders of one layer never include each other (reader and writer above all). Usage:
layers_check.py SOURCE_DIR; exit 0 when every include follows the layers, 1 with the offending lines.
"""
import pathlib
import re
import sys

LAYERS = [["platform"], ["model"], ["codec"], ["reader", "writer"], ["patch"], ["pipeline"],
          ["gen", "stats", "schema", "view"], ["serve", "scene"], ["cli"]]
RANK = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/[^"]*"')
SOURCES = {".hpp", ".cpp", ".h", ".cc", ".ipp", ".inc"}


def violations(root):
    for folder, rank in RANK.items():
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match or match.group(1) == folder:
                    continue
                target = match.group(1)
                if target not in RANK:
                    continue  # not a library folder (a generated header, say)
                if RANK[target] >= rank:
                    why = "the same layer" if RANK[target] == rank else "a layer above"
                    yield f"{path.relative_to(root)}:{number}: {line.strip()}  ({folder}/ includes {target}/, {why})"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    missing = [folder for folder in RANK if not (root / folder).is_dir()]
    if missing:
        print(f"layers_check: no folder {', '.join(missing)} under {root}", file=sys.stderr)
        return 2
    found = list(violations(root))
    for line in found:
        print(line)
    if found:
        print(f"layers_check: {len(found)} include(s) against the layers", file=sys.stderr)
        return 1
    print("layers_check: every include follows the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
