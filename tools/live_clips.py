"""Test clips for the live camera, built from labelled photos (reproducible: a fixed seed).

A clip is a list of *scenes* (a photo of a throw placed on the frame, or the empty table), and
between two scenes a stretch of *motion*: a hand (a skin-coloured palm with fingers, motion
blurred) sweeps across the frame while the next photo slides in under it, as dice rolling in
would. Every frame carries a little sensor noise, so "still" means still as a camera sees it.

    python tools/live_clips.py OUT.y4m|OUT.avi|OUT.mp4 [PHOTO ...] [--sample N]
        [--size 1280x720] [--fps 30] [--still 1.0] [--motion 0.7]

writes the clip and, beside it, ``OUT.json``: the frame ranges of each motion and still segment,
and each still scene's expected faces when the photos' labels are known. ``.y4m`` is what
Chromium's fake camera plays (``--use-file-for-fake-video-capture``); ``.avi`` (MJPG) and
``.mp4`` are for ``zilch watch --video``. PHOTO ``empty`` is an empty table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]

#: The empty table (a scene without dice).
EMPTY = "empty"


@dataclass(frozen=True)
class Photo:
    """A labelled photo: its faces, and each die's box (x, y, w, h in photo pixels) if known."""

    path: str
    values: tuple[int, ...]  # sorted
    #: (value, box) per die, when the label has boxes; (value, box, flags) for renders
    dice: tuple[tuple, ...] = ()
    #: what the boxes cover: "whole_die", "pips" (matteop65), None without boxes
    boxes: str | None = None
    #: the label's verdict: a die cocked or off the table (None: the labellers were unsure)
    rethrow: bool | None = False


@dataclass
class Segment:
    kind: str  # "motion" or "still"
    start: int  # first frame
    end: int  # one past the last frame
    scene: int = -1  # index of the scene shown still (still segments)
    values: list[int] | None = None  # the expected faces, sorted (None: not known)
    empty: bool = False


@dataclass
class ClipPlan:
    size: tuple[int, int]
    fps: float
    segments: list[Segment] = field(default_factory=list)

    @property
    def frames(self) -> int:
        return self.segments[-1].end if self.segments else 0

    def to_json(self) -> dict:
        return {"size": list(self.size), "fps": self.fps,
                "segments": [asdict(s) for s in self.segments]}


# --- labelled photos ------------------------------------------------------------------------


def data_root() -> Path:
    """``$ZILCH_DATA``, else the nearest ``shared/data`` above the repository."""
    env = os.environ.get("ZILCH_DATA")
    if env:
        return Path(env)
    for parent in ROOT.parents:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared" / "data"
    return ROOT.parent / "shared" / "data"


def yolo_photo(image: Path, label: Path) -> Photo:
    """A photo labelled in YOLO format (class 0..5 = face 1..6, normalised centre and size)."""
    h, w = cv2.imread(str(image)).shape[:2]
    dice = []
    for line in label.read_text().split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        c, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
        dice.append((c + 1, ((cx - bw / 2) * w, (cy - bh / 2) * h, bw * w, bh * h)))
    return Photo(str(image), tuple(sorted(v for v, _ in dice)), tuple(dice), "whole_die")


def json_photo(label: Path) -> Photo:
    """A photo of ``sample_images/`` from its label file (see sample_images/README.md), or a
    rendered throw of ``sample_images/rendered/`` (schema ``zilch-render/1``: its dice carry
    the flags ``cocked`` and ``off_table`` of their labels)."""
    d = json.loads(label.read_text())
    if str(d.get("schema", "")).startswith("zilch-render"):
        dice = []
        for x in d["dice"]:
            flags = tuple(f for f, on in (("cocked", x["cocked"]), ("off_table", not x["on_table"]))
                          if on)
            dice.append((int(x["value"]), tuple(float(v) for v in x["box"]), flags))
        return Photo(str(label.with_name(d["image"])), tuple(sorted(v for v, *_ in dice)),
                     tuple(dice), "whole_die", any(f for *_, f in dice))
    dice = tuple((int(x["value"]), tuple(float(v) for v in x["box"])) for x in d.get("dice", []))
    return Photo(str(label.with_name(d["image"])), tuple(sorted(d["values"])), dice,
                 d.get("boxes") if dice else None, d.get("rethrow"))


