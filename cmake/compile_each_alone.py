#!/usr/bin/env python3
"""Compiles every source of a plain (non-unity) CMake build on its own, syntax only, to prove it compiles.

    cmake/compile_each_alone.py BUILD [JOBS]

BUILD is a build folder configured without the unity build and with CMAKE_EXPORT_COMPILE_COMMANDS=ON
(./dev test configures build-plain so). Each compile command runs as CMake wrote it, with -fsyntax-only in
place of its object file: what a packager's `cmake --build` compiles, parsed and checked alike (templates
instantiated; a warning is printed, an error fails), without the code generation and the links, which no source's
includes can break and which the unity builds already do. Sources the build generates (the web page's
assets) are left out: they exist only after a build, and the unity builds compile them; the header it
generates (the version's git description) must be made first (./dev test builds its target).
Exit 1 naming every source that fails, with the compiler's first lines; 0 when all compile.
"""
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys


def syntax_only(entry):
    """The entry's command with -fsyntax-only instead of -c and -o OBJECT."""
    words = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word == "-o":
            skip = True
        elif word != "-c":
            kept.append(word)
    return kept + ["-fsyntax-only"]


def check(entry):
    result = subprocess.run(syntax_only(entry), cwd=entry["directory"], capture_output=True, text=True)
    return entry["file"], result.returncode, result.stderr


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip())
    build = os.path.realpath(sys.argv[1])
    jobs = int(sys.argv[2]) if len(sys.argv) == 3 else os.cpu_count()
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = [e for e in json.load(f) if not os.path.realpath(e["file"]).startswith(build + os.sep)]
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for file, code, stderr in pool.map(check, entries):
            if code != 0:
                failed.append(file)
                print(f"== {file} does not compile on its own:\n" + "\n".join(stderr.splitlines()[:20]), file=sys.stderr)
    if failed:
        sys.exit(f"compile_each_alone: {len(failed)} of {len(entries)} sources do not compile on their own")
    print(f"compile_each_alone: all {len(entries)} sources compile on their own")


if __name__ == "__main__":
    main()
