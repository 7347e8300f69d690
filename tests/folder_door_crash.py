#!/usr/bin/env python3
"""The one door of a game folder (issue 50, docs/game-folders.md "Transactions"): `anvilrt mod install` of
one mod over three archives, killed (SIGKILL on itself, ANVILRT_CRASH_AT_STEP) at every step of its
transaction, then each of `mod list`, `mod check`, `ls`, `verify`, `map` and `serve` as the next command
on the folder it left. After each: every archive is entirely before or entirely after (SHA-256 against
the two expected sets), nothing of the transaction is left, stderr says in one line what opening the
folder did (finished: after; rolled back: before; nothing when nothing was left), and the command reports
the state it then sees: its output is the one it gives on a clean folder in that state (mod list names
the mod iff the archives are after; the map draws the moved instances iff after; serve's check of the
state's values passes and of the other state's fails).

usage: folder_door_crash.py ANVILRT WORK_DIR
"""
import hashlib
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "serve"))
from serve_support import Checks, Served, stop_signal  # noqa: E402

check = Checks()
ARCHIVES = ("a1.forge", "a2.forge", "a3.forge")
COMMANDS = ("mod list", "mod check", "ls", "verify", "map", "serve")
RECOVERY_WORDS = {"after": ": finished the interrupted ", "before": ": rolled back an interrupted change"}


def run(anvilrt, *args, env=None):
    return subprocess.run([anvilrt, *args], capture_output=True, text=True, env=env)


def digests(folder):
    """The archives of `folder` by name: their SHA-256."""
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in ARCHIVES}


