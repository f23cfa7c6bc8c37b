"""A real browser: Debian's headless Chromium, driven by playwright, plays a turn on the page.

It creates a game, uploads a photo of a known throw and sees its faces and the maximum, keeps
and banks, sees the running total on the sheet, and opens the dispute view. Screenshots at 375
and 1280 px wide are kept in ``test-artifacts/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.app import create_app
from tests.browser import CHROMIUM, CHROMIUM_ARGS, serving
from tests.server.conftest import (
    SAMPLES,
    ScriptedReader,
    labelled_reading,
    photo_of,
    reading_of,
)

ARTIFACTS = Path(os.path.abspath(__file__)).parents[2] / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's /usr/bin/chromium"),
]

#: a real photo of a known throw: six dark marbled dice showing 1 1 4 5 5 6 (BSD-3, nell-byler)
SAMPLE = "nell-byler-IMG_20191209_095800"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Path, ScriptedReader]]:
    # the page is under test here, not the vision model: the photo reads as its label says
    # (tests/server/test_browser_vision.py runs the real reader)
    reader = ScriptedReader("test-model-1")
    photo = SAMPLES / f"{SAMPLE}.jpg"
    reader.shows(photo.read_bytes(), labelled_reading(SAMPLE, version="test-model-1"))
    with serving(create_app(tmp_path / "browser.db", reader=reader)) as base:
        yield base, photo, reader


@pytest.mark.parametrize("width", [375, 1280])
def test_a_turn_in_the_browser(live, width):
    from playwright.sync_api import expect, sync_playwright

    base, photo, _ = live
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(base + "/")
            page.get_by_test_id("preset").select_option("keeling")
            expect(page.get_by_test_id("preset-summary")).to_contain_text("Family rules")
            page.get_by_test_id("player-0").fill("Alf")
            page.get_by_test_id("player-1").fill("Bee")
            page.screenshot(path=ARTIFACTS / f"start-{width}.png", full_page=True)
            page.get_by_test_id("create").click()
            expect(page.get_by_test_id("current-player")).to_have_text("Alf")
            expect(page.get_by_test_id("role")).to_have_text("scorer")

            # a photo of a known throw: its faces and the maximum are on the page
            page.get_by_test_id("photo-input").set_input_files(str(photo))
            expect(page.get_by_test_id("read-faces")).to_have_attribute("data-faces", "115546")
            expect(page.get_by_test_id("max-points")).to_have_text("300")
            expect(page.locator("[data-testid=overlay] g[data-flag=ok]")).to_have_count(6)
            page.wait_for_function(
                "document.querySelector('[data-testid=overlay] img').naturalWidth === 640"
            )
            page.screenshot(path=ARTIFACTS / f"throw-{width}.png", full_page=True)
            _no_overflow(page, width)

            # confirm and keep the best (1 1 5 5: 300), then type the next throws
            page.get_by_test_id("confirm").click()
            expect(page.get_by_test_id("throw-status")).to_have_text("rolled")
            page.get_by_test_id("keep-1155").click()
            expect(page.get_by_test_id("turn-points")).to_have_text("300")
            expect(page.get_by_test_id("dice-left")).to_have_text("2")
            for face in [5, 1]:
                page.get_by_test_id(f"face-{face}").click()
            page.get_by_test_id("type-roll").click()
            page.get_by_test_id("keep-15").click()  # hot dice: six again
            expect(page.get_by_test_id("dice-left")).to_have_text("6")
            for face in [1, 1, 1, 3, 4, 6]:
                page.get_by_test_id(f"face-{face}").click()
            page.get_by_test_id("type-roll").click()
            expect(page.get_by_test_id("max-points")).to_have_text("1000")
            page.get_by_test_id("keep-111").click()
            expect(page.get_by_test_id("turn-points")).to_have_text("1450")
            page.get_by_test_id("bank").click()
            expect(page.get_by_test_id("current-player")).to_have_text("Bee")

            # the running total on the sheet
            page.get_by_test_id("tab-sheet").click()
            cell = page.locator("table.sheet td[data-player=Alf][data-round='1']")
            expect(cell).to_have_text("1450")
            expect(page.get_by_test_id("total-Alf")).to_have_text("1450")
            page.screenshot(path=ARTIFACTS / f"sheet-{width}.png", full_page=True)
            _no_overflow(page, width)

            # the history and the dispute view of the photo
            page.get_by_test_id("tab-history").click()
            expect(page.locator("[data-testid=history] li")).to_have_count(3)
            page.get_by_test_id("history-1").click()
            expect(page.get_by_test_id("dispute")).to_be_visible()
            expect(page.get_by_test_id("model-version")).to_have_text("test-model-1")
            expect(page.get_by_test_id("dispute-keep")).to_contain_text("for 300")
            page.wait_for_function(
                "document.querySelector('[data-testid=overlay-image]')?.naturalWidth === 640"
            )
            page.get_by_test_id("reread-button").click()
            expect(page.get_by_test_id("reread-verdict")).to_contain_text("reads the same")
            page.screenshot(path=ARTIFACTS / f"dispute-{width}.png", full_page=True)

            # a viewer (no token) sees the game and cannot write
            viewer = browser.new_page(viewport={"width": width, "height": 900})
            viewer.goto(
                base
                + "/"
                + page.url.split("/", 3)[3]
                .split("/throw/")[0]
                .replace("#/game/", "#/game/")
                .rsplit("/history", 1)[0]
            )
            expect(viewer.get_by_test_id("role")).to_contain_text("read-only")
            expect(viewer.get_by_test_id("current-player")).to_have_text("Bee")
            expect(viewer.get_by_test_id("bank")).to_have_count(0)
            expect(viewer.get_by_test_id("photo-input")).to_have_count(0)
        finally:
            browser.close()
    assert errors == []


def _no_overflow(page, width: int) -> None:
    """Nothing sticks out sideways, and every button is a 44 px touch target."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    culprits = page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map(e => e.tagName + '.' + (e.getAttribute('class') || '')
                  + '#' + (e.dataset.testid || ''))
        .slice(0, 6)""")
    assert wide <= width, f"the page is {wide} px wide at {width}: {culprits}"
    small = page.evaluate("""[...document.querySelectorAll('button, a.button, select, input')]
        .filter(e => e.offsetParent !== null && !e.classList.contains('hidden-input'))
        .map(e => e.getBoundingClientRect())
        .filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0, f"{small} touch targets are smaller than 44 px"


