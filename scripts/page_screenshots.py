#!/usr/bin/env python
"""The screenshots of the deal page that the README shows (docs/deal-page.png, docs/review-page.png), taken in
headless Chromium by the browser test's own driver (tests/browser.py).

The deal: parlett, seed 7, match 0, deal 3, ``tuned`` in seats 0 and 2, ``random`` in seat 1, ``lowest`` in seat 3;
seat 1 reviewed (16 worlds, ``tuned`` rollouts, 64 deals for the luck of its hand) -- the page that
``reversis-sim review --seed 7 --deal 3 --seat tuned --seat random --seat tuned --seat lowest --review-seat 1
--luck-samples 64 --format html`` writes. The first screenshot is the first trick (the arrow key pressed twice),
the second the costliest decision, chosen from its list.

    python scripts/page_screenshots.py [--out docs]

Needs Chromium (Debian's ``chromium``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the browser test's own driver, tests/browser.py

from browser import Browser, find_chromium  # noqa: E402

from reversis_sim.plot.page import deal_page  # noqa: E402
from reversis_sim.policies import parse_seats  # noqa: E402
from reversis_sim.review import review_deal  # noqa: E402
from reversis_sim.review.settings import review_settings  # noqa: E402
from reversis_sim.rules import PRESETS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the two PNG files go")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium found: apt-get install chromium (or set CHROMIUM to its path)")
    seats = parse_seats(["tuned", "random", "tuned", "lowest"])
    review = review_deal(PRESETS["parlett"], seats, seed=7, match=0, deal=3,
                         settings=review_settings(4, seats, [1], 16, "tuned", 64))
    with tempfile.TemporaryDirectory() as tmp, Browser(chromium, width=1360, height=900) as browser:
        page = Path(tmp) / "deal.html"
        page.write_text(deal_page([review]), encoding="utf-8")
        browser.open(page.as_uri())
        browser.press("ArrowRight")
        browser.press("ArrowRight")
        browser.screenshot(args.out / "deal-page.png")
        browser.click("#costliest button")
        browser.evaluate("window.scrollTo(0, 0)")
        browser.screenshot(args.out / "review-page.png")
        errors = browser.errors()
    if errors:
        sys.exit(f"the page reported errors: {errors}")
    print(f"wrote {args.out / 'deal-page.png'} and {args.out / 'review-page.png'}")


if __name__ == "__main__":
    main()