def leftovers(folder):
    """What an interrupted transaction leaves: the journal (or its draft) and temporaries."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.name in ("journal", "journal.new") or p.name.endswith(".anvilrt-txn"))


def moved_instance(anvilrt, archive):
    """The pointer of the x of the first placed instance in `archive`, and that x."""
    doc = json.loads(run(anvilrt, "dump", "-q", str(archive)).stdout)
    for datafile, body in doc["datafiles"].items():
        for key, obj in body["objects"].items():
            instances = obj.get("instance", {}).get("instances", [])
            if instances:
                return (f"/archives/{archive.name}/datafiles/{datafile}/objects/{key}/instance/instances/0/12",
                        instances[0][12])
    raise RuntimeError(f"{archive}: no placed instance")


def api_check(served, patch):
    """`POST /api/check` of `patch` with the server's token: whether the patch applies."""
    request = urllib.request.Request(f"http://127.0.0.1:{served.port}/api/check",
                                     data=json.dumps({"patch": patch}).encode(), method="POST",
                                     headers={"X-Anvilrt-Token": served.token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["ok"]


class Folder:
    """The game folder the commands run on (one path, so that their outputs compare), and what to expect."""

    def __init__(self, anvilrt, work):
        self.anvilrt, self.work = anvilrt, work
        self.game, self.clean, self.installed = work / "game", work / "clean", work / "installed"
        self.clean.mkdir(parents=True)
        for seed, name in enumerate(ARCHIVES, 1):
            subprocess.run([anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", "2", "--visuals", "3",
                            "--seed", str(seed), "-q", "-o", str(self.clean / name)], check=True, stdout=subprocess.DEVNULL)
        # The mod moves one instance in each archive (the map shows it); the other mod, for `mod check`,
        # changes another field, without conflict.
        self.moves = [moved_instance(anvilrt, self.clean / name) for name in ARCHIVES]
        self.mod, self.other = work / "door.json", work / "other.json"
        self.mod.write_text(json.dumps({"anvilrt_mod": 1, "name": "door", "patch": [
            {"op": "replace", "path": p, "value": x + 512} for p, x in self.moves]}))
        self.other.write_text(json.dumps({"anvilrt_mod": 1, "name": "other", "patch": [
            {"op": "replace", "path": self.moves[0][0].rsplit("/instance/", 1)[0] + "/managed", "value": 1}]}))
        self.install = ["mod", "install", str(self.game), str(self.mod), "-q"]
        self.put(self.clean)
        installed = run(anvilrt, *self.install)
        if installed.returncode != 0:
            raise RuntimeError(f"the install does not complete: {installed.stderr}")
        shutil.copytree(self.game, self.installed, symlinks=True)
        self.sets = {"before": digests(self.clean), "after": digests(self.installed)}
        check("the install changes every archive",
              all(self.sets["before"][a] != self.sets["after"][a] for a in ARCHIVES), self.sets)
        # What each command reports on a clean folder in each state.
        self.expected = {}
        for state, source in (("before", self.clean), ("after", self.installed)):
            self.put(source)
            self.expected[state] = {name: self.report(name)[0] for name in COMMANDS}
        for name in COMMANDS:
            check(f"{name}: the two states report differently",
                  self.expected["before"][name] != self.expected["after"][name], self.expected["before"][name])

    def put(self, source):
        """Makes the game folder a copy of `source` (anvilrt's state and leftovers included)."""
        shutil.rmtree(self.game, ignore_errors=True)
        shutil.copytree(source, self.game, symlinks=True)

    def state_patch(self, state):
        """`test` operations that pass on the archives of `state` alone."""
        return [{"op": "test", "path": p, "value": x + (512 if state == "after" else 0)} for p, x in self.moves]

    def report(self, name):
        """Runs command `name` on the game folder: (what it reports, its stderr, its exit code)."""
        game = str(self.game)
        if name == "serve":
            with Served(self.anvilrt, game) as served:
                seen = tuple(api_check(served, self.state_patch(state)) for state in ("before", "after"))
                served.process.send_signal(stop_signal())
                code = served.process.wait(timeout=30)
                stderr = served.process.stderr.read()
                served.process.stdout.close()
                served.process.stderr.close()
                return seen, stderr, code
        if name == "map":
            svg = self.work / "map.svg"
            r = run(self.anvilrt, "map", game, "-o", str(svg), "-q")
            return (svg.read_bytes() if r.returncode == 0 else b""), r.stderr, r.returncode
        args = {"mod list": ["mod", "list", game, "--json"], "mod check": ["mod", "check", game, str(self.other)],
                "ls": ["ls", game], "verify": ["verify", game]}[name]
        r = run(self.anvilrt, *args)
        return r.stdout, r.stderr, r.returncode


def main():
    anvilrt, work = sys.argv[1], pathlib.Path(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    folder = Folder(anvilrt, work)
    killed_state = work / "killed"
    seen = {"before": 0, "after": 0}
    for step in range(1, 200):
        folder.put(folder.clean)
        crashed = run(anvilrt, *folder.install, env={**os.environ, "ANVILRT_CRASH_AT_STEP": str(step)})
        if crashed.returncode == 0:
            check(f"the install completes at step {step}, after being killed at each step before", step > 10, step)
            break
        killed = crashed.returncode in (-signal.SIGKILL, 137)
        check(f"step {step}: killed", killed, (crashed.returncode, crashed.stderr))
        if not killed:
            break
        shutil.rmtree(killed_state, ignore_errors=True)
        shutil.copytree(folder.game, killed_state, symlinks=True)
        interrupted = bool(leftovers(killed_state))
        for name in COMMANDS:
            folder.put(killed_state)
            output, stderr, code = folder.report(name)
            now = digests(folder.game)
            state = next((s for s, d in folder.sets.items() if d == now), None)
            what = f"step {step}, then {name}"
            check(f"{what}: every archive before or every archive after", state is not None, now)
            if state is None:
                continue
            seen[state] += 1
            check(f"{what}: exit 0", code == 0, stderr)
            check(f"{what}: nothing of the transaction left", not leftovers(folder.game), leftovers(folder.game))
            said = [line for line in stderr.splitlines() if "interrupted" in line]
            expected_said = [RECOVERY_WORDS[state]] if interrupted else []
            check(f"{what}: one line says what opening the folder did",
                  len(said) == len(expected_said) and all(w in line for w, line in zip(expected_said, said)),
                  (state, stderr))
            check(f"{what}: reports the state it sees ({state})", output == folder.expected[state][name],
                  (output[:300] if isinstance(output, (str, bytes)) else output))
    check("killed installs ended before and after, both", seen["before"] > 0 and seen["after"] > 0, seen)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
