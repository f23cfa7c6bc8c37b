"""``zilch markers``: print the four corner markers that set the playing area.

Put one at each corner of the playing area (the tray, the mat): ``zilch read --area markers``
then flags every die whose centre lies outside the quadrilateral through the markers' centres.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from scorer.errors import ZilchError
from vision.markers import CORNER_IDS, marker_sheet


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "markers",
        help="write a printable A4 page of the four corner markers of the playing area",
        description="Write a printable A4 page (PNG) with the four corner markers. Print it at "
        "100%%, cut the markers out and put one at each corner of the playing area; then "
        "`zilch read --area markers` flags the dice outside them as off the table.",
    )
    p.add_argument("--out", type=Path, default=Path("zilch-markers.png"),
                   help="the PNG to write (default %(default)s)")
    p.add_argument("--dpi", type=int, default=150, help="print resolution (default %(default)s)")
    p.add_argument("--size-mm", type=float, default=40.0,
                   help="side of each marker, in millimetres (default %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 50 <= args.dpi <= 1200:
        raise ZilchError("--dpi must be between 50 and 1200")
    if args.out.suffix.lower() != ".png":
        raise ZilchError("--out must name a .png file")
    try:
        sheet = marker_sheet(args.dpi, args.size_mm)
    except ValueError as e:
        raise ZilchError(str(e)) from None
    if not cv2.imwrite(str(args.out), sheet):
        raise ZilchError(f"cannot write {args.out}")
    ids = ", ".join(map(str, CORNER_IDS))
    sys.stdout.write(f"wrote {args.out}: corner markers {ids}, {args.size_mm:g} mm at "
                     f"{args.dpi} dpi; print at 100%\n")
    return 0
