"""Drawn scenes of two confidently wrong reads that are not mended (the thirty-seventh pass's
review found them in its own drawn dice; the thirty-eighth pass redrew them, a helper's
diagnosis in ``docs/vision-passes.md``): two threes touching side by side, and a die at a steep
slant with six on top. Drawn at 640x480 times ``k``: an orthographic cube or flat dice with
anti-aliased faces and pips (pips 0.19 half-sides in radius, 0.5 off the centre), then a
camera's blur, noise and JPEG."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.lookalikes import LAYOUT, camera

PIP_OFF, PIP_R = 0.5, 0.19  # a pip's offset and radius, in half-sides


def _poly(img: np.ndarray, pts, tone: float) -> None:
    cv2.fillPoly(img, [np.round(np.asarray(pts) * 16).astype(np.int32)], (float(tone),) * 3,
                 cv2.LINE_AA, 4)


def _table(h: int, w: int, grey: float, shadows=(), radius: float = 0.0, depth: float = 0.0):
    """A plain table, a soft shadow of ``depth`` grey levels under each point of ``shadows``."""
    g = np.full((h, w), float(grey), np.float32)
    for at in shadows:
        m = np.zeros_like(g)
        cv2.circle(m, tuple(int(round(v)) for v in at), int(1.25 * radius), 1.0, -1)
        g -= depth * cv2.GaussianBlur(m, (0, 0), 0.3 * radius)
    return np.dstack([g] * 3)


def slanted_die(k: int = 1, top: int = 6, front: int = 3, hs: float = 15.1,
                yaw: float = -4.0, tilt: float = 46.0, seed: int = 0):
    """A white die (grey 232, pips 16) on a dark table (80) seen with the camera tilted ``tilt``
    degrees from straight down, ``top`` on top and ``front`` on the side toward the camera
    (shaded 0.7); its top face's centre and its front face's, in pixels."""
    c, hs = np.array([320.0, 240.0]) * k, hs * k
    a, t = np.deg2rad(yaw), np.deg2rad(tilt)
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])

    def seen(p):
        p = np.asarray(p) @ turn.T
        return np.stack([p[..., 0], p[..., 1] * np.cos(t) - p[..., 2] * np.sin(t)], -1) + c

    img = _table(480 * k, 640 * k, 80.0, [c], hs, 20.0)
    view = np.array([0, np.sin(t), np.cos(t)])
    rest = [v for v in range(1, 7) if v not in (top, 7 - top, front, 7 - front)]
    faces = [((0, 0, 1), (1, 0, 0), (0, 1, 0), top, 1.0),
             ((0, 1, 0), (1, 0, 0), (0, 0, 1), front, 0.7),
             ((0, -1, 0), (1, 0, 0), (0, 0, 1), 7 - front, 0.7),
             ((1, 0, 0), (0, 1, 0), (0, 0, 1), rest[0], 0.7),
             ((-1, 0, 0), (0, 1, 0), (0, 0, 1), rest[1], 0.7)]
    centres = {}
    for n, e1, e2, value, shade in faces:
        n, e1, e2 = (np.array(v, np.float64) for v in (n, e1, e2))
        if (turn @ n) @ view <= 0.05:  # facing away from the camera
            continue
        fc = n * hs
        _poly(img, seen([fc + hs * (u * e1 + v * e2)
                         for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))]), 232.0 * shade)
        ring = np.linspace(0, 2 * np.pi, 24)
        for p, q in LAYOUT[value]:
            _poly(img, seen([fc + hs * ((PIP_OFF * p + PIP_R * np.cos(r)) * e1
                                        + (PIP_OFF * q + PIP_R * np.sin(r)) * e2)
                             for r in ring]), 16.0)
        centres[value] = seen(fc)
    return camera(np.clip(img, 0, 255), seed, 0.85 * k, quality=85), centres[top], centres[front]


def _flat_die(img: np.ndarray, c, hs: float, turn: float, value: int) -> None:
    """A white die (grey 235, pips 19) seen from above: a rounded square and its pips."""
    a = np.deg2rad(turn)
    ux, uy = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    pts, rr = [], 0.18
    for sx, sy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for r in np.deg2rad(np.linspace(a0, a0 + 90, 6)):
            p = np.array([sx, sy]) * (1 - rr) + rr * np.array([np.cos(r), np.sin(r)])
            pts.append(c + hs * (p[0] * ux + p[1] * uy))
    _poly(img, pts, 235.0)
    for p, q in LAYOUT[value]:
        at = c + PIP_OFF * hs * (p * ux + q * uy)
        cv2.circle(img, tuple(np.round(at * 16).astype(int)), int(round(PIP_R * hs * 16)),
                   (19.0,) * 3, -1, cv2.LINE_AA, 4)


def touching(k: int = 1, values=(3, 3), hs: float = 23.6, turn: float = 61.0,
             gap: float = 0.5, crossing: bool = False, seed: int = 0):
    """Two white dice side by side on a grey table (186), ``gap`` px apart along the first's
    turned x axis, the second turned 1.5 degrees more (and 90 more if ``crossing``: its layout
    on the other diagonal), each with a soft shadow; their centres."""
    hs, gap = hs * k, gap * k
    c0 = np.array([320.0, 240.0]) * k
    c1 = c0 + (2 * hs + gap) * np.array([np.cos(np.deg2rad(turn)), np.sin(np.deg2rad(turn))])
    img = _table(480 * k, 640 * k, 186.0, [c0 + 0.2 * hs, c1 + 0.2 * hs], hs, 25.0)
    _flat_die(img, c0, hs, turn, values[0])
    _flat_die(img, c1, hs, turn + 1.5 + 90.0 * crossing, values[1])
    return camera(np.clip(img, 0, 255), seed, 0.67 * k, quality=85), (c0, c1)
