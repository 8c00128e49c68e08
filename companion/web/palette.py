"""Seat colours for games whose players chose none: a colour-blind-safe palette.

The six are Okabe and Ito's colours ("Color Universal Design", 2002) minus black (the screen
is dark) and orange (too close to vermillion for people with deuteranopia), ordered so that
the first seats stay furthest apart: under simulated protanopia, deuteranopia and tritanopia
(Machado et al. 2009) any two of the first four differ by a CIEDE2000 distance of about 20,
and any two of all six by about 12 (``tests/test_palette.py`` holds them to it). Players also
tell their cards apart by initials, never by colour alone.
"""

from __future__ import annotations

#: vermillion, sky blue, yellow, blue, reddish purple, bluish green
PALETTE = ("#d55e00", "#56b4e9", "#f0e442", "#0072b2", "#cc79a7", "#009e73")
