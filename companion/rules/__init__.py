"""The pure rules core: power, breakpoints, scoring, the treasure draft, game end.

Nothing here does I/O, reads a clock or draws a random number.
"""
