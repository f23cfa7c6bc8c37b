"""The camera view in a real browser: Debian's Chromium, headless, with a fake camera that plays a
.y4m clip built from labelled photos (a hand sweeps in the first throw, it lies still for a few
seconds, a hand sweeps in the second).

The app runs in-process under uvicorn on a real SQLite file, with the clip tool's LabelReader as
its reader (as the server's own tests script theirs): this test checks the page, the socket and
the tracker end to end; test_watch.py checks the reader's part with vision.read.

To know which clip frame each sent frame was, the test (not the page) wraps ``canvas.toBlob``
to keep a tiny thumbnail of every frame the page encodes, and matches it to the clip's frames.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.browser import CHROMIUM as DEBIAN_CHROMIUM
from tests.browser import CHROMIUM_ARGS, FAKE_CAMERA_ARGS, serving
from tests.live.helpers import api, load_clips, photos

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = Path(DEBIAN_CHROMIUM)
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")
app_module = pytest.importorskip("server.app", reason="the server has not landed")
from tests.live.test_live_ws import LabelledReader  # noqa: E402

clips = load_clips()
SIZE = (640, 360)
FPS = 15
THUMB = (32, 18)
MOTION_S = 1.0
STILL_S = 3.5
#: the issue's budget from the dice settling to the page showing the throw
SHOW_WITHIN_S = 2.0

FLAGS = CHROMIUM_ARGS + FAKE_CAMERA_ARGS

# Keeps a thumbnail of every frame the page encodes (test instrumentation, not page code).
THUMBS_JS = """
(() => {
  window.__thumbs = [];
  const orig = HTMLCanvasElement.prototype.toBlob;
  HTMLCanvasElement.prototype.toBlob = function (cb, type, quality) {
    const c = document.createElement("canvas");
    c.width = WIDTH; c.height = HEIGHT;
    const g = c.getContext("2d");
    g.drawImage(this, 0, 0, c.width, c.height);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const rgb = [];
    for (let i = 0; i < d.length; i += 4) rgb.push(d[i], d[i + 1], d[i + 2]);
    window.__thumbs.push({ t: performance.now(), rgb });
    return orig.call(this, cb, type, quality);
  };
})();
""".replace("WIDTH", str(THUMB[0])).replace("HEIGHT", str(THUMB[1]))


COCKED = "[data-testid=live-die][data-flags=cocked]"
SHOWS = "document.querySelector('[data-testid=live-read]').dataset.values === '{}'"


def thumbnails(frames) -> np.ndarray:
    """The clip's frames as the browser sees them: through 4:2:0, scaled to thumbnails."""
    thumbs = []
    for f in frames:
        yuv = cv2.cvtColor(f, cv2.COLOR_BGR2YUV_I420)
        back = cv2.cvtColor(yuv, cv2.COLOR_YUV2RGB_I420)
        thumbs.append(cv2.resize(back, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32))
    return np.stack(thumbs)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    a, b = photos(2, min_dice=6, max_dice=6)  # a game's first throw is of six dice
    fa, scale_a, off_a = clips.place(cv2.imread(a.path), SIZE)
    fb, scale_b, off_b = clips.place(cv2.imread(b.path), SIZE, fa[0, 0].tolist())
    # in the second throw, one die is cocked (the reader says so): "throw again" over it
    dice_b = clips.dice_on_frame(b, scale_b, off_b)
    dice_b[0] = (*dice_b[0], ("cocked",))
    labelled = [(fa, clips.dice_on_frame(a, scale_a, off_a)), (fb, dice_b)]
    out = tmp_path_factory.mktemp("clip") / "two_throws.y4m"
    plan, frames = clips.build(
        [fa, fb], fps=FPS, still_s=STILL_S, motion_s=MOTION_S, values=[a.values, b.values]
    )
    frames = list(frames)
    clips.write(out, iter(frames), FPS, SIZE)
    b_values = sorted(b.values)
    b_values.remove(dice_b[0][0])  # the cocked die does not count
    return out, plan, labelled, (a, b_values), thumbnails(frames)


@pytest.fixture(scope="module")
def server(clip, tmp_path_factory):
    _, _, labelled, _, _ = clip
    db = tmp_path_factory.mktemp("db") / "zilch.db"
    with serving(app_module.create_app(db, reader=LabelledReader(labelled))) as url:
        yield url


