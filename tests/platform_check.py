#!/usr/bin/env python3
"""The platform layer is the only place that knows the system (docs/design.md, The platform layer): outside
platform/, no source file tests which system it is built for (#if/#ifdef on _WIN32, __linux__, __unix__,
_MSC_VER, __APPLE__, __MINGW32__, ...) or includes a header of one system's API (<unistd.h>, <sys/...>,
<fcntl.h>, <signal.h>, <windows.h>, ...).

Exceptions, by folder name only:
  * tests/posix/ and tests/windows/: the tests that mean something on one system alone (device nodes,
    FIFOs, POSIX modes and signals; reserved device names, reparse points, locked files), built only on
    that system (tests/CMakeLists.txt takes the folder that platform/CMakeLists.txt names);
  * fuzz/: the fuzz harnesses, Linux-only by design (AFL++ and libFuzzer drivers);
  * bench/: the benchmarks, which measure this Linux machine (fork, wait4's resource usage).

Usage: platform_check.py SOURCE_DIR; exit 0 when clean, 1 with the offending lines.
"""
import pathlib
import re
import sys

SOURCES = {".hpp", ".cpp", ".h", ".cc", ".ipp", ".inc"}
ALLOWED = ("platform/", "tests/posix/", "tests/windows/", "fuzz/", "bench/")
SKIPPED = ("build", ".git", "corpus", ".tools")
SYSTEM_MACRO = re.compile(
    r"^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef)\b.*\b(_WIN32|_WIN64|WIN32|__WIN32__|__linux__|__linux|"
    r"__gnu_linux__|__unix__|__unix|__APPLE__|__MACH__|_MSC_VER|__MINGW32__|__MINGW64__|__CYGWIN__|"
    r"_POSIX_VERSION|__FreeBSD__|__ANDROID__)\b")
SYSTEM_HEADER = re.compile(
    r"^\s*#\s*include\s*<(unistd\.h|sys/[^>]+|fcntl\.h|signal\.h|csignal|termios\.h|dirent\.h|pthread\.h|"
    r"spawn\.h|poll\.h|pty\.h|dlfcn\.h|windows\.h|winbase\.h|winnt\.h|io\.h|direct\.h|shellapi\.h|"
    r"winsock2\.h|ws2tcpip\.h|processthreadsapi\.h|fileapi\.h|winternl\.h)>")


def violations(root):
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.suffix not in SOURCES or not path.is_file():
            continue
        if relative.startswith(ALLOWED) or relative.split("/")[0].startswith(SKIPPED):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if SYSTEM_MACRO.match(line):
                yield f"{relative}:{number}: {line.strip()}  (a system test outside platform/)"
            elif SYSTEM_HEADER.match(line):
                yield f"{relative}:{number}: {line.strip()}  (a system's header outside platform/)"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    if not (root / "platform").is_dir():
        print(f"platform_check: no folder platform under {root}", file=sys.stderr)
        return 2
    found = list(violations(root))
    for line in found:
        print(line)
    if found:
        print(f"platform_check: {len(found)} line(s) that choose a system outside platform/", file=sys.stderr)
        return 1
    print("platform_check: only platform/ knows the system")
    return 0


if __name__ == "__main__":
    sys.exit(main())
