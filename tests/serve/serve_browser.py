#!/usr/bin/env python3
"""`anvilrt serve` driven through its page in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium): search an object, move an instance and change a SwitchDistance through the page's
controls, save the patch, apply it with `anvilrt patch` and compare the bytes with the same edit written
by hand; "Write a copy" writes the same bytes as `anvilrt patch -o`, and asks before replacing a file; an
edit the engine refuses shows the engine's reason; undo empties the pending patch. The same on a
generated game folder (two archives): the saved patch is the folder's, which `anvilrt patch DIR` takes, and
the copy a new folder. Each step's screenshot is kept in SHOTS.

The SwitchDistance is an `sws` LODSelector's field (FORMAT.md 3.1): the ac2 archive holds none, so that
step runs on corpus/sws/lod_selector.bin.

usage: serve_browser.py ANVILRT CORPUS_DIR WORK_DIR SHOTS_DIR
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(__file__))
from serve_support import Served  # noqa: E402

VISUAL = "0xa7f13e8d804b9c06"  # the Visual of DataFile_000 with one instance (docs/patches.md's example)


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1600,1000", "--no-first-run", "--no-default-browser-check"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Page:
    steps = 0  # over both sessions: the screenshots sort in the order taken

    def __init__(self, driver, shots):
        self.driver, self.shots = driver, shots
        self.wait = WebDriverWait(driver, 30)

    def shot(self, name):
        Page.steps += 1
        self.driver.save_screenshot(str(self.shots / f"{Page.steps:02d}_{name}.png"))

    def by_id(self, id):
        return self.driver.find_element(By.ID, id)

    def status(self):
        return self.by_id("status").text

    def wait_status(self, start):
        self.wait.until(lambda d: self.status().startswith(start))
        return self.status()

    def pending(self):
        return json.loads(self.by_id("patch").text)

    def search(self, field, text):
        Select(self.by_id("search-field")).select_by_value(field)
        box = self.by_id("search-text")
        box.clear()
        box.send_keys(text)
        self.by_id("search-button").click()
        self.wait.until(lambda d: self.by_id("search-total").text.endswith("object(s)"))
        return self.driver.find_elements(By.CSS_SELECTOR, "#results tbody tr")

    def open_result(self, key):
        rows = [r for r in self.driver.find_elements(By.CSS_SELECTOR, "#results tbody tr") if r.get_attribute("data-key") == key]
        assert len(rows) == 1, f"one result row for {key}, found {len(rows)}"
        rows[0].find_elements(By.TAG_NAME, "td")[2].click()
        self.wait.until(lambda d: self.by_id("object-pointer").text.endswith(key))

    def write_copy(self, name, confirm=False):
        # The status cleared first: a second copy's answer reads as the first's, which a slow server (the
        # Windows build under Wine) would not have given yet.
        self.driver.execute_script("document.getElementById('status').textContent = '';")
        box = self.by_id("copy-name")
        box.clear()
        box.send_keys(name)
        self.by_id("write-copy").click()
        if confirm:
            self.wait.until(ec.alert_is_present())
            self.driver.switch_to.alert.accept()
        return self.wait_status("written, read back and verified")

    def move_instance(self, positions):
        """Types the instance's new position into the matrix fields and applies it: the 16 numbers before."""
        matrix = self.driver.find_element(By.CSS_SELECTOR, ".matrix")
        original = [float(i.get_attribute("value")) for i in matrix.find_elements(By.CSS_SELECTOR, "input.raw")]
        for axis, value in enumerate(positions):
            box = matrix.find_element(By.NAME, f"position{axis}")
            box.clear()
            box.send_keys(value)
        matrix.find_element(By.CSS_SELECTOR, "button.apply-matrix").click()
        self.wait_status("accepted")
        return original

    def map_shown(self):
        """The key of the object the map shows (map.js, through its hook window.anvilrtMap)."""
        return self.driver.execute_script("return window.anvilrtMap && window.anvilrtMap.shownKey")

    def map_moved(self):
        """The keys of the instances the map draws moved by the pending patch."""
        return self.driver.execute_script(
            "const m = window.anvilrtMap; return m && m.base ? m.changes.changed.map(([i]) => m.mark(i).key) : null")

    def field_input(self, pointer):
        return self.driver.find_element(By.CSS_SELECTOR, f"#fields input[data-pointer='{pointer}']")

    def set_field(self, pointer, value):
        # Its text selected and typed over, not cleared first: clear() fires a change of its own, whose
        # refusal (an empty string) a slow server (the Windows build under Wine) could show before the
        # typed value's answer.
        field = self.field_input(pointer)
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(value, Keys.TAB)