@contextmanager
def live_page(video: Path, url: str, height: int):
    """The live page at ``url`` in headless Chromium, with ``video`` as its camera."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS + [f"--use-file-for-fake-video-capture={video}"],
        )
        try:
            page = browser.new_page(viewport={"width": 900, "height": height})
            page.add_init_script(THUMBS_JS)
            page.goto(url)
            yield page
        finally:
            browser.close()


def test_the_camera_view_shows_each_throw_once_it_settles_and_nothing_while_it_moves(clip, server):
    path, plan, _, (a, b), clip_thumbs = clip
    game = api(server, "POST", "/api/games", {"preset": "keeling", "players": ["Alf", "Bee"]})
    url = f"{server}/live.html#game={game['id']}&token={game['token']}"
    with live_page(path, url, height=700) as page:
        # the first throw, then the second (their faces and the maximum)
        page.wait_for_function(SHOWS.format("".join(map(str, a.values))), timeout=20000)
        first = {
            "read": page.inner_text("[data-testid=live-read]"),
            "max": page.get_attribute("[data-testid=live-max]", "data-max"),
            "keeps": page.locator("[data-testid=live-keeps] li").count(),
            "labels": page.locator("[data-testid=live-die]").count(),
            "rules": page.inner_text("[data-testid=live-rules]"),
        }
        # one tap confirms the throw into the game (its frame is stored as the photo)
        page.click("[data-testid=live-confirm]")
        page.wait_for_function(
            "document.querySelector('[data-testid=live-note]').dataset.confirmed === '1'",
            timeout=10000,
        )
        page.wait_for_timeout(500)  # more frames of the same throw: the note stays
        confirmed_note = page.inner_text("[data-testid=live-note]")
        page.wait_for_function(SHOWS.format("".join(map(str, b))), timeout=20000)
        second = {
            "read": page.inner_text("[data-testid=live-read]"),
            "again": page.locator(COCKED).all_inner_texts(),
            "rethrow": page.locator("[data-testid=live-rethrow]").is_visible(),
            "confirm": page.locator("[data-testid=live-confirm]").is_visible(),
        }
        live = page.evaluate("window.zilchLive")
        thumbs = page.evaluate("window.__thumbs")
        start = page.evaluate("window.zilchLive.videoStart")
        error = page.locator("[data-testid=live-error]")
        assert error.is_hidden()

    from scorer import get_rules, options

    assert sorted(int(v) for v in first["read"].removeprefix("read: ").split()) == list(a.values)
    assert first["max"] == str(int(options("".join(map(str, a.values)), get_rules("keeling")).max))
    assert first["keeps"] >= 1 and first["labels"] == len(a.values)
    assert sorted(int(v) for v in second["read"].removeprefix("read: ").split()) == b
    assert second["again"] == ["throw again"] and second["rethrow"] and not second["confirm"]
    assert "rules keeling" in first["rules"] and game["id"] in first["rules"]
    # the game has the first throw, with its photo and the faces confirmed
    thrown = api(server, "GET", f"/api/games/{game['id']}/throws/1")
    assert thrown["source"] == "photo" and sorted(thrown["faces"]) == list(a.values)
    assert thrown["status"] == "rolled"
    assert confirmed_note.startswith("confirmed as throw 1 of the game")

    check_timeline(live, thumbs, start, plan, clip_thumbs, [list(a.values), b])


def check_timeline(live, thumbs, start, plan, clip_thumbs, throws) -> None:
    """Never a reading during motion; each throw shown within 2 s of its first still frame;
    exactly these throws read."""
    # Which clip frame was each sent frame? The nearest of the clip's thumbnails.
    log = live["log"]
    n = min(len(log), len(thumbs))
    assert n > 20, "the page answered too few frames"
    frame_of = []
    for th in thumbs[:n]:
        rgb = np.asarray(th["rgb"], np.float32).reshape(THUMB[1], THUMB[0], 3)
        frame_of.append(int(np.argmin(np.abs(clip_thumbs - rgb).mean(axis=(1, 2, 3)))))
    segments = plan.segments

    def segment(f):
        return next(i for i, s in enumerate(segments) if s.start <= f < s.end)

    # Never a reading during motion: no sent frame of a motion segment was answered with one.
    for k in range(n):
        s = segments[segment(frame_of[k])]
        if s.kind == "motion":
            assert log[k]["shown"] is None, (k, frame_of[k], log[k])
    # Each throw is shown within 2 s of the first still frame the page sent of it.
    for number, values in enumerate(throws, start=1):
        still = [s for s in segments if s.kind == "still"][number - 1]
        sent_still = [k for k in range(n) if still.start <= frame_of[k] < still.end]
        shown = [k for k in range(n) if log[k]["shown"] == values and log[k]["number"] == number]
        assert sent_still and shown
        settled_at = thumbs[sent_still[0]]["t"] - start  # ms
        shown_at = log[shown[0]]["at"]
        assert (shown_at - settled_at) / 1000 <= SHOW_WITHIN_S, (number, shown_at, settled_at)
        assert shown[0] >= sent_still[0]
    # Exactly two throws were read.
    assert sorted({e["number"] for e in log if e["newThrow"]}) == list(range(1, len(throws) + 1))


def test_the_camera_view_with_the_real_reader(tmp_path):
    """The same with the app's own reader (vision.read) and no game: two photos the reader
    reads right as stills, at the clip's size."""
    from tests.live.test_watch import as_browser_sends, photos_read_right

    size = (960, 540)
    a, b = photos_read_right(2, size, through=as_browser_sends)
    fa, _, _ = clips.place(cv2.imread(a.path), size)
    fb, _, _ = clips.place(cv2.imread(b.path), size, fa[0, 0].tolist())
    plan, frames = clips.build([fa, fb], fps=FPS, still_s=3.0, motion_s=MOTION_S)
    frames = list(frames)
    out = tmp_path / "clip.y4m"
    clips.write(out, iter(frames), FPS, size)
    clip_thumbs = thumbnails(frames)
    with (
        serving(app_module.create_app(tmp_path / "zilch.db")) as url,
        live_page(out, f"{url}/live.html#rules=keeling", height=800) as page,
    ):
        page.wait_for_function(SHOWS.format("".join(map(str, a.values))), timeout=20000)
        first_max = page.get_attribute("[data-testid=live-max]", "data-max")
        page.wait_for_function(SHOWS.format("".join(map(str, b.values))), timeout=20000)
        live = page.evaluate("window.zilchLive")
        thumbs = page.evaluate("window.__thumbs")
        start = page.evaluate("window.zilchLive.videoStart")
    from scorer import get_rules, options

    assert first_max == str(int(options("".join(map(str, a.values)), get_rules("keeling")).max))
    check_timeline(live, thumbs, start, plan, clip_thumbs, [list(a.values), list(b.values)])
