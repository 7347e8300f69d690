#!/usr/bin/python3
"""Every file of the repository that a comment, a document or a script names exists.

`references_check.py SOURCE_DIR`: reads every text file of the source tree (not .git, build folders or
.tools) and looks for names of files: paths that start with a folder of the repository
(`patch/engine.hpp`, `docs/format.md`) and bare names of sources (`engine.hpp`). Each must name a file
of the repository, or one the build generates (GENERATED). Placeholders are not names: a path with `*`
or an upper-case word (`tests/regress/TARGET/...`, `fuzz/NAME_fuzzer.cpp`), and a path whose last segment
has no extension (an executable, a folder). Prints each stale name as FILE:LINE: NAME and exits 1 when there is one.
"""
import os
import re
import sys

TOP = ("bench", "cli", "cmake", "codec", "corpus", "docs", "fuzz", "gen", "model", "patch", "pipeline", "reader",
       "schema", "stats", "tests", "writer")
# Made by the build, named where they are used.
GENERATED = {"anvilrt_git.hpp", "patch_bases.hpp", "fuzz/patch_bases.hpp", "anvilrt.py", "CTestTestfile.cmake"}
PATH = re.compile(r"(?<![\w./*-])((?:%s)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*])" % "|".join(TOP))
BARE = re.compile(r"(?<![\w./*-])([A-Za-z0-9][A-Za-z0-9_]*\.(?:hpp|cpp|py|cmake))\b")
PLACEHOLDER = re.compile(r"(?:^|[/_.-])[A-Z]{2,}(?:$|[/_.-])")


def files(root):
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                         not os.path.exists(os.path.join(folder, d, "CMakeCache.txt")))
        for name in sorted(names):
            if name != "LICENSE":
                yield os.path.relpath(os.path.join(folder, name), root)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = argv[1]
    tracked = list(files(root))
    basenames = {os.path.basename(f) for f in tracked}
    stale = []
    for f in tracked:
        try:
            with open(os.path.join(root, f), encoding="utf-8") as text:
                lines = text.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # not text
        for number, line in enumerate(lines, 1):
            for m in PATH.finditer(line):
                name = m.group(1).rstrip(".")
                last = name.split("/")[-1]
                if "*" in name or "." not in last or name in GENERATED or os.path.exists(os.path.join(root, name)):
                    continue
                if not PLACEHOLDER.search(name):
                    stale.append(f"{f}:{number}: {name}")
            for m in BARE.finditer(line):
                if m.group(1) not in basenames and m.group(1) not in GENERATED:
                    stale.append(f"{f}:{number}: {m.group(1)}")
    for s in stale:
        print(s)
    print(f"{len(stale)} names of files that do not exist" if stale else "every named file exists",
          file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
