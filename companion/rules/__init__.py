"""The pure rules core: power, breakpoints, scoring, the treasure draft, game end.

Nothing here does I/O, reads a clock or draws a random number.
"""

from companion.rules.power import BaseView, TableView, evaluate
from companion.rules.scoring import Placing, ScoringResult, rank, score_base, treasure_draft

__all__ = [
    "BaseView",
    "Placing",
    "ScoringResult",
    "TableView",
    "evaluate",
    "rank",
    "score_base",
    "treasure_draft",
]
