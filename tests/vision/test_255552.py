"""The throw the product exists for: 2 5 5 5 5 2, which three pairs score 1000 and a hurried
scorer 550. No photo of the licensed folders holds it (``sample_images/README.md``), so it is a
render (``sample_images/rendered-255552/``, made with ``tools/render/run.py --values 255552``):
six white dice laid flat side by side on dark cloth under a phone's flash, 43 px across.

``zilch read --json --rules keeling`` on it must be the throw read in full, scored 1000, or a
reading that asks. Today it asks: four things are reported, three of them uncertain, and three
dice are missing (that folder's README says which and why).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from vision.datasets import Box
from vision.evaluate import match

FOLDER = Path(__file__).resolve().parents[2] / "sample_images" / "rendered-255552"
IMAGE = FOLDER / "throw_255552_00009.jpg"


def _label() -> dict:
    return json.loads(IMAGE.with_suffix(".json").read_text())


def _read(capsys) -> dict:
    code = main(["read", "--json", "--rules", "keeling", str(IMAGE)])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_the_render_is_a_flat_throw_of_255552():
    # the fixture itself (its schema and image: tests/render/test_rendered_labels.py)
    label = _label()
    assert label["rendered"] is True
    assert sorted(d["value"] for d in label["dice"]) == [2, 2, 5, 5, 5, 5]
    assert all(d["on_table"] and not d["cocked"] and d["top_visible"] == 1.0
               for d in label["dice"])


def test_255552_is_scored_1000_or_the_reading_asks(capsys):
    reading = _read(capsys)
    asks = reading["needs_confirmation"] or reading["rethrow"]
    if not asks:
        assert reading["values"] == [2, 2, 5, 5, 5, 5]
        assert reading["options"][0]["points"] == 1000
    # whatever it asks, every die it accepts is a die of the throw with that value
    label = _label()
    accepted = [d for d in reading["dice"] if not d["flags"]]
    pairs = dict(match([Box(*d["box"]) for d in accepted],
                       [Box(*d["box"]) for d in label["dice"]]))
    for i, d in enumerate(accepted):
        assert i in pairs, f"accepted a {d['value']} at {d['box']} where the throw has no die"
        assert d["value"] == label["dice"][pairs[i]]["value"], f"die at {d['box']}"


@pytest.mark.xfail(
    reason="three of the six dice are not reported (two fives whose pips the flash greys, a 2 "
    "read by one pip) and another 2 is read as two 1s, flagged: the issue's target, every die "
    "read, is not met yet. Strict: a full read fails here until the mark goes",
    strict=True,
    raises=AssertionError,
)
def test_255552_is_read_in_full_and_scored_1000(capsys):
    reading = _read(capsys)
    assert not reading["needs_confirmation"] and not reading["rethrow"]
    assert reading["values"] == [2, 2, 5, 5, 5, 5]
    assert max(o["points"] for o in reading["options"]) == 1000
