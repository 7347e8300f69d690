#!/usr/bin/env python3
"""`anvilrt serve --open` through the binary: the browser is started on a file that sends it on to the URL
the first line prints, so that the token is never on a command line (which `ps` shows every user).

platform/posix/open_browser.cpp starts `xdg-open ARG` found on PATH (posix_spawnp, no shell). The test puts
its own `xdg-open` first on PATH, a script that writes its arguments to a file, so no browser starts and
the binary needs no hook for the test; then checks that the opener got exactly one argument, which holds
no token: the path of a file only this user can read (0600, in a folder of its own, 0700) whose page
redirects to the printed URL, which opens the editor; and that the file and its folder are gone once the
server stops. Without any `xdg-open` on PATH, the server says so on stderr, in one line, and serves all
the same.

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
        assert len(arguments) == 1 and served.token not in arguments[0], \
            f"the opener got {arguments!r}: the token must not be on its command line"
        page = pathlib.Path(arguments[0])
        assert page.is_absolute() and page.suffix == ".html", f"the opener got {arguments!r}, not an HTML file's path"
        mode, folder_mode = page.stat().st_mode, page.parent.stat().st_mode
        assert stat.S_ISREG(mode) and stat.S_IMODE(mode) == 0o600 and page.stat().st_uid == os.getuid(), \
            f"{page}: mode {oct(mode)}, it must be a regular file of mode 0600"
        assert stat.S_IMODE(folder_mode) == 0o700, f"{page.parent}: mode {oct(folder_mode)}, it must be 0700"
        html = page.read_text()
        assert f'http-equiv="refresh" content="0;url={served.url}"' in html, f"{page} does not redirect: {html!r}"
        with urllib.request.urlopen(served.url, timeout=20) as answer:
            assert answer.status == 200 and b"<html" in answer.read().lower()
        assert served.stop() == 0
    assert not page.exists() and not page.parent.exists(), f"{page} is left after the server stopped"
    print("ok   --open: xdg-open started on a 0600 file (in a 0700 folder) that redirects to the printed URL, "
          "the token on no command line; the file gone when the server stops")

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
