"""Pictures of the live camera for the README: the camera view in Chromium, and a clip's timeline.

* ``docs/live-camera.png``: the camera view of a game, with Chromium's fake camera playing a clip
  of a labelled photo from ``sample_images/`` sliding in under a hand, taken once it lies still:
  the reading drawn over the video, the faces, the maximum, every keep and the confirm button.
  The app's reader is the labels (as in the tests), so the picture shows the page, not the vision
  model's accuracy.
* ``docs/live-timeline.png``: ``tools/bench/bench_live.py --plot`` of the 1280x720 clip, with
  the labels reader.

Run: `python tools/screenshots_live.py [--out docs]`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import cv2  # noqa: E402
import live_clips  # noqa: E402

from server.app import create_app  # noqa: E402
from tests.browser import CHROMIUM, CHROMIUM_ARGS, FAKE_CAMERA_ARGS, serving  # noqa: E402
from tests.live.helpers import api, photos  # noqa: E402
from tests.live.test_live_ws import LabelledReader  # noqa: E402

ARGS = CHROMIUM_ARGS + FAKE_CAMERA_ARGS
SIZE = (640, 360)


def camera(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    (a,) = photos(1, min_dice=6, max_dice=6)
    fa, sa, oa = live_clips.place(cv2.imread(a.path), SIZE)
    labelled = [(fa, live_clips.dice_on_frame(a, sa, oa))]
    with tempfile.TemporaryDirectory() as tmp:
        clip = Path(tmp) / "clip.y4m"
        _, frames = live_clips.build([fa], fps=15, still_s=8.0, motion_s=1.0)
        live_clips.write(clip, frames, 15, SIZE)
        app = create_app(Path(tmp) / "zilch.db", reader=LabelledReader(labelled))
        with serving(app) as url, sync_playwright() as p:
            game = api(url, "POST", "/api/games", {"preset": "keeling", "players": ["Ann", "Ben"]})
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=ARGS + [f"--use-file-for-fake-video-capture={clip}"],
            )
            page = browser.new_page(viewport={"width": 640, "height": 760})
            page.goto(f"{url}/live.html#game={game['id']}&token={game['token']}")
            page.wait_for_selector("[data-testid=live-confirm]:visible", timeout=20000)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out))
            browser.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    camera(out / "live-camera.png")
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "bench" / "bench_live.py"),
            "--reader",
            "labels",
            "--runs",
            "1",
            "--plot",
            str(out / "live-timeline.png"),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    print(f"wrote {out / 'live-camera.png'} and {out / 'live-timeline.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
