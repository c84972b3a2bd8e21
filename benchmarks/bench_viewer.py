"""Measure the replay viewer: file size, time to build it, and how long one step takes in Chromium.

For each game: the size of ``brass-stats view``'s HTML file, the median time to build it
(replay included), and, in headless Chromium (Debian's ``/usr/bin/chromium`` through Playwright),
the median time of one step forward and of a jump from the first to the last action (the page's own
``performance.now()`` around the key press). Example::

    python benchmarks/bench_viewer.py replays/real/gm7vza-4p.json replays/generated/game-4014-00001.json

The machine is shared: run it alone, single process, and read medians.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from brass_stats.log.format import GameLog
from brass_stats.presentation.viewer import write_viewer
from brass_stats.replay import replay

STEP_JS = """async (key) => {
  const t0 = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true}));
  await new Promise(r => requestAnimationFrame(() => r()));
  return performance.now() - t0;
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for game in args.games:
            out = Path(tmp) / "v.html"
            builds = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                r = replay(GameLog.load(game))
                write_viewer(r, out)
                builds.append(time.perf_counter() - t0)
            page = browser.new_page(viewport={"width": 1900, "height": 1200})
            page.goto(out.as_uri() + "#action=-1")
            page.wait_for_selector("body[data-ready]")
            steps = [page.evaluate(STEP_JS, "ArrowRight") for _ in range(min(60, len(r.steps)))]
            jumps = []
            for _ in range(args.repeat):
                jumps.append(page.evaluate(STEP_JS, "End"))
                page.evaluate(STEP_JS, "Home")
            page.close()
            print(
                f"{game}: {len(r.steps)} actions, {len(r.log.players)} players, "
                f"{out.stat().st_size / 1024:.0f} KiB; build {statistics.median(builds):.2f} s; "
                f"step {statistics.median(steps):.1f} ms (max {max(steps):.1f}); "
                f"first->last {statistics.median(jumps):.1f} ms"
            )
        browser.close()


if __name__ == "__main__":
    main()
