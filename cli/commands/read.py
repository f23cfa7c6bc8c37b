"""``zilch read``: read the dice of one or more photos, and optionally score them.

Every image is read even when another is unreadable: each bad file gets one line on stderr,
and the exit status is then 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli.common import print_json, rules_from_args
from scorer import Throw, options
from scorer.errors import ZilchError
from vision import Reading, UnreadableImage, load_image, read
from vision.markers import AREA_WORD, names_markers, read_marked
from vision.overlay import draw_overlay

EXIT_BAD_INPUT = 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "read",
        help="read the dice in photos of a throw (values, confidences, flags)",
        description="Find every pip die in each IMAGE and read its top face. Dice that cannot be "
        "trusted are flagged: uncertain (confirm it), cocked or off_table (throw again).",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    p.add_argument(
        "--rules",
        metavar="PRESET",
        default=None,
        help="also list the scoring options of the accepted dice under this preset",
    )
    p.add_argument("--rules-file", metavar="FILE", help="house rules in TOML (with scoring)")
    p.add_argument(
        "--overlay",
        metavar="OUT",
        type=Path,
        help="draw boxes, values, confidences and flags: a PNG file for one image, a "
        "folder for several",
    )
    p.add_argument(
        "--area",
        metavar="X,Y,X,Y,...",
        help="the playing area as a polygon in image pixels, or 'markers': the quadrilateral "
        "through the four corner markers of `zilch markers` seen in each photo (default: found "
        "automatically)",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.set_defaults(func=run)


def _parse_area(text: str | None) -> list[tuple[float, float]] | str | None:
    """The polygon of ``--area``, or AREA_WORD: each photo's corner markers set it."""
    if text is None:
        return None
    if names_markers(text):
        return AREA_WORD
    try:
        nums = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise ZilchError("--area must be numbers: x1,y1,x2,y2,x3,y3,...") from None
    if len(nums) < 6 or len(nums) % 2:
        raise ZilchError("--area needs at least three corners, as x,y pairs.")
    return list(zip(nums[0::2], nums[1::2], strict=True))


def run(args: argparse.Namespace) -> int:
    scoring = args.rules is not None or args.rules_file is not None
    rules = rules_from_args(args) if scoring else None
    area = _parse_area(args.area)
    overlay_dir = None
    if args.overlay is not None and len(args.images) > 1:
        overlay_dir = args.overlay
        overlay_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for i, name in enumerate(args.images):
        try:
            image = load_image(name)
        except UnreadableImage as e:
            sys.stderr.write(f"zilch read: {name}: {e}\n")
            status = EXIT_BAD_INPUT
            continue
        if area == AREA_WORD:
            reading = _read_in_markers(name, image)
        else:
            reading = read(image, area=area)
        if args.overlay is not None:
            out = (overlay_dir / f"{i:03d}_{Path(name).stem}.png") if overlay_dir else args.overlay
            import cv2

            cv2.imwrite(str(out), draw_overlay(image, reading))
        obj = reading.to_json(name)
        if rules is not None:
            obj["options"] = _options(reading, rules)
        if args.json:
            print_json(obj)
        else:
            sys.stdout.write(_text(name, reading, obj.get("options")))
        sys.stdout.flush()
    return status


def _read_in_markers(name: str, image) -> Reading:
    """Read a photo whose playing area its four corner markers set (vision.markers.read_marked).
    When they do not give an area, the photo is read with the area found automatically, and
    stderr says why (its dice off the table may then go unflagged)."""
    reading, marked = read_marked(image)
    if marked.polygon is None:
        sys.stderr.write(f"zilch read: {name}: {marked.problem}; the playing area is found "
                         "automatically instead\n")
    return reading


def _options(reading: Reading, rules) -> list | None:
    """The scoring options of the accepted values, as ``zilch score --json`` gives them."""
    values = reading.values
    if not 1 <= len(values) <= 6:
        return None  # nothing accepted, or more dice than one throw holds
    return options(Throw(tuple(values)), rules).to_json()["options"]


def _text(name: str, reading: Reading, opts) -> str:
    lines = [
        f"{name}: {reading.width}x{reading.height}, {len(reading.dice)} dice, {reading.ms:.1f} ms"
    ]
    for d in reading.dice:
        v = "?" if d.value is None else str(d.value)
        flags = f"  [{', '.join(d.flags)}]" if d.flags else ""
        maybe = "  (maybe no die)" if d.possible else ""
        x, y, w, h = d.box
        lines.append(f"  {v}  confidence {d.confidence:.3f}  at ({x}, {y}) {w}x{h}{flags}{maybe}")
    lines.append(f"  accepted: {' '.join(map(str, reading.values)) or 'none'}")
    if reading.rethrow:
        lines.append("  throw again: a die is cocked or off the table")
    if reading.needs_confirmation:
        lines.append("  confirm the uncertain dice")
    if opts:
        best = opts[0]
        lines.append(f"  best keep {''.join(map(str, best['keep']))} for {best['points']} points")
    elif opts is not None and reading.values:
        lines.append("  zilch: nothing scores")
    return "\n".join(lines) + "\n"
