#!/usr/bin/env python3
"""`anvilrt serve --open` through the binary: the browser is started on the URL the first line prints.

platform/posix/open_browser.cpp starts `xdg-open URL` found on PATH (posix_spawnp, no shell). The test puts
its own `xdg-open` first on PATH, a script that writes its arguments to a file, so no browser starts and
the binary needs no hook for the test; then checks that the opener got exactly one argument, the printed
URL, and that the URL opens the editor. Without any `xdg-open` on PATH, the server says so on stderr, in
one line, and serves all the same.

usage: serve_open.py ANVILRT INPUT WORK_DIR
"""
import os
import pathlib
import shutil
import signal
import stat
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from serve_support import Served  # noqa: E402


def opener(folder, record):
    script = folder / "xdg-open"
    script.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done > "{record}.part"\n'
                      f'mv "{record}.part" "{record}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


def wait_for(path, seconds=20):
    end = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > end:
            raise AssertionError(f"{path} was never written: the opener did not run")
        time.sleep(0.05)
    return path.read_text()


def main():
    anvilrt, source, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    bin_dir = work / "bin"
    bin_dir.mkdir(parents=True)
    record = work / "opened.txt"
    opener(bin_dir, record)
    saved_path = os.environ.get("PATH", "")

    os.environ["PATH"] = f"{bin_dir}:{saved_path}"
    with Served(anvilrt, source, "--open") as served:
        arguments = wait_for(record).splitlines()
        assert arguments == [served.url], f"the opener got {arguments!r}, the URL printed is {served.url!r}"
        with urllib.request.urlopen(served.url, timeout=20) as answer:
            assert answer.status == 200 and b"<html" in answer.read().lower()
        assert served.stop() == 0
    print("ok   --open: xdg-open started with the printed URL alone, which opens the editor")

    # No opener at all: a warning, and the server still serves.
    empty = work / "empty"
    empty.mkdir()
    os.environ["PATH"] = str(empty)
    try:
        with Served(os.path.abspath(anvilrt), source, "--open") as served:
            with urllib.request.urlopen(served.url, timeout=20) as answer:
                assert answer.status == 200
            served.process.send_signal(signal.SIGTERM)
            assert served.process.wait(timeout=30) == 0
            said = served.process.stderr.read()
            served.process.stdout.close()
            served.process.stderr.close()
    finally:
        os.environ["PATH"] = saved_path
    lines = said.splitlines()
    assert len(lines) == 1 and "xdg-open" in lines[0] and source in lines[0], f"stderr: {said!r}"
    print("ok   --open without xdg-open: one line naming it on stderr, and the server serves all the same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