def rendered_photos() -> list[Photo]:
    """The rendered throws of ``sample_images/rendered/`` (not photos: labelled renders with
    cocked and off-table dice)."""
    return [json_photo(p) for p in sorted((ROOT / "sample_images" / "rendered").glob("*.json"))]


def sample_photos() -> list[Photo]:
    """The labelled photos of ``sample_images/`` (in name order), else nell-byler's test set
    (BSD-3) from the data root."""
    found = [json_photo(p) for p in sorted((ROOT / "sample_images").glob("*.json"))]
    if found:
        return found
    for root in (data_root() / "nell-byler" / "test",):
        for images in sorted(root.rglob("images")):
            if not images.is_dir():
                continue
            for labels in sorted(images.parent.glob("labels*")):
                for img in sorted(images.glob("*.jpg")):
                    txt = labels / (img.stem + ".txt")
                    if txt.is_file():
                        found.append(yolo_photo(img, txt))
        if found:
            return found
    return found


# --- scenes ---------------------------------------------------------------------------------


def table_colour(photo: np.ndarray) -> tuple[int, int, int]:
    """The photo's border colour (median), used for the rest of the frame: the table."""
    border = np.concatenate([photo[0], photo[-1], photo[:, 0], photo[:, -1]])
    return tuple(int(v) for v in np.median(border, axis=0))