def apply_patch(anvilrt, source, patch, out):
    subprocess.run([anvilrt, "patch", str(source), str(patch), "-o", str(out), "-q"], check=True)
    return out.read_bytes()


def engine_reason(anvilrt, source, patch_ops, work):
    """The one line `anvilrt patch --dry-run` prints for a refused patch, without its "anvilrt: PATCH: "."""
    path = work / "refused.json"
    path.write_text(json.dumps(patch_ops))
    run = subprocess.run([anvilrt, "patch", str(source), str(path), "--dry-run", "-q"], capture_output=True, text=True)
    assert run.returncode != 0, "the refused edit must be refused by anvilrt patch too"
    return run.stderr.strip().split(f"{path}: ", 1)[1]


def archive_steps(anvilrt, corpus, work, page_of):
    source = work / "ac2_five_forms.forge"
    shutil.copyfile(corpus / "forge" / "ac2_five_forms.forge", source)
    saved = work / "from_page.json"
    with Served(anvilrt, str(source), "--patch-out", str(saved)) as served:
        page = page_of(served.url)
        page.wait.until(lambda d: page.by_id("search-total").text.endswith("object(s)"))
        page.shot("opened")
        rows = page.search("key", VISUAL[:10])
        assert len(rows) == 1, f"searching the key's start finds one object, found {len(rows)}"
        page.shot("searched")
        page.open_result(VISUAL)
        # The map shows the object opened from the results (its clicks and drags: tests/serve/serve_map.py).
        page.wait.until(lambda d: page.map_shown() == VISUAL)
        page.shot("object")
        original = page.move_instance(("-600.5", "3600.25", "210"))
        page.wait.until(lambda d: page.map_moved() == [VISUAL])
        page.shot("moved")
        pending = page.pending()
        assert len(pending) == 1 and pending[0]["op"] == "replace", pending

        # An edit the engine refuses: a u8 field set to 300. The page shows the engine's own reason.
        managed = f"/datafiles/DataFile_000/objects/{VISUAL}/managed"
        page.set_field("/managed", "300")
        page.wait.until(lambda d: "error" in page.by_id("status").get_attribute("class"))
        shown = page.status()
        reason = engine_reason(anvilrt, source, pending + [{"op": "replace", "path": managed, "value": 300}], work)
        assert shown == reason, f"the page shows {shown!r}, anvilrt patch says {reason!r}"
        assert page.pending() == pending, "a refused edit is not taken"
        page.shot("refused")

        page.by_id("save").click()
        page.wait_status("saved")
        page.shot("saved")
        by_hand = work / "by_hand.json"
        moved = original[:12] + [-600.5, 3600.25, 210.0] + original[15:]
        by_hand.write_text(json.dumps([{"op": "replace", "path": f"/objects/{VISUAL}/instance/instances/0", "value": moved}]))
        from_page = apply_patch(anvilrt, source, saved, work / "from_page.forge")
        from_hand = apply_patch(anvilrt, source, by_hand, work / "by_hand.forge")
        assert from_page == from_hand, "the page's patch and the hand-written one give the same bytes"
        assert from_page != source.read_bytes(), "the patch changed something"

        # "Write a copy": the patched copy, named in the page, written beside the input (its folder is the
        # default --out-dir), the same bytes as `anvilrt patch -o`; a second time the page asks first.
        page.write_copy("page_copy.forge")
        assert (work / "page_copy.forge").read_bytes() == from_page, "the page's copy is patch -o's output"
        (work / "page_copy.forge").write_bytes(b"to be replaced")
        page.write_copy("page_copy.forge", confirm=True)
        assert (work / "page_copy.forge").read_bytes() == from_page, "the replaced copy is patch -o's output"
        page.shot("copy_written")

        page.by_id("undo").click()
        page.wait.until(lambda d: page.pending() == [])
        page.wait.until(lambda d: page.map_moved() == [])
        page.shot("undone")
        page.by_id("redo").click()
        page.wait.until(lambda d: len(page.pending()) == 1)
        page.by_id("undo").click()
        page.wait.until(lambda d: page.pending() == [])
        assert served.stop() == 0
    print("ok   archive: search, move, refused edit, save, same bytes as by hand, write a copy, undo")


