"""Loaders for the labelled photo folders of ``../shared/data``, as one uniform :class:`Sample`.

Each folder is one camera, one set of dice and one table, with labels in its own format:

============================  ============  ===============================================
folder                        licence       labels
============================  ============  ===============================================
``nell-byler/{train,test}``   BSD-3-Clause  YOLO txt, class 0..5 = face 1..6, box = whole die
``matteop65/{Train,Valid}``   MIT           YOLO txt (``classes.txt``), box = top face; for
                                            face 1 the box often covers only the pip
``kamilpiechowiak/small``     MIT           ``labels.csv``: sorted faces per image, no boxes;
                                            ``agreed`` or ``disputed``
``bartekbanachowicz``         none          Pascal VOC xml; ``d6-1``..``d6-6`` are pip dice,
                                            ``d6p-*``, ``d8*``, ``d10-*`` are other dice
``fudw``                      none          YOLO txt, box = top face (one symbol face per die)
``mschlafly``                 none          one die per photo, the value in the file name
============================  ============  ===============================================

Only the BSD-3 and MIT folders may be copied into the project or trained on; the others are for
measuring only. The data root is ``$ZILCH_DATA`` if set, else ``../shared/data`` beside the
repository.

>>> Box.from_yolo(0.5, 0.5, 0.25, 0.5, 640, 480).as_tuple()
(240, 120, 160, 240)
"""

from __future__ import annotations

import csv
import logging
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

BSD3 = "BSD-3-Clause"
MIT = "MIT"

