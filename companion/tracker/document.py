"""The state document of ``companion replay --json`` (the tape contract), and its text form."""

from __future__ import annotations

from companion.catalogue.cards import Catalogue
from companion.cthulhu.document import render_text as cthulhu_text
from companion.cthulhu.document import state_document as cthulhu_document
from companion.rules.burying import buried_by
from companion.rules.game import buried_madness, final_vp
from companion.rules.power import BaseView, TableView, evaluate
from companion.rules.scoring import ScoringResult, score_base
from companion.rules.table import Attached, Base, Minion, Table
from companion.tape.documents import (
    AttachedDocument,
    BaseDocument,
    BuryingDocument,
    Document,
    DuelDocument,
    DuelSide,
    MinionDocument,
    PlayerDocument,
    Preview,
)
from companion.tracker.games import GameState
from companion.tracker.state import TrackerState


def state_document(state: GameState, catalogue: Catalogue) -> Document:
    """Everything the contract names, plus ``version``, ``winners``, ``prompts`` and detail
    fields (extra keys are allowed; named ones never change)."""
    if not isinstance(state, TrackerState):
        return cthulhu_document(state, catalogue.cthulhu)
    table = state.table
    view = evaluate(table, catalogue)
    bases = [
        _base(state, catalogue, view, base, base_view)
        for base, base_view in zip(table.bases, view.bases, strict=True)
    ]
    pending = state.pending
    return {
        "game": "smashup",
        "version": state.version,
        "turn": table.turn,
        "current_player": table.current_player,
        "players": _players(table),
        "bases": bases,
        "scorings": [result.document for result in state.scorings],
        "treasure_draws": [draw.document for draw in state.treasure_draws],
        "deals": [deal.document for deal in state.deals],
        "winner": table.winners[0] if table.winners else None,
        "winners": list(table.winners),
        "prompts": [prompt.to_json() for prompt in state.prompts],
        "pending": None
        if pending is None
        else {"tag": pending.tag, "card": pending.card, "zone": pending.zone},
        "burying": _burying(state),
        "duel": _duel(state, view),
        "declared": [{"tag": tag, "effect": index} for tag, index in sorted(state.table.declared)],
    }


def _players(table: Table) -> list[PlayerDocument]:
    finals = final_vp(table)
    hidden_madness = buried_madness(table)
    return [
        {
            "name": name,
            "vp": table.vp[seat],
            "madness": table.madness[seat],
            "final_vp": finals[seat],
            "buried_madness": hidden_madness[seat],
        }
        for seat, name in enumerate(table.players)
    ]


def _base(
    state: TrackerState, catalogue: Catalogue, view: TableView, base: Base, base_view: BaseView
) -> BaseDocument:
    table = state.table
    minions: list[MinionDocument] = []
    monsters: list[MinionDocument] = []
    for minion in base.minions:
        entry = _minion(minion, base_view)
        (monsters if catalogue[minion.card].is_monster else minions).append(entry)
    return {
        "zone": base.zone,
        "card": base.card,
        "tag": base.tag,
        "printed_breakpoint": base_view.printed_breakpoint,
        "breakpoint": base_view.breakpoint,
        "total": base_view.total,
        "ready": base_view.ready,
        "scoring": table.scoring == base.zone,
        "power": dict(base_view.power),
        "minions": minions,
        "monsters": monsters,
        "actions": [_attached(a) for a in base.attached],
        "buried": [{"tag": b.tag, "controller": b.controller} for b in base.buried],
        "buried_count": buried_by(base),
        "monsters_to_place": state.setup_left(base.zone),
        "preview": _preview(score_base(table, catalogue, base.zone, view)),
    }


def _minion(minion: Minion, base_view: BaseView) -> MinionDocument:
    return {
        "tag": minion.tag,
        "card": minion.card,
        "controller": minion.controller,
        "power": base_view.minion_power[minion.tag],
        "owner": minion.owner,
        "counters": minion.counters,
        "counted": minion.tag not in base_view.not_counted,
        "actions": [_attached(a) for a in minion.attached],
    }


def _attached(action: Attached) -> AttachedDocument:
    document: AttachedDocument = {
        "tag": action.tag,
        "card": action.card,
        "controller": action.controller,
    }
    if action.counters:
        document["counters"] = action.counters
    return document


