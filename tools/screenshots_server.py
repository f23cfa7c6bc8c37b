"""Screenshots of the web page for the README: the throw screen and the score sheet.

Plays a few rounds of a keeling game through the API, uploads a photo of a throw, and takes
phone-sized (375 px) pictures with headless Chromium. The photo is a real sample photo
(``sample_images/``), read as its hand-checked label says, so the picture shows the page, not
the vision model's accuracy.

Run: `python tools/screenshots_server.py [--out docs]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from server.app import create_app  # noqa: E402
from tests.browser import CHROMIUM, CHROMIUM_ARGS, serving  # noqa: E402
from tests.server.conftest import SAMPLES, ScriptedReader, labelled_reading  # noqa: E402

SAMPLE = "nell-byler-IMG_20191209_095800"  # six dice: 1 1 4 5 5 6

ROUNDS = [  # (player's events) per turn, in playing order Ann, Ben, Cy
    [{"roll": [1, 1, 1, 3, 4, 6]}, {"keep": [1, 1, 1]}, {"bank": True}],
    [{"roll": [5, 5, 5, 2, 3, 4]}, {"keep": [5, 5, 5]}, {"bank": True}],
    [{"roll": [2, 2, 3, 3, 4, 6]}],  # zilch
    [{"roll": [1, 2, 3, 4, 5, 6]}, {"keep": [1, 2, 3, 4, 5, 6]}, {"bank": True}],
    [{"roll": [2, 3, 4, 4, 6, 6]}],  # zilch
    [{"roll": [6, 6, 6, 1, 2, 3]}, {"keep": [1, 6, 6, 6]}, {"bank": True}],
    [
        {"roll": [5, 2, 3, 4, 6, 6]},
        {"keep": [5]},
        {"roll": [1, 1, 2, 3, 4]},
        {"keep": [1, 1]},
        {"bank": True},
    ],
]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=str(ROOT / "docs"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    reader = ScriptedReader("labels")
    photo = SAMPLES / f"{SAMPLE}.jpg"
    reader.shows(photo.read_bytes(), labelled_reading(SAMPLE))
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "docs.db", reader=reader)
        with serving(app) as base:
            _play_and_shoot(base, photo, out)
    print(f"wrote {out / 'web-throw.png'} and {out / 'web-sheet.png'}")


def _play_and_shoot(base: str, photo: Path, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    g = httpx.post(base + "/api/games", json={"players": ["Ann", "Ben", "Cy"]}).json()
    auth = {"Authorization": f"Bearer {g['token']}"}
    for turn in ROUNDS:
        for ev in turn:
            r = httpx.post(f"{base}/api/games/{g['id']}/events", json=ev, headers=auth)
            r.raise_for_status()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 375, "height": 812})
        page.goto(g["scorer_url"].replace("http://testserver", base))
        page.get_by_test_id("photo-input").set_input_files(str(photo))
        page.get_by_test_id("confirm").click()
        page.locator("[data-testid=throw][data-status=rolled]").wait_for()
        page.evaluate(
            "window.scrollTo(0, document.querySelector('[data-testid=throw]').offsetTop - 8)"
        )
        page.screenshot(path=out / "web-throw.png")
        page.get_by_test_id("tab-sheet").click()
        page.get_by_test_id("sheet").wait_for()
        page.screenshot(path=out / "web-sheet.png")
        browser.close()


if __name__ == "__main__":
    main()
