"""Everyone can tell the seat colours apart: every pair of the default palette stays apart
under simulated protanopia, deuteranopia and tritanopia.

Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency", the severity 1.0 matrices, applied to linear sRGB.
Distance: CIEDE2000 (Sharma, Wu and Dalal 2005) in CIELAB under D65.

Thresholds: ΔE00 ≈ 2.3 is a just-noticeable difference between large patches side by side;
seat colours are small marks (stripes, chips, dots) seen across a table and must be told
apart at a glance, and the size of a noticeable difference grows several-fold as marks shrink
(Szafir 2018, "Modeling Color Difference for Visualization Design"). So every pair must be
at least 10 apart (about four JNDs; the old palette's red and green were 4.6 apart under
deuteranopia, one olive), and the first four seats, all a Smash Up table uses, at least 15.
"""

from __future__ import annotations

import itertools
import math

import pytest

from companion.web.palette import PALETTE

Matrix = tuple[tuple[float, float, float], ...]
SIMULATIONS: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "typical": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}
EVERY_PAIR = 10.0
FIRST_FOUR = 15.0
OLD_PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")

Lab = tuple[float, float, float]


def linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def simulate(colour: str, matrix: Matrix) -> tuple[float, float, float]:
    """``#rrggbb`` as seen with that deficiency, in linear sRGB (clipped to the gamut)."""
    rgb = [linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    seen = [sum(row[k] * rgb[k] for k in range(3)) for row in matrix]
    return (min(1.0, max(0.0, seen[0])), min(1.0, max(0.0, seen[1])), min(1.0, max(0.0, seen[2])))


def to_lab(rgb: tuple[float, float, float]) -> Lab:
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(first: Lab, second: Lab) -> float:
    (l1, a1, b1), (l2, a2, b2) = first, second
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c**7 / (mean_c**7 + 25**7)))
    c1, c2 = math.hypot((1 + g) * a1, b1), math.hypot((1 + g) * a2, b2)
    h1 = math.degrees(math.atan2(b1, (1 + g) * a1)) % 360
    h2 = math.degrees(math.atan2(b2, (1 + g) * a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_cp = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(mean_h - 30))
        + 0.24 * math.cos(math.radians(2 * mean_h))
        + 0.32 * math.cos(math.radians(3 * mean_h + 6))
        - 0.20 * math.cos(math.radians(4 * mean_h - 63))
    )
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_cp, 1 + 0.015 * mean_cp * t
    rotation = (
        -math.sin(math.radians(60 * math.exp(-(((mean_h - 275) / 25) ** 2))))
        * 2
        * (math.sqrt(mean_cp**7 / (mean_cp**7 + 25**7)))
    )
    dl, dc, dhh = (l2 - l1) / s_l, (c2 - c1) / s_c, big_dh / s_h
    return math.sqrt(dl**2 + dc**2 + dhh**2 + rotation * dc * dhh)


def closest_pair(colours: tuple[str, ...], matrix: Matrix) -> tuple[float, str, str]:
    seen = {c: to_lab(simulate(c, matrix)) for c in colours}
    return min((ciede2000(seen[a], seen[b]), a, b) for a, b in itertools.combinations(colours, 2))


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # Sharma, Wu and Dalal (2005), Table 1: pairs 1, 7, 17 and 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_the_published_test_data(
    first: Lab, second: Lab, expected: float
) -> None:
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_keep_greys_grey() -> None:
    for name, matrix in SIMULATIONS.items():
        grey = simulate("#808080", matrix)
        assert max(grey) - min(grey) < 0.01, name


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_every_pair_of_seat_colours_stays_apart(vision: str) -> None:
    matrix = SIMULATIONS[vision]
    distance, a, b = closest_pair(PALETTE, matrix)
    assert distance >= EVERY_PAIR, f"{a} and {b} are {distance:.1f} apart under {vision}"
    distance, a, b = closest_pair(PALETTE[:4], matrix)
    assert distance >= FIRST_FOUR, f"{a} and {b} are {distance:.1f} apart under {vision}"


def test_the_old_palette_fails_under_deuteranopia() -> None:
    distance, a, b = closest_pair(OLD_PALETTE[:3], SIMULATIONS["deuteranopia"])
    assert (a, b) == ("#d62728", "#2ca02c") and distance < EVERY_PAIR  # red and green: olive
