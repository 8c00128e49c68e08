"""The home-screen icon, drawn by our own code: three cards in the first seat colours over a
score bar, on the dashboard's dark background. As PNG (any size; the manifest lists 192 and
512 px) and as SVG (the browser tab). The background fills the square and everything sits
inside its middle 60 %, so launchers may mask it to any shape ("purpose": "maskable")."""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache

from companion.web.palette import PALETTE

BACKGROUND = "#111418"
BAR = "#eef1f5"
SIZES = (192, 512)


@dataclass(frozen=True)
class Shape:
    """A rounded rectangle in fractions of the icon's side."""

    left: float
    top: float
    right: float
    bottom: float
    radius: float
    colour: str


SHAPES = (
    Shape(0.24, 0.27, 0.38, 0.60, 0.03, PALETTE[0]),
    Shape(0.43, 0.23, 0.57, 0.60, 0.03, PALETTE[1]),
    Shape(0.62, 0.27, 0.76, 0.60, 0.03, PALETTE[2]),
    Shape(0.24, 0.68, 0.76, 0.75, 0.035, BAR),
)


def _rgb(colour: str) -> bytes:
    return bytes(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _span(shape: Shape, size: int, y: int) -> tuple[int, int] | None:
    """The pixels of row ``y`` that ``shape`` covers (centre sampling), if any."""
    cy = (y + 0.5) / size
    if not shape.top <= cy < shape.bottom:
        return None
    inset = 0.0
    edge = min(cy - shape.top, shape.bottom - cy)
    if edge < shape.radius:
        inset = shape.radius - math.sqrt(shape.radius**2 - (shape.radius - edge) ** 2)
    left = round((shape.left + inset) * size)
    right = round((shape.right - inset) * size)
    return (left, right) if right > left else None


@lru_cache(maxsize=4)
def png(size: int) -> bytes:
    """The icon as a ``size`` x ``size`` RGB PNG."""
    background = _rgb(BACKGROUND) * size
    rows = []
    for y in range(size):
        row = bytearray(background)
        for shape in SHAPES:
            span = _span(shape, size, y)
            if span is not None:
                left, right = span
                row[left * 3 : right * 3] = _rgb(shape.colour) * (right - left)
        rows.append(b"\x00" + bytes(row))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(b"".join(rows), 9)),
            _chunk(b"IEND", b""),
        ]
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def svg() -> str:
    """The same icon as SVG (a 100 x 100 view box)."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
        f'<rect width="100" height="100" rx="18" fill="{BACKGROUND}"/>',
    ]
    for s in SHAPES:
        parts.append(
            f'<rect x="{s.left * 100:g}" y="{s.top * 100:g}" width="{(s.right - s.left) * 100:g}" '
            f'height="{(s.bottom - s.top) * 100:g}" rx="{s.radius * 100:g}" fill="{s.colour}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def manifest() -> dict[str, object]:
    """The web app manifest: installable to a tablet's home screen, opening full-screen on
    the table screen. Nothing is cached for offline use: the game lives on the table."""
    icons: list[dict[str, str]] = [
        {
            "src": f"/icons/{size}.png",
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for size in SIZES
        for purpose in ("any", "maskable")
    ]
    icons.append({"src": "/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"})
    return {
        "name": "Table companion",
        "short_name": "Companion",
        "description": "Live totals and prompts for the game on this table",
        "start_url": "/",
        "scope": "/",
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": BACKGROUND,
        "icons": icons,
    }
