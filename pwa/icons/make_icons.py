#!/usr/bin/env python3
"""Draw Kibitz's app icons (a turtle on a sea-blue tile) as PNG files.

Standard library only (zlib + struct PNG writer). Run once from anywhere:

    python3 pwa/icons/make_icons.py

It writes icon-192.png, icon-512.png (rounded tile, transparent corners, purpose "any") and
icon-maskable-512.png (full-bleed, the turtle inside the 80 % safe zone, purpose "maskable")
next to this script.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

SEA = (14, 90, 107)
SEA_LIGHT = (31, 128, 148)
SAND = (244, 213, 141)
SHELL = (42, 157, 63)
SHELL_DARK = (24, 102, 40)
SKIN = (140, 201, 98)
EYE = (27, 42, 47)

Colour = tuple[int, int, int]


def png_bytes(width: int, height: int, rows: list[bytes]) -> bytes:
    """Encode RGBA rows (each width*4 bytes) as a PNG file."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def in_ellipse(x: float, y: float, cx: float, cy: float, rx: float, ry: float) -> bool:
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0


def in_rounded_rect(x: float, y: float, size: float, radius: float) -> bool:
    if x < 0 or y < 0 or x > size or y > size:
        return False
    cx = min(max(x, radius), size - radius)
    cy = min(max(y, radius), size - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius


def scene(u: float, v: float, maskable: bool) -> tuple[Colour, float] | None:
    """Colour at unit coordinates (0..1); None = transparent. The turtle is drawn in a unit box."""
    if not maskable and not in_rounded_rect(u, v, 1.0, 0.2):
        return None
    # Motif scale: maskable icons keep everything within the central 80 % circle.
    s = 0.78 if maskable else 1.0
    x = (u - 0.5) / s + 0.5
    y = (v - 0.5) / s + 0.5
    colour: Colour = SEA
    for base in (0.12, 0.9):  # two gentle waves
        if abs(v - (base + 0.012 * math.sin(u * math.tau * 3))) < 0.011:
            colour = SEA_LIGHT
    # Sand island behind the turtle.
    if in_ellipse(x, y, 0.5, 0.78, 0.36, 0.1):
        colour = SAND
    # Legs.
    for lx, ly in ((0.33, 0.36), (0.67, 0.36), (0.33, 0.66), (0.67, 0.66)):
        if in_ellipse(x, y, lx, ly, 0.075, 0.06):
            colour = SKIN
    # Head and tail.
    if in_ellipse(x, y, 0.5, 0.24, 0.085, 0.095):
        colour = SKIN
        if in_ellipse(x, y, 0.465, 0.21, 0.015, 0.018) or in_ellipse(x, y, 0.535, 0.21, 0.015, 0.018):
            colour = EYE
    if in_ellipse(x, y, 0.5, 0.75, 0.03, 0.06):
        colour = SKIN
    # Shell with a darker rim and a hexagon-ish pattern.
    if in_ellipse(x, y, 0.5, 0.51, 0.25, 0.235):
        colour = SHELL_DARK
        if in_ellipse(x, y, 0.5, 0.51, 0.225, 0.21):
            colour = SHELL
            d = math.hypot(x - 0.5, y - 0.51)
            ang = math.atan2(y - 0.51, x - 0.5)
            ring = abs(d - 0.11) < 0.012
            spoke = d > 0.11 and any(abs(math.sin(ang - k * math.pi / 3)) * d < 0.011 for k in range(3))
            if ring or spoke:
                colour = SHELL_DARK
    return colour, 1.0


def render(size: int, maskable: bool, samples: int = 3) -> bytes:
    rows = []
    n = samples * samples
    for py in range(size):
        row = bytearray()
        for px in range(size):
            r = g = b = a = 0.0
            for sy in range(samples):
                for sx in range(samples):
                    u = (px + (sx + 0.5) / samples) / size
                    v = (py + (sy + 0.5) / samples) / size
                    hit = scene(u, v, maskable)
                    if hit is not None:
                        (cr, cg, cb), alpha = hit
                        r += cr * alpha
                        g += cg * alpha
                        b += cb * alpha
                        a += alpha
            if a > 0:
                row += bytes((round(r / a), round(g / a), round(b / a), round(255 * a / n)))
            else:
                row += b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return png_bytes(size, size, rows)


def main() -> None:
    here = Path(__file__).resolve().parent
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        (here / name).write_bytes(render(size, maskable))
        print("wrote", here / name)


if __name__ == "__main__":
    main()