def _duel(state: TrackerState, view: TableView) -> DuelDocument | None:
    """The duel on (or the last one this turn): both minions, powers, cards, winners."""
    duel = state.duel
    if duel is None:
        return None
    sides: list[DuelSide] = []
    for index, (side, tag) in enumerate(
        zip(("challenger", "challenged"), duel.minions, strict=True)
    ):
        found = state.table.locate(tag)
        placed = duel.card_of("challenger" if index == 0 else "challenged")
        live = view.power_of(tag)
        sides.append(
            {
                "side": side,
                "tag": tag,
                "card": found[1].card if found is not None else None,
                "controller": found[1].controller if found is not None else None,
                "power": duel.powers[index] if duel.powers is not None else live,
                "dueling_card": None
                if placed is None
                else {"tag": placed.tag, "card": placed.card},
            }
        )
    winners = list(duel.winners)
    return {
        "zone": duel.zone,
        "card": duel.card,
        "player": duel.player,
        "status": duel.status,
        "challenger": sides[0],
        "challenged": sides[1],
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
        "tie": len(winners) == 2,
    }


def _burying(state: TrackerState) -> BuryingDocument:
    """Who may uncover now, and a bury from hand waiting for its taps."""
    armed = state.bury_next
    return {
        "start_uncover": state.uncovering.start,
        "uncovers": dict(state.uncovering.grants),
        "bury_next": None
        if armed is None
        else {"zone": armed.zone, "player": armed.player, "left": armed.left},
    }


def _preview(result: ScoringResult) -> Preview:
    """If it scored now: placings (ties included) and the treasure draft."""
    document = result.document
    return {"ranking": document["ranking"], "treasures": document["treasures"]}


def render_text(document: Document, catalogue: Catalogue) -> str:
    """A readable table of a state document, for a terminal."""
    if document["game"] == "munchkin-cthulhu":
        return cthulhu_text(document, catalogue.cthulhu)

    def name(card_id: str) -> str:
        return catalogue[card_id].name if card_id in catalogue else card_id

    lines = []
    winner = document["winner"]
    status = (
        f"winner: {', '.join(document['winners'])}"
        if winner
        else (f"turn {document['turn']}, {document['current_player']} to play")
    )
    lines.append(f"Smash Up - {status}")
    lines.append("")
    lines.append("Player      VP  Madness")
    for player in document["players"]:
        lines.append(f"{player['name']:<10} {player['vp']:>3}  {player['madness']:>7}")
    for base in document["bases"]:
        flag = "  SCORING" if base["scoring"] else ("  READY" if base["ready"] else "")
        lines.append("")
        lines.append(
            f"[{base['zone']}] {name(base['card'])}: {base['total']} / {base['breakpoint']}"
            f" (printed {base['printed_breakpoint']}){flag}"
        )
        powers = ", ".join(f"{p} {v}" for p, v in base["power"].items()) or "nobody"
        lines.append(f"    power: {powers}")
        for minion in base["minions"] + base["monsters"]:
            label = name(minion["card"])
            if minion in base["monsters"]:
                label += " (monster)"
            owner = minion["controller"] or "-"
            lines.append(f"    {label:<40} {owner:<8} {minion['power']:>3}")
        if base["buried"]:
            lines.append(f"    buried: {len(base['buried'])}")
    for scoring in document["scorings"]:
        ranks = ", ".join(f"{r['player']} {r['vp']} VP" for r in scoring["ranking"]) or "nobody"
        lines.append("")
        lines.append(f"Scored {name(scoring['card'])}: {ranks}")
        if scoring["treasures"]["count"]:
            order = ", ".join(scoring["treasures"]["order"]) or "nobody (discarded)"
            count = scoring["treasures"]["count"]
            lines.append(f"    deal {count} treasure{'s' if count != 1 else ''}: {order}")
    for draw in document["treasure_draws"]:
        plural = "s" if draw["count"] != 1 else ""
        lines.append(
            f"{draw['player']} draws {draw['count']} treasure{plural} for killing "
            f"{name(draw['card'])}"
        )
    for prompt in document["prompts"]:
        lines.append(f"? {prompt['message']}")
    return "\n".join(lines)
