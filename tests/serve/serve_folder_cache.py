#!/usr/bin/env python3
"""`anvilrt serve DIR` writes nothing into the game folder it opened (docs/serve.md), not even the key
cache: a folder with a `.anvilrt/` folder, where `anvilrt patch DIR` saves what an `/objects/KEY` look-up
learnt (`.anvilrt/keys.cache`, docs/game-folders.md), served and asked through real HTTP to check and map
an edit addressing `/objects/KEY` across the folder; after the server stops, `.anvilrt/` is still empty
and every file of the folder is as it was.

usage: serve_folder_cache.py ANVILRT WORK_DIR
"""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from serve_support import Checks, Served  # noqa: E402

check = Checks()


def snapshot(folder):
    """Every file under `folder` (hidden ones included) by its path: its SHA-256."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def call(served, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{served.port}{path}", data=data, method=method,
                                     headers={"X-Anvilrt-Token": served.token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.read()


def main():
    anvilrt, work = sys.argv[1], pathlib.Path(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    game = work / "game"
    game.mkdir(parents=True)
    for name, seed in (("A.forge", "1"), ("B.forge", "2")):
        subprocess.run([anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", "2", "--visuals", "20", "--seed",
                        seed, "-o", str(game / name), "-q"], check=True, stdout=subprocess.DEVNULL)
    (game / ".anvilrt").mkdir()
    cache = game / ".anvilrt" / "keys.cache"

    with Served(anvilrt, str(game)) as served:
        # An object of B.forge that places an instance, from the search once the index is built (a search
        # before says "ready": false and finds nothing: the index is built on a thread of its own).
        deadline = time.monotonic() + 120
        while True:
            status, body = call(served, "GET", "/api/search?field=any&q=&page=0&size=500")
            if status != 200 or json.loads(body)["ready"] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        objects = json.loads(body)["objects"]
        placed = [o for o in objects if o["datafile_name"].startswith("B.forge/") and o["instances"] > 0]
        check("the search finds an object of B.forge placing instances", status == 200 and placed, status)
        if not placed:
            return 1
        key = placed[0]["key"]
        # Addressed by its key alone: the folder engine looks the key up in every archive.
        patch = [{"op": "replace", "path": f"/objects/{key}/instance/instances/0/12", "value": 12.5}]
        status, body = call(served, "POST", "/api/check", {"patch": patch})
        check("an edit of /objects/KEY is checked: ok", status == 200 and json.loads(body).get("ok") is True,
              (status, body[:200]))
        status, body = call(served, "POST", "/api/map", {"patch": patch, "marks": True})
        answer = json.loads(body) if status == 200 else {}
        check("the map of that edit: every instance, and one moved", status == 200
              and answer["marks"]["instances"] > 0 and len(answer["changed"]) == 1 and answer["changed"][0][2] == 12.5,
              (status, body[:200]))
        before_stop = snapshot(game)
        code = served.stop()
        check("SIGTERM: exit 0", code == 0, code)
    check("the server left .anvilrt/keys.cache unwritten", not cache.exists())
    check("nothing in the folder changed", snapshot(game) == before_stop and list((game / ".anvilrt").iterdir()) == [],
          sorted(snapshot(game)))

    # The same look-up by `anvilrt patch DIR --dry-run` saves the cache: the test above could see it written.
    (work / "p.json").write_text(json.dumps(patch))
    done = subprocess.run([anvilrt, "patch", str(game), str(work / "p.json"), "--dry-run", "-q"],
                          capture_output=True, text=True)
    check("anvilrt patch DIR --dry-run of the same edit: exit 0", done.returncode == 0, done.stderr)
    check("...and it wrote .anvilrt/keys.cache", cache.exists())
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