#: What a folder's label boxes cover: the whole die, or only its top face.
WHOLE_DIE = "whole_die"
TOP_FACE = "top_face"

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def data_root() -> Path:
    """The folder holding the photo sets: ``$ZILCH_DATA``, else ``../shared/data`` of the repo.

    When the repository is a worktree nested deeper (``work/wt/NAME``), the nearest ancestor's
    ``shared/data`` is used. The folder may be absent: callers check :func:`available`.
    """
    env = os.environ.get("ZILCH_DATA")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parent.parent
    for parent in repo.parents:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared" / "data"
    return repo.parent / "shared" / "data"


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in pixels: top-left ``(x, y)``, width and height."""

    x: float
    y: float
    w: float
    h: float

    @classmethod
    def from_yolo(cls, cx: float, cy: float, w: float, h: float, width: int, height: int) -> Box:
        """From YOLO's normalised centre and size, in an image of ``width`` x ``height`` px."""
        return cls((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)

    @classmethod
    def from_corners(cls, x0: float, y0: float, x1: float, y1: float) -> Box:
        return cls(x0, y0, x1 - x0, y1 - y0)

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def size(self) -> float:
        """The longer side in pixels: the die size the pipeline measures."""
        return max(self.w, self.h)

    def contains(self, x: float, y: float) -> bool:
        """Is the point inside the box or on its edge?"""
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (round(self.x), round(self.y), round(self.w), round(self.h))

    def scaled(self, factor: float) -> Box:
        return Box(self.x * factor, self.y * factor, self.w * factor, self.h * factor)


@dataclass(frozen=True)
class LabelledDie:
    """A pip die of the label: its top face, and its box when the folder has boxes."""

    value: int
    box: Box | None = None


@dataclass(frozen=True)
class Sample:
    """One labelled photo.

    ``dice`` are the pip dice with their values. ``others`` are boxes of dice that are not pip
    d6s (numeral d6s, polyhedral dice): reading one as a pip die is an error. ``ignored`` are
    boxes whose label is unusable (a slip such as ``d6-8``): whatever is read there is neither
    right nor wrong. ``complete`` is False when the labels may miss a pip die or its value (a
    disputed image, or a label skipped as a slip); such an image's throw is not scored as a whole.
    """

    image: Path
    folder: str
    licence: str | None
    dice: tuple[LabelledDie, ...]
    others: tuple[Box, ...] = ()
    complete: bool = True
    #: ``train`` / ``test`` / ``Valid`` ... as the source split it; "" when it did not
    subset: str = ""
    #: what the boxes cover: WHOLE_DIE, TOP_FACE, or None when there are no boxes
    box_covers: str | None = None
    #: labels that were skipped, one sentence each (reported by the eval)
    skipped: tuple[str, ...] = ()
    ignored: tuple[Box, ...] = ()
    #: True when the label says a die is cocked or off the table (must be thrown again), None
    #: when the label does not say or the readers were unsure
    rethrow: bool | None = False
    notes: str = ""
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def values(self) -> list[int]:
        return sorted(d.value for d in self.dice)

    @property
    def has_boxes(self) -> bool:
        return bool(self.dice) and all(d.box is not None for d in self.dice)

    @property
    def name(self) -> str:
        """A short unique name inside the data root, e.g. ``nell-byler/test/IMG_1.jpg``."""
        return f"{self.folder}/{self.subset + '/' if self.subset else ''}{self.image.name}"


def _image_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image, as OpenCV decodes it (EXIF orientation applied)."""
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise OSError(f"cannot decode {path}")
    return img.shape[1], img.shape[0]


#: The header of a photo (EXIF included) fits in this many bytes.
_HEADER_BYTES = 256 * 1024


def _jpeg_size(path: Path) -> tuple[int, int]:
    """(width, height) from a JPEG/PNG header without decoding the pixels
    (:func:`vision.imageio.image_size`).

    Falls back to decoding when the header cannot be parsed. EXIF orientation is not applied,
    which is fine for these folders (checked by the tests: their photos carry none that rotates).
    """
    from vision.imageio import image_size

    with open(path, "rb") as f:
        size = image_size(f.read(_HEADER_BYTES))
    return size if size is not None else _image_size(path)


def _read_yolo(txt: Path, width: int, height: int) -> list[tuple[int, Box]]:
    """(class, box) per line of a YOLO label file."""
    out = []
    for line in txt.read_text().split("\n"):
        parts = line.split()
        if not parts:
            continue
        cls, cx, cy, w, h = int(parts[0]), *map(float, parts[1:5])
        out.append((cls, Box.from_yolo(cx, cy, w, h, width, height)))
    return out


def _yolo_samples(
    folder: str,
    licence: str | None,
    pairs: Iterable[tuple[Path, Path, str]],
    box_covers: str,
) -> list[Sample]:
    """Samples from (image, label txt, subset) triples; class 0..5 is face 1..6."""
    samples = []
    for img, txt, subset in pairs:
        width, height = _jpeg_size(img)
        dice, skipped = [], []
        for cls, box in _read_yolo(txt, width, height):
            if 0 <= cls <= 5:
                dice.append(LabelledDie(cls + 1, box))
            else:
                skipped.append(f"{txt.name}: class {cls} is no face of a d6")
        for s in skipped:
            log.warning("%s: skipped label %s", folder, s)
        samples.append(
            Sample(
                image=img,
                folder=folder,
                licence=licence,
                dice=tuple(dice),
                complete=not skipped,
                subset=subset,
                box_covers=box_covers,
                skipped=tuple(skipped),
            )
        )
    return samples


def _images(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def load_nell_byler(root: Path) -> list[Sample]:
    """nell-byler: ``{train,test}/images/*.jpg`` with ``labels_yolo/*.txt``; box = whole die."""
    base = root / "nell-byler"
    pairs = []
    for subset in ("train", "test"):
        for img in _images(base / subset / "images"):
            txt = base / subset / "labels_yolo" / (img.stem + ".txt")
            if txt.exists():
                pairs.append((img, txt, subset))
            else:
                log.warning("nell-byler: %s has no label file; skipped", img.name)
    return _yolo_samples("nell-byler", BSD3, pairs, WHOLE_DIE)


def load_matteop65(root: Path) -> list[Sample]:
    """matteop65: ``{Train,Valid}/*.jpg`` with a YOLO txt beside each; box = top face.

    The class names come from ``classes.txt`` (One .. Six), so the order is checked, not assumed.
    """
    base = root / "matteop65"
    words = ["one", "two", "three", "four", "five", "six"]
    pairs = []
    for subset in ("Train", "Valid"):
        if not (base / subset).is_dir():
            continue
        classes = [c.strip().lower() for c in (base / subset / "classes.txt").read_text().split()]
        if classes != words:
            raise ValueError(f"matteop65/{subset}/classes.txt is not One..Six: {classes}")
        for img in _images(base / subset):
            txt = img.with_suffix(".txt")
            if txt.exists():
                pairs.append((img, txt, subset))
            else:
                log.warning("matteop65: %s has no label file; skipped", img.name)
    return _yolo_samples("matteop65", MIT, pairs, TOP_FACE)


def load_fudw(root: Path) -> list[Sample]:
    """fudw: ``images/{train,valid}/*.jpeg`` with ``labels/{train,valid}/*.txt``; box = top face.

    One face of each die carries a symbol instead of pips and is still labelled as a value. In
    IMG_4540 a die leans on the tray wall (cocked) and is labelled as a plain six.
    """
    base = root / "fudw"
    pairs = []
    for subset in ("train", "valid"):
        for img in _images(base / "images" / subset):
            txt = base / "labels" / subset / (img.stem + ".txt")
            if txt.exists():
                pairs.append((img, txt, subset))
            else:
                log.warning("fudw: %s has no label file; skipped", img.name)
    samples = _yolo_samples("fudw", None, pairs, TOP_FACE)
    out = []
    for s in samples:
        if s.image.stem == "IMG_4540":
            # a cocked die is labelled as a plain six: a reader that flags it is right
            s = Sample(**{**s.__dict__, "rethrow": None, "notes": "one die leans on the wall"})
        out.append(s)
    return out


#: Pascal VOC class names of bartekbanachowicz: pip d6 ``d6-N``; every other die is a negative.
_VOC_PIP = re.compile(r"^d6-(\d+)$")
_VOC_OTHER = re.compile(r"^(d6p|d8p?|d10|d12|d20|d4)-\d+$")


def load_bartekbanachowicz(root: Path) -> list[Sample]:
    """bartekbanachowicz: Pascal VOC xml per image; ``d6-1``..``d6-6`` are pip dice.

    ``d6p-*`` (numeral d6), ``d8*`` and ``d10-*`` become negatives. A pip label with an
    impossible value (``d6-8``) is a slip: it is reported, its box ignored, and the image's label
    marked incomplete.
    """
    base = root / "bartekbanachowicz"
    samples = []
    for subset in ("train", "test"):
        for xml in sorted((base / subset).glob("*.xml")):
            tree = ET.parse(xml).getroot()
            img = base / subset / tree.findtext("filename", default=xml.stem + ".jpg")
            if not img.exists():
                img = xml.with_suffix(".jpg")
            if not img.exists():
                log.warning("bartekbanachowicz: no image for %s; skipped", xml.name)
                continue
            dice, others, ignored, skipped = [], [], [], []
            width, height = _jpeg_size(img)
            lw = int(tree.findtext("size/width") or width)
            lh = int(tree.findtext("size/height") or height)
            sx, sy = width / lw, height / lh
            for obj in tree.iter("object"):
                name = (obj.findtext("name") or "").strip()
                bb = obj.find("bndbox")
                x0, y0, x1, y1 = (float(bb.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax"))
                box = Box.from_corners(x0 * sx, y0 * sy, x1 * sx, y1 * sy)
                m = _VOC_PIP.match(name)
                if m and 1 <= int(m.group(1)) <= 6:
                    dice.append(LabelledDie(int(m.group(1)), box))
                elif _VOC_OTHER.match(name):
                    others.append(box)
                else:
                    ignored.append(box)
                    skipped.append(f"{xml.name}: label {name!r} at {box.as_tuple()} is a slip")
            for s in skipped:
                log.warning("bartekbanachowicz: skipped %s", s)
            samples.append(
                Sample(
                    image=img,
                    folder="bartekbanachowicz",
                    licence=None,
                    dice=tuple(dice),
                    others=tuple(others),
                    complete=not skipped,
                    subset=subset,
                    box_covers=WHOLE_DIE,
                    skipped=tuple(skipped),
                    ignored=tuple(ignored),
                )
            )
    return samples


def _flag(text: str) -> bool | None:
    """kamilpiechowiak's cocked / off_table column: "0", "1", "2", or "1 or 0" (unsure)."""
    text = text.strip()
    if text in ("", "0"):
        return False
    if text.isdigit():
        return True
    return None


def load_kamilpiechowiak(root: Path, include_disputed: bool = False) -> list[Sample]:
    """kamilpiechowiak: ``labels.csv`` gives the sorted pip-d6 faces per image, no boxes.

    Only ``agreed`` rows are returned, unless ``include_disputed``: a disputed row comes with no
    dice and ``complete=False`` (both readings are in ``notes``). Polyhedral and numeral dice are
    in the photos but not in the labels; reading one as a pip die is an error.
    """
    base = root / "kamilpiechowiak"
    samples = []
    with open(base / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            img = base / "small" / row["image"]
            if not img.exists():
                log.warning("kamilpiechowiak: %s is in labels.csv but missing; skipped", img.name)
                continue
            cocked, off = _flag(row["cocked"]), _flag(row["off_table"])
            rethrow = None if None in (cocked, off) else (cocked or off)
            agreed = row["status"].strip() == "agreed"
            if not agreed and not include_disputed:
                continue
            values = [int(v) for v in row["values_sorted"].split()] if agreed else []
            if agreed and row["n_dice"].strip() and int(row["n_dice"]) != len(values):
                raise ValueError(f"kamilpiechowiak/labels.csv: {row['image']} n_dice != values")
            samples.append(
                Sample(
                    image=img,
                    folder="kamilpiechowiak",
                    licence=MIT,
                    dice=tuple(LabelledDie(v) for v in values),
                    complete=agreed,
                    subset="small",
                    rethrow=rethrow,
                    notes=row["notes"],
                    extra={
                        "status": row["status"],
                        "cocked": row["cocked"],
                        "off_table": row["off_table"],
                    },
                )
            )
    return samples


_MSCHLAFLY_NAME = re.compile(r"^[a-z]+([1-6])$")


def load_mschlafly(root: Path) -> list[Sample]:
    """mschlafly: close-ups of one large wooden die; the value is the digit in the file name."""
    base = root / "mschlafly"
    samples = []
    for img in _images(base):
        m = _MSCHLAFLY_NAME.match(img.stem)
        if not m:
            log.warning("mschlafly: no value in the name %s; skipped", img.name)
            continue
        samples.append(
            Sample(
                image=img, folder="mschlafly", licence=None, dice=(LabelledDie(int(m.group(1))),)
            )
        )
    return samples


#: Label corrections for the licensed folders, each checked by eye (see its "about").
LABEL_FIXES = Path(__file__).with_name("label_fixes.json")


def apply_fixes(samples: list[Sample], path: Path = LABEL_FIXES) -> list[Sample]:
    """The samples with the corrections of ``path`` applied: a value set, a die added, or a box
    where there is no die removed (``"value": null``).

    A correction whose box is no longer found raises: a silently skipped fix would quietly
    change the figures.
    """
    import json
    from dataclasses import replace

    fixes: dict[str, list[dict]] = {}
    for fix in json.loads(path.read_text())["fixes"]:
        fixes.setdefault(fix["image"], []).append(fix)
    out = []
    for s in samples:
        for fix in fixes.get(s.name, ()):
            dice = list(s.dice)
            if "add" in fix:
                dice.append(LabelledDie(int(fix["value"]), Box(*map(float, fix["add"]))))
            else:
                x, y = fix["at"]
                hit = [
                    k
                    for k, d in enumerate(dice)
                    if d.box is not None
                    and d.value == fix["was"]
                    and d.box.contains(x, y)
                ]
                if len(hit) != 1:
                    raise ValueError(f"{path.name}: {s.name}: no one die {fix['was']} at {x},{y}")
                if fix["value"] is None:
                    del dice[hit[0]]
                else:
                    dice[hit[0]] = replace(dice[hit[0]], value=int(fix["value"]))
            notes = f"{s.notes} label mended: {fix['why']}".strip()
            s = replace(s, dice=tuple(dice), notes=notes)
        out.append(s)
    return out


@dataclass(frozen=True)
class Folder:
    """One photo set: its licence, what its boxes cover, and its loader."""

    name: str
    licence: str | None
    box_covers: str | None
    loader: object  # Callable[[Path], list[Sample]]

    @property
    def redistributable(self) -> bool:
        return self.licence is not None

    def load(self, root: Path | None = None) -> list[Sample]:
        samples = self.loader(Path(root) if root is not None else data_root())
        # Only a licensed folder's labels are mended: a measure-only folder stays as it came.
        return apply_fixes(samples) if self.redistributable else samples

    def present(self, root: Path | None = None) -> bool:
        return ((Path(root) if root is not None else data_root()) / self.name).is_dir()


FOLDERS: dict[str, Folder] = {
    f.name: f
    for f in (
        Folder("nell-byler", BSD3, WHOLE_DIE, load_nell_byler),
        Folder("matteop65", MIT, TOP_FACE, load_matteop65),
        Folder("kamilpiechowiak", MIT, None, load_kamilpiechowiak),
        Folder("bartekbanachowicz", None, WHOLE_DIE, load_bartekbanachowicz),
        Folder("fudw", None, TOP_FACE, load_fudw),
        Folder("mschlafly", None, None, load_mschlafly),
    )
}

#: The folders that may be copied into the project and trained on.
LICENSED = tuple(name for name, f in FOLDERS.items() if f.redistributable)


def available(root: Path | None = None) -> list[str]:
    """The names of the known folders present under ``root`` (default :func:`data_root`)."""
    return [name for name, f in FOLDERS.items() if f.present(root)]


def load(name: str, root: Path | None = None) -> list[Sample]:
    """All samples of one folder by name (``nell-byler``, ``fudw``, ...)."""
    try:
        folder = FOLDERS[name]
    except KeyError:
        raise KeyError(f"unknown data folder {name!r}; known: {', '.join(FOLDERS)}") from None
    return folder.load(root)


def load_sample_images(folder: Path | None = None) -> list[Sample]:
    """The curated fixtures of ``sample_images/`` (one ``NAME.json`` label per ``NAME.jpg``).

    Their folder name is ``sample_images``; ``extra`` holds the label's ``source`` and ``boxes``.
    """
    import json

    if folder is None:
        folder = Path(__file__).resolve().parent.parent / "sample_images"
    folder = Path(folder)
    samples = []
    for label_file in sorted(folder.glob("*.json")):
        label = json.loads(label_file.read_text())
        dice = tuple(LabelledDie(d["value"], Box(*d["box"])) for d in label["dice"])
        if not dice:
            dice = tuple(LabelledDie(v) for v in label["values"])
        samples.append(
            Sample(
                image=folder / label["image"],
                folder="sample_images",
                licence=label["source"]["licence"],
                dice=dice,
                box_covers=label["boxes"],
                rethrow=label["rethrow"],
                notes=label["notes"],
                extra={"source": label["source"], "boxes": label["boxes"]},
            )
        )
    return samples


def load_all(root: Path | None = None, folders: Iterable[str] | None = None) -> list[Sample]:
    """Samples of every present folder (or of ``folders``), folder by folder."""
    names = list(folders) if folders is not None else available(root)
    return [s for name in names for s in load(name, root)]
