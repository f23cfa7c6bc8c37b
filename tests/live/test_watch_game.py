"""``zilch watch --game ID --token T``: each settled throw is posted into a running game of the
real app (uvicorn on a real SQLite file), through its HTTP API.

Both sides read with the clip tool's LabelReader (the CLI's reader is swapped in-process), so
that the test checks the posting, not the reader's accuracy.
"""

from __future__ import annotations

import json

import cv2
import pytest

from tests.browser import serving
from tests.live.helpers import api, load_clips, photos

app_module = pytest.importorskip("server.app", reason="the server has not landed")
from cli import main as cli_main  # noqa: E402
from cli.commands import watch as watch_cmd  # noqa: E402
from tests.live.test_live_ws import LabelledReader  # noqa: E402

clips = load_clips()
SIZE = (960, 540)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    a, b = photos(2, min_dice=6, max_dice=6)
    fa, sa, oa = clips.place(cv2.imread(a.path), SIZE)
    fb, sb, ob = clips.place(cv2.imread(b.path), SIZE, fa[0, 0].tolist())
    labelled = [(fa, clips.dice_on_frame(a, sa, oa)), (fb, clips.dice_on_frame(b, sb, ob))]
    tmp = tmp_path_factory.mktemp("watch_game")
    plan, frames = clips.build([fa, fb], fps=30, still_s=0.6, motion_s=0.5)
    clip = tmp / "clip.avi"
    clips.write(clip, frames, 30, SIZE)
    return clip, labelled, (a, b), tmp


def watch_into(clip, game_id: str, token: str, server: str) -> int:
    """``zilch watch --video CLIP --json --game ID --token T --server URL``: its exit status."""
    argv = ["watch", "--video", str(clip), "--json", "--game", game_id, "--token", token]
    return cli_main.main([*argv, "--server", server])


def test_each_throw_is_posted_into_the_game(setup, monkeypatch, capsys):
    clip, labelled, (a, b), tmp = setup
    app = app_module.create_app(tmp / "zilch.db", reader=LabelledReader(labelled))
    monkeypatch.setattr(watch_cmd, "frame_reader", lambda: clips.LabelReader(labelled))
    with serving(app) as url:
        game = api(url, "POST", "/api/games", {"preset": "keeling", "players": ["Alf", "Bee"]})
        code = watch_into(clip, game["id"], game["token"], url)
        out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        first = api(url, "GET", f"/api/games/{game['id']}/throws/1")
        state = api(url, "GET", f"/api/games/{game['id']}")
    assert code == 0
    assert [o["values"] for o in out] == [list(a.values), list(b.values)]
    # the first throw went in with its photo and was confirmed (nothing in it was in doubt)
    assert out[0]["game"] == {"throw": 1, "confirmed": True}
    assert first["source"] == "photo" and sorted(first["faces"]) == list(a.values)
    assert first["status"] == "rolled"
    # the second came before anyone kept dice from the first: the game says so, and watching
    # went on (a refusal for one throw does not stop the watch)
    assert out[1]["game"]["confirmed"] is False and out[1]["game"].get("error")
    assert state["id"] == game["id"]


def test_a_wrong_token_stops_the_watch_with_one_line(setup, capsys):
    clip, labelled, _, tmp = setup
    app = app_module.create_app(tmp / "other.db", reader=LabelledReader(labelled))
    with serving(app) as url:
        game = api(url, "POST", "/api/games", {"preset": "keeling", "players": ["Alf", "Bee"]})
        import unittest.mock

        with unittest.mock.patch.object(
            watch_cmd, "frame_reader", lambda: clips.LabelReader(labelled)
        ):
            code = watch_into(clip, game["id"], "not-the-token", url)
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert "refused" in captured.err and len(captured.err.strip().splitlines()) == 1
