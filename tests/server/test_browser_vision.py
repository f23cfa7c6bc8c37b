"""The whole path in a real browser, with the real reader: a photo of a known throw goes through
``vision.read`` (the production reader and its shipped model, no script) and the page shows its
faces and maximum.

The photo is a labelled sample (``sample_images/``), which the shipped model was not trained on
(see ``models/README.md``: the sample photos are left out of training).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from scorer import get_rules, options
from server.app import create_app
from tests.browser import CHROMIUM, CHROMIUM_ARGS, serving

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
#: white dice with black pips on light wood (MIT, matteop65), labelled 5 5 5
SAMPLE = "matteop65-five_30"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's /usr/bin/chromium"),
]


def test_a_real_photo_read_by_the_real_model_in_the_browser(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    label = json.loads((SAMPLES / f"{SAMPLE}.json").read_text())
    faces = sorted(label["values"])
    best = options("".join(map(str, faces)), get_rules("keeling")).max
    with serving(create_app(tmp_path / "real.db")) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 375, "height": 900})
            page.goto(base + "/")
            page.get_by_test_id("preset").select_option("keeling")
            page.get_by_test_id("player-0").fill("Alf")
            page.get_by_test_id("player-1").fill("Bee")
            page.get_by_test_id("create").click()
            expect(page.get_by_test_id("current-player")).to_have_text("Alf")
            # a typed first roll, three 1s kept: the photo's three dice are the next roll
            assert len(faces) == 3
            for face in [1, 1, 1, 2, 3, 4]:
                page.get_by_test_id(f"face-{face}").click()
            page.get_by_test_id("type-roll").click()
            page.get_by_test_id("keep-111").click()
            expect(page.get_by_test_id("dice-left")).to_have_text(str(len(faces)))
            page.get_by_test_id("photo-input").set_input_files(str(SAMPLES / f"{SAMPLE}.jpg"))
            shown = page.get_by_test_id("read-faces")
            expect(shown).to_have_attribute("data-faces", re.compile(r"^\d+$"))
            assert sorted(int(c) for c in shown.get_attribute("data-faces")) == faces
            expect(page.get_by_test_id("max-points")).to_have_text(str(best))
            expect(page.locator("[data-testid=overlay] g[data-flag=ok]")).to_have_count(len(faces))
        finally:
            browser.close()