def test_starter_unsure_die_claim_and_classic_marks(live, tmp_path):
    """The page's helpers: who starts, tapping the face of an unsure die, saying a possible die
    is no die, checking a claimed score, and classic-1990's mouseholes on the sheet."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    base, _, reader = live
    # a photo with a die both cocked and unsure: thrown again, with no face to tap
    cocked = tmp_path / "cocked.jpg"
    cocked.write_bytes(
        reader.shows(
            photo_of([1, 5, 5, 2, 3, 1], seed=32),
            reading_of([1, 5, 5, 2, 3, 6], {5: ("cocked", "uncertain")}),
        )
    )
    # a photo whose last die the reader is unsure of, and a seventh "die" that is a speck
    unsure = tmp_path / "unsure.jpg"
    unsure.write_bytes(
        reader.shows(
            photo_of([1, 5, 5, 2, 3, 1], seed=33),
            reading_of([1, 5, 5, 2, 3, 6, 2], {5: ("uncertain",), 6: ("uncertain",)}),
        )
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 375, "height": 900})
            page.goto(base + "/")
            page.get_by_test_id("preset").select_option("keeling")
            page.get_by_test_id("add-player").click()
            for i, name in enumerate(["Alice", "Bob", "Doris"]):
                page.get_by_test_id(f"player-{i}").fill(name)
            # keeling: one die each; Bob and Doris tie on 6, then Doris wins the throw-off
            for name, face in [("Alice", "5"), ("Bob", "6"), ("Doris", "6")]:
                page.get_by_test_id(f"starter-{name}").select_option(face)
            page.get_by_role("button", name="Who starts?").click()
            expect(page.get_by_test_id("starter-result")).to_contain_text("Bob and Doris tie")
            page.get_by_test_id("starter-Alice").select_option("")
            page.get_by_test_id("starter-Bob").select_option("2")
            page.get_by_test_id("starter-Doris").select_option("4")
            page.get_by_role("button", name="Who starts?").click()
            expect(page.get_by_test_id("player-0")).to_have_value("Doris")
            expect(page.get_by_test_id("player-1")).to_have_value("Alice")
            expect(page.get_by_test_id("player-2")).to_have_value("Bob")
            page.get_by_test_id("create").click()
            expect(page.get_by_test_id("current-player")).to_have_text("Doris")

            page.get_by_test_id("photo-input").set_input_files(str(cocked))
            expect(page.get_by_test_id("throw-again")).to_be_visible()
            expect(page.locator("[data-die='5'] text")).to_have_text("6 cocked: throw again")
            expect(page.get_by_test_id("fix-picker")).to_be_empty()
            expect(page.get_by_test_id("confirm")).to_be_disabled()
            page.get_by_test_id("photo-input").set_input_files(str(unsure))
            expect(page.get_by_test_id("problem")).to_contain_text("uncertain")
            expect(page.get_by_test_id("confirm")).to_be_disabled()
            page.get_by_test_id("fix-5-1").click()
            # the speck read as a 2: tapped as a face it is a seventh die, then said to be none
            page.get_by_test_id("fix-6-2").click()
            expect(page.get_by_test_id("read-faces")).to_have_attribute("data-faces", "1552312")
            expect(page.get_by_test_id("confirm")).to_be_disabled()
            page.get_by_test_id("fix-6-none").click()
            expect(page.get_by_test_id("fix-6-none")).to_have_attribute("aria-pressed", "true")
            expect(page.locator("[data-die='6'] text")).to_have_text("no die")
            expect(page.get_by_test_id("read-faces")).to_have_attribute("data-faces", "155231")
            page.get_by_test_id("confirm").click()
            expect(page.get_by_test_id("max-points")).to_have_text("300")
            page.get_by_test_id("claim").fill("250")
            page.get_by_test_id("check-claim").click()
            expect(page.get_by_test_id("claim-result")).to_contain_text("short by 50")
            page.get_by_test_id("keep-1155").click()
            expect(page.get_by_test_id("turn-points")).to_have_text("300")
            gid = page.url.split("#/game/")[1].split("/")[0]
            t = httpx.get(f"{base}/api/games/{gid}/throws/2").json()  # 1: the cocked photo
            assert t["corrections"][0]["data"]["dice"] == [
                {"index": 5, "value": 1},
                {"index": 6, "value": None},
            ]
            assert t["reading"]["dice"][5]["value"] == 6
            # the dispute view says what the scorer tapped for each die
            page.goto(f"{base}/#/game/{gid}/throw/2")
            expect(page.get_by_test_id("scorer-said-5")).to_have_text("1")
            expect(page.get_by_test_id("scorer-said-6")).to_have_text("no die")
            expect(page.get_by_test_id("scorer-said-0")).to_have_text("—")

            # classic-1990: a 6-dice zilch is a black mousehole on the sheet's own scale
            g = httpx.post(
                f"{base}/api/games", json={"preset": "classic-1990", "players": ["Alf", "Bee"]}
            ).json()
            auth = {"Authorization": f"Bearer {g['token']}"}
            for ev in [
                {"roll": [1, 2, 4, 4, 5, 6]},
                {"keep": [1]},
                {"roll": [2, 5, 5, 5, 6]},
                {"keep": [5, 5, 5]},
                {"bank": True},
                {"roll": [2, 2, 3, 4, 6, 6]},
            ]:
                assert (
                    httpx.post(
                        f"{base}/api/games/{g['id']}/events", json=ev, headers=auth
                    ).status_code
                    == 201
                )
            page.goto(f"{base}/#/game/{g['id']}/sheet")
            expect(page.locator("td[data-player=Alf][data-round='1']")).to_have_text("600")
            page.get_by_role("button", name="Show the sheet's own scale").click()
            expect(page.locator("td[data-player=Alf][data-round='1']")).to_have_text("6")
            expect(page.locator("td[data-player=Bee][data-round='1'] .hole.black")).to_have_count(1)
            page.screenshot(path=ARTIFACTS / "sheet-classic-375.png", full_page=True)
        finally:
            browser.close()