def place(photo: np.ndarray, size: tuple[int, int], fill: tuple[int, int, int] | None = None
          ) -> tuple[np.ndarray, float, tuple[int, int]]:
    """The photo scaled to fit ``size`` (w, h), centred on the table colour.

    Returns the frame, the scale and the offset of the photo in it.
    """
    W, H = size
    h, w = photo.shape[:2]
    s = min(W / w, H / h)
    pw, ph = round(w * s), round(h * s)
    scaled = cv2.resize(photo, (pw, ph), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
    frame = np.empty((H, W, 3), np.uint8)
    frame[:] = fill if fill is not None else table_colour(photo)
    ox, oy = (W - pw) // 2, (H - ph) // 2
    frame[oy : oy + ph, ox : ox + pw] = scaled
    return frame, s, (ox, oy)


def dice_on_frame(photo: Photo, scale: float, offset: tuple[int, int]
                  ) -> list[tuple[int, tuple[float, float, float, float]]]:
    """The photo's labelled dice in the coordinates of the frame it was placed on."""
    ox, oy = offset
    return [(v, (x * scale + ox, y * scale + oy, w * scale, h * scale), *rest)
            for v, (x, y, w, h), *rest in photo.dice]


def move_dice(frame: np.ndarray, boxes: Sequence[tuple[float, float, float, float]],
              moves: dict[int, tuple[float, float]]) -> np.ndarray:
    """The frame with some dice picked up and put down elsewhere: ``moves`` maps a box index to
    the new centre. The old place is inpainted from the table around it."""
    out = frame.copy()
    mask = np.zeros(frame.shape[:2], np.uint8)
    crops = {}
    for i in moves:
        x, y, w, h = boxes[i]
        pad = 0.15 * max(w, h)
        x0, y0 = max(0, int(x - pad)), max(0, int(y - pad))
        x1, y1 = min(frame.shape[1], int(math.ceil(x + w + pad))), min(
            frame.shape[0], int(math.ceil(y + h + pad)))
        crops[i] = frame[y0:y1, x0:x1].copy()
        mask[y0:y1, x0:x1] = 255
    out = cv2.inpaint(out, mask, 5, cv2.INPAINT_TELEA)
    for i, (cx, cy) in moves.items():
        crop = crops[i]
        ch, cw = crop.shape[:2]
        x0, y0 = int(round(cx - cw / 2)), int(round(cy - ch / 2))
        out[y0 : y0 + ch, x0 : x0 + cw] = crop
    return out


# --- motion ---------------------------------------------------------------------------------


def draw_hand(frame: np.ndarray, cx: float, cy: float, scale: float, angle: float,
              blur: int) -> np.ndarray:
    """A hand seen from above: a palm, four fingers, a thumb and the wrist, skin coloured and
    shaded, blurred along its (horizontal) motion. Drawn in its bounding box only."""
    H, W = frame.shape[:2]
    r = scale
    pad = blur + 2
    x0, x1 = max(0, int(cx - 1.0 * r) - pad), min(W, int(cx + 1.0 * r) + pad)
    y0, y1 = max(0, int(cy - 1.6 * r) - pad), min(H, int(cy + 1.0 * r) + pad)
    out = frame.copy()
    if x1 <= x0 or y1 <= y0:
        return out
    roi = out[y0:y1, x0:x1]
    mask = np.zeros(roi.shape[:2], np.uint8)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def ell(x, y, a, b, ang):
        px, py = cx + x * c - y * s - x0, cy + x * s + y * c - y0
        cv2.ellipse(mask, (int(px), int(py)), (int(a), int(b)), ang + angle, 0, 360, 255, -1)

    ell(0, 0, 0.55 * r, 0.48 * r, 0)  # palm
    for dx, length in ((-0.36, 0.62), (-0.12, 0.72), (0.12, 0.68), (0.34, 0.55)):
        ell(dx * r, -0.45 * r - length * r / 2, 0.1 * r, length * r / 2, 0)
    ell(-0.62 * r, 0.05 * r, 0.12 * r, 0.4 * r, 40)  # thumb
    ell(0, 0.55 * r, 0.3 * r, 0.35 * r, 0)  # wrist
    skin = np.array((118, 150, 205), np.float32)  # BGR
    shade = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.08 * r)).astype(np.float32) / 255.0
    layer = skin[None, None, :] * (0.75 + 0.25 * shade[..., None])
    alpha = mask.astype(np.float32) / 255.0
    if blur > 1:
        alpha = cv2.blur(alpha, (blur, 1))
        layer = cv2.blur(layer, (blur, 1))
    a = alpha[..., None]
    roi[:] = (roi.astype(np.float32) * (1 - a) + layer * a).astype(np.uint8)
    return out


def motion_frame(prev: np.ndarray, nxt: np.ndarray, t: int, n: int,
                 rng: np.random.Generator) -> np.ndarray:
    """Frame ``t`` of ``n`` of the motion between two scenes: the next scene slides in (the dice
    rolling in) while a hand sweeps across; at ``t = n - 1`` the scene is in place and the hand
    is leaving the frame's edge."""
    H, W = prev.shape[:2]
    u = t / max(1, n - 1)
    if u < 0.35:
        base = prev
    else:
        v = (u - 0.35) / 0.65  # 0..1
        shift = int(round((1 - v) ** 1.5 * 0.3 * W))
        base = np.roll(nxt, shift, axis=1) if shift else nxt
        if shift:
            base = base.copy()
            base[:, :shift] = nxt[:, :1]  # the table beyond the slid photo
    r = 0.32 * H
    cx = -0.4 * r + u * (W + 0.5 * r)
    cy = 0.55 * H + 0.12 * H * math.sin(2 * math.pi * u)
    speed = (W + 0.5 * r) / max(1, n - 1)
    return draw_hand(base, cx, cy, r, angle=15 * math.sin(3 * u), blur=int(speed * 0.5) | 1)


