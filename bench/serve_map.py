#!/usr/bin/env python3
"""The editor's map rows (docs/performance.md; run by anvilrt_bench --serve-only, bench/serve_map_rows.cpp): FILE
served by `anvilrt serve`, its page opened in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium) at 1400x900. Measured by the page itself (map.js, performance.now() around each draw,
read through its hook window.anvilrtMap): the time from the page's navigation to the first map drawn
(every instance fetched from /api/map, decoded and drawn), and the frames of pans and of mouse-wheel zooms
(each a draw of every mark). The fastest of RUNS page loads; the frames' median and slowest over all runs.

usage: serve_map.py ANVILRT FILE RUNS
"""
import os
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "serve"))
from serve_support import Served  # noqa: E402

FRAMES = 10


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900", "--force-device-scale-factor=1", "--no-first-run"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def last_frame(driver, count):
    """Waits for the page's draw number `count` and gives its time (ms)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        frames = driver.execute_script("return window.anvilrtMap.timing.frames.length")
        if frames >= count:
            return driver.execute_script("return window.anvilrtMap.timing.frames.at(-1)")
        time.sleep(0.01)
    raise RuntimeError("the page drew no frame")


def one_run(driver, anvilrt, path):
    with Served(anvilrt, path) as served:
        driver.get(served.url)
        deadline = time.monotonic() + 300
        while not driver.execute_script("return !!(window.anvilrtMap && window.anvilrtMap.timing.first)"):
            if time.monotonic() > deadline:
                raise RuntimeError("the map was not drawn in 300 s")
            time.sleep(0.02)
        timing = driver.execute_script("""
            const m = window.anvilrtMap, map = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/map'));
            return {first: m.timing.first, decode: m.timing.decode, draw: m.timing.frames[0], instances: m.now.length / 2,
                    received: m.timing.received, sent: map ? map.startTime : null, answered: map ? map.responseEnd : null,
                    bytes: map ? map.encodedBodySize : null};""")
        # Frames are counted from here: the draws so far (the first, a resize) left aside.
        drawn = driver.execute_script("window.anvilrtMap.timing.frames = []; return 0")
        pans, zooms = [], []
        for _ in range(FRAMES):
            driver.execute_script("const m = window.anvilrtMap; m.view.x += 40 / m.view.k; m.redraw();")
            drawn += 1
            pans.append(last_frame(driver, drawn))
        canvas = driver.find_element(By.ID, "map")
        for i in range(FRAMES):
            ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(canvas), 0, -120 if i % 2 else 100).perform()
            drawn += 1
            zooms.append(last_frame(driver, drawn))
        try:
            served.stop()
        except subprocess.TimeoutExpired:  # still indexing a level of one data file: it stops after it
            served.process.kill()
            served.process.wait()
    return timing, pans, zooms


def main():
    anvilrt, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    driver = browser()
    try:
        results = [one_run(driver, anvilrt, path) for _ in range(runs)]
    finally:
        driver.quit()
    best = min((r[0] for r in results), key=lambda t: t["first"])
    pans = [f for r in results for f in r[1]]
    zooms = [f for r in results for f in r[2]]
    megabytes = f"{best['bytes'] / 1e6:.1f} MB" if best["bytes"] else "?"
    print(f"serve's map of {os.path.basename(path)} ({best['instances']} instances) in headless Chromium at 1400x900, "
          f"the fastest of {runs} page loads:")
    print(f"  page opened to the first map drawn: {best['first'] / 1e3:.3f} s (target <= 2 s)")
    if best["sent"] is not None:
        print(f"    (/api/map asked at {best['sent']:.0f} ms, its answer ({megabytes}) in at {best['answered']:.0f} ms "
              f"(the server reads the level as it starts), parsed by {best['received']:.0f} ms, decoded in "
              f"{best['decode']:.0f} ms, the first draw {best['draw']:.1f} ms)")
    print(f"  a pan frame (every mark drawn): median {statistics.median(pans):.1f} ms, slowest {max(pans):.1f} ms "
          f"of {len(pans)} (target <= 50 ms)")
    print(f"  a zoom frame (mouse wheel): median {statistics.median(zooms):.1f} ms, slowest {max(zooms):.1f} ms "
          f"of {len(zooms)} (target <= 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
