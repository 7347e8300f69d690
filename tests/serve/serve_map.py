#!/usr/bin/env python3
"""The editor's map (docs/serve.md, The map) driven in headless Chromium through Selenium (Debian's chromium,
chromium-driver and python3-selenium), at 1400x900: a screenshot shows the map (the canvas takes a large part of
the window and has drawn every mark where the page says it stands; kept in SHOTS); a click on a mark opens its
object; a Shift+drag box selects the objects under it for the bulk operations; a drag from another object's
mark pans; a drag of a mark of the object shown writes one
`replace` of its matrix in the pending patch (elements 12 and 13 changed, every other number kept exactly) and
draws its arrow; the saved patch applies with `anvilrt patch`, and `anvilrt dump` of the result holds the
moved matrix. The classes column of the results is not cut off. The SwitchDistance control is offered on an
`sws` level and not on an `ac2` one.

usage: serve_map.py ANVILRT CORPUS_DIR WORK_DIR SHOTS_DIR
"""
import json
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(__file__))
from serve_support import Checks, Served  # noqa: E402

BACKGROUND = (248, 249, 251)  # map.js MAP_COLOURS.background


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900", "--force-device-scale-factor=1", "--no-first-run",
                     "--no-default-browser-check"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The page's own area 1400x900 (a headless window's size counts its frame): what the screenshot holds.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    return driver