def switch_distance_steps(anvilrt, corpus, work, page_of):
    source = work / "lod_selector.bin"
    shutil.copyfile(corpus / "sws" / "lod_selector.bin", source)
    saved = work / "switch.json"
    with Served(anvilrt, str(source), "--patch-out", str(saved)) as served:
        page = page_of(served.url)
        rows = page.search("class", "LODSelector")
        assert len(rows) == 2, f"two LODSelectors, found {len(rows)}"
        page.open_result("0x00001235")
        page.set_field("/slots/2/switch_distance", "77.5")
        page.wait_status("accepted")
        page.shot("switch_distance")
        page.by_id("save").click()
        page.wait_status("saved")
        by_hand = work / "switch_by_hand.json"
        by_hand.write_text(json.dumps([{"op": "replace", "path": "/objects/0x00001235/slots/2/switch_distance", "value": 77.5}]))
        assert apply_patch(anvilrt, source, saved, work / "switch_page.bin") == \
            apply_patch(anvilrt, source, by_hand, work / "switch_hand.bin")
        page.by_id("undo").click()
        page.wait.until(lambda d: page.pending() == [])
        assert served.stop() == 0
    print("ok   sws level file: SwitchDistance through its field, same bytes as by hand, undo")


def forge_files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.forge"))}


def first_placed(anvilrt, archive):
    """The key of the first object of an archive that places an instance (from `anvilrt dump`)."""
    dump = json.loads(subprocess.run([anvilrt, "dump", str(archive), "-q"], check=True, capture_output=True,
                                     text=True).stdout)
    for datafile in dump["datafiles"].values():
        for key, value in datafile["objects"].items():
            if isinstance(value.get("instance"), dict) and value["instance"].get("instances"):
                return key
    raise AssertionError(f"{archive} places no instance")


def folder_steps(anvilrt, work, page_of):
    game = work / "game"
    game.mkdir()
    for name, seed in (("A.forge", "1"), ("B.forge", "2")):
        subprocess.run([anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", "2", "--visuals", "3", "--seed", seed,
                        "-o", str(game / name), "-q"], check=True)
    key = first_placed(anvilrt, game / "B.forge")
    saved = work / "folder_patch.json"
    with Served(anvilrt, str(game), "--patch-out", str(saved)) as served:
        page = page_of(served.url)
        page.wait.until(lambda d: page.by_id("search-total").text.endswith("object(s)"))
        assert "game folder" in page.by_id("file").text, page.by_id("file").text
        rows = page.search("key", key)
        assert len(rows) == 1, f"one object of that key in the folder, found {len(rows)}"
        page.open_result(key)
        assert page.by_id("object-pointer").text.startswith("/archives/B.forge/datafiles/"), page.by_id("object-pointer").text
        original = page.move_instance(("-120.5", "48.25", "7"))
        page.wait.until(lambda d: page.map_moved() == [key])
        page.shot("folder_moved")
        page.by_id("save").click()
        page.wait_status("saved")
        by_hand = work / "folder_by_hand.json"
        moved = original[:12] + [-120.5, 48.25, 7.0] + original[15:]
        by_hand.write_text(json.dumps([{"op": "replace", "path": f"/objects/{key}/instance/instances/0", "value": moved}]))
        for patch, out in ((saved, "folder_from_page"), (by_hand, "folder_by_hand")):
            subprocess.run([anvilrt, "patch", str(game), str(patch), "-o", str(work / out), "-q"], check=True)
        from_page = forge_files(work / "folder_from_page")
        assert from_page == forge_files(work / "folder_by_hand"), "the page's folder patch gives the hand-written one's bytes"
        assert from_page["B.forge"] != (game / "B.forge").read_bytes() and from_page["A.forge"] == (game / "A.forge").read_bytes()
        page.write_copy("game_copy")
        assert forge_files(work / "game_copy") == from_page, "the page's copy of the folder is patch DIR -o's output"
        page.shot("folder_copy_written")
        page.by_id("undo").click()
        page.wait.until(lambda d: page.pending() == [])
        assert served.stop() == 0
    print("ok   game folder: search, move, save, patch DIR takes it, same bytes as by hand, copy folder, undo")


def main():
    anvilrt, corpus, work, shots = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4])
    for folder in (work, shots):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    driver = browser()
    try:
        def page_of(url):
            driver.get(url)
            page = Page(driver, shots)
            page.wait.until(lambda d: page.by_id("file").text != "")
            return page
        archive_steps(anvilrt, corpus, work, page_of)
        switch_distance_steps(anvilrt, corpus, work, page_of)
        folder_steps(anvilrt, work, page_of)
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