def noisy(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise, so that consecutive still frames are not identical."""
    if sigma <= 0:
        return frame
    n = np.empty(frame.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))
    cv2.randn(n, 0, sigma)
    return np.clip(frame.astype(np.int16) + n, 0, 255).astype(np.uint8)


def build(scenes: Sequence[np.ndarray], *, fps: float = 30.0,
          still_s: float | Sequence[float] = 1.0,
          motion_s: float = 0.7, noise: float = 2.0, seed: int = 0,
          values: Sequence[Sequence[int] | None] | None = None,
          ) -> tuple[ClipPlan, Iterator[np.ndarray]]:
    """The plan of a clip and its frames (a generator: a clip need not fit in memory).

    Each scene is preceded by a motion segment (from the empty table for the first), then shown
    still for ``still_s`` seconds (one figure, or one per scene).
    """
    H, W = scenes[0].shape[:2]
    stills = [still_s] * len(scenes) if isinstance(still_s, (int, float)) else list(still_s)
    n_motion = max(2, round(motion_s * fps))
    plan = ClipPlan((W, H), fps)
    f = 0
    for i, _scene in enumerate(scenes):
        plan.segments.append(Segment("motion", f, f + n_motion))
        f += n_motion
        n_still = max(1, round(stills[i] * fps))
        v = None if values is None or values[i] is None else sorted(values[i])
        plan.segments.append(Segment("still", f, f + n_still, i, v, empty=v == []))
        f += n_still

    def frames() -> Iterator[np.ndarray]:
        rng = np.random.default_rng(seed)
        empty = np.empty_like(scenes[0])
        empty[:] = scenes[0][0, 0]
        prev = empty
        for i, scene in enumerate(scenes):
            for t in range(n_motion):
                yield noisy(motion_frame(prev, scene, t, n_motion, rng), noise, rng)
            n_still = max(1, round(stills[i] * fps))
            for _ in range(n_still):
                yield noisy(scene, noise, rng)
            prev = scene

    return plan, frames()


# --- writing --------------------------------------------------------------------------------


def write(path: str | Path, frames: Iterator[np.ndarray], fps: float, size: tuple[int, int]
          ) -> int:
    """Write frames as ``.y4m`` (4:2:0, for Chromium's fake camera), ``.avi`` (MJPG) or ``.mp4``.

    Returns the number of frames written.
    """
    path = Path(path)
    W, H = size
    n = 0
    if path.suffix == ".y4m":
        num, den = (int(round(fps * 1000)), 1000) if fps != int(fps) else (int(fps), 1)
        with open(path, "wb") as f:
            f.write(f"YUV4MPEG2 W{W} H{H} F{num}:{den} Ip A1:1 C420jpeg\n".encode())
            for frame in frames:
                f.write(b"FRAME\n")
                f.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
                n += 1
        return n
    fourcc = {".avi": "MJPG", ".mp4": "mp4v"}.get(path.suffix)
    if fourcc is None:
        raise ValueError(f"{path}: write .y4m, .avi or .mp4")
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, (W, H))
    if not writer.isOpened():
        raise RuntimeError(f"{path}: OpenCV cannot write {fourcc}")
    if fourcc == "MJPG":
        writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 95)
    for frame in frames:
        writer.write(frame)
        n += 1
    writer.release()
    return n


def make_clip(out: str | Path, photos: Sequence[Photo | str], *,
              size: tuple[int, int] = (1280, 720),
              fps: float = 30.0, still_s: float | Sequence[float] = 1.0, motion_s: float = 0.7,
              noise: float = 2.0, seed: int = 0) -> ClipPlan:
    """Write a clip of the photos (``"empty"`` for the empty table) and its ``.json`` plan."""
    scenes, values = [], []
    fill = None
    for p in photos:
        if isinstance(p, Photo) or p != EMPTY:
            path = p.path if isinstance(p, Photo) else p
            img = cv2.imread(str(path))
            if img is None:
                raise ValueError(f"{path}: not an image")
            fill = fill or table_colour(img)
    for p in photos:
        if not isinstance(p, Photo) and p == EMPTY:
            frame = np.empty((size[1], size[0], 3), np.uint8)
            frame[:] = fill or (128, 128, 128)
            scenes.append(frame)
            values.append([])
            continue
        path = p.path if isinstance(p, Photo) else p
        frame, _, _ = place(cv2.imread(str(path)), size, fill)
        scenes.append(frame)
        values.append(list(p.values) if isinstance(p, Photo) else None)
    plan, frames = build(scenes, fps=fps, still_s=still_s, motion_s=motion_s, noise=noise,
                         seed=seed, values=values)
    write(out, frames, fps, size)
    Path(out).with_suffix(".json").write_text(json.dumps(plan.to_json(), indent=1))
    return plan


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("photos", nargs="*", help="photo paths, or 'empty' for the empty table")
    ap.add_argument("--sample", type=int, default=0, metavar="N",
                    help="use the first N labelled photos of 3-6 dice (sample_images/, else "
                    "nell-byler's test set)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--still", type=float, default=1.0, help="seconds each scene is still")
    ap.add_argument("--motion", type=float, default=0.7, help="seconds of motion before each")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    found = sample_photos()
    labelled = {Path(p.path).resolve(): p for p in found}
    photos = [labelled.get(Path(p).resolve(), p) if p != EMPTY else p for p in args.photos]
    photos += [p for p in found if 3 <= len(p.values) <= 6 and p.rethrow is False][: args.sample]
    if not photos:
        ap.error("no photos: give PHOTO paths or --sample N")
    plan = make_clip(args.out, photos, size=(w, h), fps=args.fps, still_s=args.still,
                     motion_s=args.motion, seed=args.seed)
    for s in plan.segments:
        print(f"{s.kind:6} frames {s.start:4}-{s.end - 1:4}" +
              (f"  faces {s.values}" if s.values is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())


# --- a reader that knows the answers, to test the tracker apart from vision -----------------


class LabelReader:
    """Reads a frame by recognising which labelled scene it shows: the scene's labels, as a
    :class:`vision.reading.Reading`. Any other frame (a hand, dice half slid in) gets a
    plausible wrong reading, so that a tracker which reads during motion is caught.

    This stands in for :func:`vision.read` in the tracker's own tests: the motion gate, the
    fusion and the new-throw logic run on the real frames, and what they report is checked
    against labels rather than against the reader's accuracy.
    """

    #: ``scenes``: each a frame and its dice as ``(value, (x, y, w, h))`` or ``(value, box,
    #: flags)``.
    def __init__(self, scenes: Sequence[tuple[np.ndarray, Sequence[tuple]]],
                 tolerance: float = 6.0, seed: int = 1):
        # tolerance: mean absolute grey difference (0-255) to a scene; sensor noise of sigma 2
        # averages about 1.6, a hand or a slid photo tens.
        self.scenes = [(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), dice)
                       for img, dice in scenes]
        self.tolerance = tolerance
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.junk = 0

    def __call__(self, frame: np.ndarray):
        from vision.reading import Die, Reading

        self.calls += 1
        h, w = frame.shape[:2]
        g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
        # the nearest scene (scenes may differ by a die or two moved)
        diffs = [float(np.mean(np.abs(ref - g))) if ref.shape == g.shape else np.inf
                 for ref, _ in self.scenes]
        best = int(np.argmin(diffs)) if diffs else -1
        if best >= 0 and diffs[best] < self.tolerance:
            out = []
            for value, (x, y, bw, bh), *flags in self.scenes[best][1]:
                out.append(Die(value, 0.99, (round(x), round(y), round(bw), round(bh)),
                               (x + bw / 2, y + bh / 2), tuple(flags[0]) if flags else ()))
            return Reading(w, h, tuple(out), ms=1.0)
        self.junk += 1
        n = int(self.rng.integers(1, 7))
        out = []
        for _ in range(n):
            x, y = float(self.rng.uniform(0, w - 40)), float(self.rng.uniform(0, h - 40))
            out.append(Die(int(self.rng.integers(1, 7)), 0.9, (round(x), round(y), 40, 40),
                           (x + 20, y + 20)))
        return Reading(w, h, tuple(out), ms=1.0)