def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced RGB or RGBA PNG (Chromium's screenshots)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, [], None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    step = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(b"".join(chunks)), width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    return width, height, step, rows


class MapPage:
    def __init__(self, driver, url):
        self.driver = driver
        self.wait = WebDriverWait(driver, 60)
        driver.get(url)
        self.wait.until(lambda d: d.execute_script("return !!(window.anvilrtMap && window.anvilrtMap.timing.first)"))
        self.canvas = driver.find_element(By.ID, "map")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def text(self, id):
        return self.driver.find_element(By.ID, id).text

    def pending(self):
        return json.loads(self.text("patch"))

    def marks(self):
        """Every mark the page draws: its object, N, level x and y, and where it is on the canvas."""
        return self.js("""
            const m = window.anvilrtMap, out = [];
            for (let i = 0; i < m.now.length / 2; ++i) {
              const mark = m.mark(i);
              if (!Number.isFinite(mark.x)) continue;
              const [sx, sy] = m.toScreen(mark.x, mark.y);
              out.push({...mark, sx, sy});
            }
            return out;""")

    def isolated(self, marks, away=24, margin=15):
        """Marks well inside the canvas with no other mark within `away` pixels."""
        rect = self.canvas.rect
        inside = [m for m in marks if margin < m["sx"] < rect["width"] - margin and margin < m["sy"] < rect["height"] - margin]
        return [m for m in inside if all(o is m or (o["sx"] - m["sx"]) ** 2 + (o["sy"] - m["sy"]) ** 2 > away ** 2
                                         for o in marks)]

    def at(self, mark):
        """An ActionChains at the mark (offsets from the canvas's centre, as WebDriver takes them)."""
        rect = self.canvas.rect
        return ActionChains(self.driver).move_to_element_with_offset(
            self.canvas, round(mark["sx"] - rect["width"] / 2), round(mark["sy"] - rect["height"] / 2))


def screenshot_steps(page, shots, check):
    size = page.js("return [window.innerWidth, window.innerHeight]")
    rect = page.js("const c = document.getElementById('map'), r = c.getBoundingClientRect();"
                   "return [r.left + c.clientLeft, r.top + c.clientTop, c.clientWidth, c.clientHeight]")
    left, top, width, height = rect
    check("the canvas lies inside the 1400x900 window", left >= 0 and top >= 0 and left + width <= size[0]
          and top + height <= size[1], (rect, size))
    check("the canvas takes at least 30% of the window", width * height >= 0.3 * size[0] * size[1], (rect, size))
    png = page.driver.get_screenshot_as_png()
    (shots / "map_1400x900.png").write_bytes(png)
    w, h, step, rows = png_pixels(png)
    marks = page.marks()
    missing = []
    for m in marks:
        x, y = int(left + m["sx"]), int(top + m["sy"])  # the mark's pixel, its first row and column
        if not (0 <= x < w and 0 <= y < h) or tuple(rows[y][x * step:x * step + 3]) == BACKGROUND:
            missing.append((m["key"], x, y))
    check("the screenshot is 1400x900", (w, h) == (1400, 900), (w, h))
    check(f"the screenshot ({w}x{h}) has a mark drawn at each of the {len(marks)} instances", marks and not missing,
          missing[:5])
    background = sum(tuple(rows[y][x * step:x * step + 3]) == BACKGROUND
                     for y in range(int(top) + 5, int(top + height) - 5, 7) for x in range(int(left) + 5, int(left + width) - 5, 7))
    check("the canvas is mostly background between the marks (not one blot)", background > 0, background)


def click_and_box_steps(page, check):
    marks = page.marks()
    alone = page.isolated(marks)
    check("the map has two marks of different objects apart from the others", len({m["key"] for m in alone}) >= 2, len(alone))
    first = alone[0]
    second = next(m for m in alone if m["key"] != first["key"])
    page.at(first).click().perform()
    page.wait.until(lambda d: page.text("object-pointer").endswith(first["key"]))
    check("a click on a mark opens its object", page.text("object-pointer").endswith(first["key"]), page.text("object-pointer"))
    check("...and the map shows that object", page.js("return window.anvilrtMap.shownKey") == first["key"])

    ActionChains(page.driver).key_down(Keys.SHIFT).perform()
    page.at({"sx": second["sx"] - 12, "sy": second["sy"] - 12}).click_and_hold().move_by_offset(24, 24).release().perform()
    ActionChains(page.driver).key_up(Keys.SHIFT).perform()
    page.wait.until(lambda d: page.text("map-selection") != "")
    check("a Shift+drag box selects the one object under it", page.text("map-selection") == "1 object(s) selected",
          page.text("map-selection"))
    page.driver.find_element(By.ID, "move-z").clear()
    page.driver.find_element(By.ID, "move-z").send_keys("5")
    page.driver.find_element(By.ID, "bulk-transform").click()
    page.wait.until(lambda d: len(page.pending()) == 1)
    op = page.pending()[0]
    check("the bulk transform acts on the boxed object", op["op"] == "transform" and op["objects"] == [second["key"]]
          and op["translate"] == [0, 0, 5], op)
    page.driver.find_element(By.ID, "undo").click()
    page.wait.until(lambda d: page.pending() == [])
    page.driver.find_element(By.ID, "map-clear").click()
    page.driver.find_element(By.ID, "move-z").clear()
    page.driver.find_element(By.ID, "move-z").send_keys("0")

    # A drag that starts on a mark of an object not shown pans: on a dense map a pan moves nothing.
    view = page.js("return [window.anvilrtMap.view.x, window.anvilrtMap.view.y]")
    page.at(second).click_and_hold().move_by_offset(30, 0).release().perform()
    page.wait.until(lambda d: page.js("return [window.anvilrtMap.view.x, window.anvilrtMap.view.y]") != view)
    check("a drag from another object's mark pans the map and moves nothing", page.pending() == []
          and page.text("object-pointer").endswith(first["key"]))
    page.driver.find_element(By.ID, "map-fit").click()
    page.wait.until(lambda d: page.js("return [window.anvilrtMap.view.x, window.anvilrtMap.view.y]") == view)
    return first


def dumped_matrix(anvilrt, path, datafile, key, index):
    dump = json.loads(subprocess.run([anvilrt, "dump", str(path), "-q"], check=True, capture_output=True, text=True).stdout)
    objects = dump["datafiles"][datafile]["objects"] if "datafiles" in dump else dump["objects"]
    return objects[key]["instance"]["instances"][index]


def f32(values):
    return [struct.pack("<f", v) for v in values]


def drag_steps(page, anvilrt, source, saved, work, shots, check, mark):
    names = page.js("return state.info.datafiles")
    name = names[mark["datafile"]]
    before = dumped_matrix(anvilrt, source, name, mark["key"], mark["index"])
    k = page.js("return window.anvilrtMap.view.k")
    page.at(mark).click_and_hold().move_by_offset(60, -40).release().perform()
    page.wait.until(lambda d: len(page.pending()) == 1 and page.js("return window.anvilrtMap.changes.changed.length") == 1)
    op = page.pending()[0]
    pointer = page.text("object-pointer")
    check("a drag writes one replace of the instance's matrix", op["op"] == "replace"
          and op["path"] == f"{pointer}/instance/instances/{mark['index']}" and pointer.endswith(mark["key"]), op)
    value = op["value"]
    check("...only elements 12 and 13 changed, every other number kept exactly",
          f32(value[:12]) == f32(before[:12]) and f32(value[14:]) == f32(before[14:]), (value, before))
    expected = (mark["x"] + 60 / k, mark["y"] + 40 / k)
    check("...to where the mark was dropped", all(abs(a - b) <= 1e-4 * max(1.0, abs(b)) for a, b in zip(value[12:14], expected)),
          (value[12:14], expected))
    arrow = page.js("""const m = window.anvilrtMap, [i] = m.changes.changed[0];
                       return [m.toScreen(m.base[2 * i], m.base[2 * i + 1]), m.toScreen(m.now[2 * i], m.now[2 * i + 1])];""")
    (x0, y0), (x1, y1) = arrow
    check("...and the map draws the arrow from the old place to the new", abs((x1 - x0) - 60) < 2 and abs((y1 - y0) + 40) < 2,
          arrow)
    png = page.driver.get_screenshot_as_png()
    (shots / "map_moved.png").write_bytes(png)
    w, h, step, rows = png_pixels(png)
    rect = page.js("const c = document.getElementById('map'), r = c.getBoundingClientRect();"
                   "return [r.left + c.clientLeft, r.top + c.clientTop]")
    mx, my = int(rect[0] + (x0 + x1) / 2), int(rect[1] + (y0 + y1) / 2)
    near = [tuple(rows[y][x * step:x * step + 3]) for y in range(my - 1, my + 2) for x in range(mx - 1, mx + 2)]
    check("...drawn in the screenshot (the arrow's middle is not background)", any(p != BACKGROUND for p in near), near)

    page.driver.find_element(By.ID, "save").click()
    page.wait.until(lambda d: page.text("status").startswith("saved"))
    out = work / "moved.forge"
    subprocess.run([anvilrt, "patch", str(source), str(saved), "-o", str(out), "-q"], check=True)
    after = dumped_matrix(anvilrt, out, name, mark["key"], mark["index"])
    check("the saved patch applies with anvilrt patch, and dump shows the moved matrix", f32(after) == f32(value),
          (after, value))


def layout_steps(page, check):
    """Every result's classes inside its cell and the panel (no horizontal scroll, nothing clipped)."""
    page.driver.find_element(By.ID, "search-button").click()
    page.wait.until(lambda d: page.text("search-total").endswith("object(s)"))
    clipped = page.js("""
        const panel = document.getElementById('search-panel').getBoundingClientRect(), out = [];
        for (const cell of document.querySelectorAll('#results td.classes')) {
          const r = cell.getBoundingClientRect();
          if (cell.scrollWidth > cell.clientWidth + 1 || r.right > panel.right + 0.5 || r.width < 40) out.push(cell.textContent);
        }
        const s = document.getElementById('search-panel');
        return [document.querySelectorAll('#results td.classes').length, out, s.scrollWidth - s.clientWidth];""")
    count, cut, overflow = clipped
    check(f"the classes of the {count} results are not cut off", count > 0 and not cut and overflow <= 0, clipped)


def switch_control(page):
    return page.driver.find_element(By.ID, "bulk-switch").is_displayed()


def main():
    anvilrt, corpus, work, shots = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shots.mkdir(parents=True, exist_ok=True)
    check = Checks()
    driver = browser()
    try:
        source = work / "ac2_five_forms.forge"
        shutil.copyfile(corpus / "forge" / "ac2_five_forms.forge", source)
        saved = work / "map_patch.json"
        with Served(anvilrt, str(source), "--patch-out", str(saved)) as served:
            page = MapPage(driver, served.url)
            screenshot_steps(page, shots, check)
            check("no SwitchDistance control on an ac2 archive", not switch_control(page))
            layout_steps(page, check)
            mark = click_and_box_steps(page, check)
            drag_steps(page, anvilrt, source, saved, work, shots, check, mark)
            check("SIGTERM: exit 0", served.stop() == 0)
        level = work / "lod_selector.bin"
        shutil.copyfile(corpus / "sws" / "lod_selector.bin", level)
        with Served(anvilrt, str(level)) as served:
            page = MapPage(driver, served.url)
            page.wait.until(lambda d: page.text("file") != "")
            check("the SwitchDistance control on an sws level", switch_control(page))
            check("SIGTERM: exit 0", served.stop() == 0)
    finally:
        driver.quit()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
