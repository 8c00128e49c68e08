"""``companion cards``: browse the card catalogue."""

from __future__ import annotations

import click

from companion.catalogue.cards import Card, Catalogue
from companion.catalogue.cthulhu import MCCard, facts
from companion.catalogue.cthulhu import card_table as cthulhu_table
from companion.catalogue.printings import printed
from companion.catalogue.view import card_details, card_table
from companion.cli.common import catalogue_or_fail
from companion.cthulhu.coverage import coverage as cthulhu_coverage
from companion.errors import CatalogueError
from companion.rules.coverage import coverage, coverage_text, section


@click.group()
def cards() -> None:
    """Browse the card catalogue."""


@cards.command("list")
@click.option(
    "--set", "set_id", help="Set id: core, monster-smash, oops, munchkin, munchkin-cthulhu."
)
@click.option("--faction", help="Faction id (munchkin/orcs) or name (Orcs).")
@click.option(
    "--type",
    "card_type",
    type=click.Choice(["minion", "action", "base", "monster", "treasure"]),
    help="Card type.",
)
def cards_list(set_id: str | None, faction: str | None, card_type: str | None) -> None:
    """List cards as a table."""
    catalogue = catalogue_or_fail()
    if set_id == "munchkin-cthulhu":
        click.echo(cthulhu_table(list(catalogue.cthulhu)))
        return
    if set_id is not None and set_id not in catalogue.sets:
        raise click.UsageError(f"unknown set {set_id!r}; sets: {', '.join(catalogue.sets)}")
    chosen: list[Card] = catalogue.select(set_id=set_id, faction=faction, card_type=card_type)
    if not chosen:
        raise click.ClickException("no cards match; try `companion cards list` without filters")
    click.echo(card_table(chosen, catalogue))


@cards.command("show")
@click.argument("card_id")
def cards_show(card_id: str) -> None:
    """Show one card with every known fact and its encoded effects."""
    catalogue = catalogue_or_fail()
    found = catalogue.cthulhu.get(card_id)
    if found is not None:  # `cards list --set munchkin-cthulhu` lists these too
        click.echo(cthulhu_details(found))
        return
    if card_id not in catalogue:
        every = [c.id for c in catalogue] + [c.id for c in catalogue.cthulhu]
        matches = [known for known in every if card_id.lower() in known][:8]
        hint = f"; did you mean {', '.join(matches)}?" if matches else ""
        raise click.ClickException(f"no card {card_id!r}{hint}")
    click.echo(card_details(catalogue[card_id], catalogue))


def cthulhu_details(card: MCCard) -> str:
    """A Munchkin Cthulhu card with every known fact: what ``cards list`` shows, its printed
    modifiers (the reasons its strength changes), its text and, for a monster, its Bad Stuff."""
    lines = [
        f"{card.name} ({card.id})",
        f"Munchkin Cthulhu {card.kind}, {card.deck} deck, copies: {card.copies or '?'}",
        facts(card),
    ]
    for modifier in card.modifiers:
        against = ", ".join([*modifier.vs_class, *([modifier.vs_sex] if modifier.vs_sex else [])])
        if modifier.amount:
            lines.append(f"{modifier.amount:+d} against {against or 'everyone'}")
        if modifier.run_away:
            lines.append(f"{modifier.run_away:+d} to Run Away rolls")
        if modifier.text:
            lines.append(f"by hand: {modifier.text}")
    if card.text:
        lines.append(card.text)
    if card.kind == "monster":
        lines.append(f"Bad Stuff: {card.bad_stuff}")
    return "\n".join(lines)


@cards.command("coverage")
@click.option(
    "--printing",
    "printings",
    multiple=True,
    metavar="SET=PRINTING",
    help="Count a set as printed so (e.g. munchkin=current); default: errata.",
)
@click.option("--reasons/--no-reasons", default=True, help="List the by-hand reasons.")
def cards_coverage(printings: tuple[str, ...], reasons: bool) -> None:
    """Per set: the cards whose ability touches power, breakpoints, VP or treasures, and how
    much of them the engine computes."""
    catalogue = catalogue_or_fail()
    choice = dict(item.partition("=")[::2] for item in printings)
    try:
        catalogue = printed(catalogue, choice)
    except CatalogueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(coverage_text(coverage(catalogue), catalogue, reasons=reasons))
    click.echo("")
    click.echo(cthulhu_coverage_text(catalogue, reasons=reasons))


def cthulhu_coverage_text(catalogue: Catalogue, *, reasons: bool) -> str:
    """Munchkin Cthulhu's lines of the coverage table (its cards that change a Level, a combat
    strength, a Run Away roll, treasures or what is in play)."""
    found = cthulhu_coverage(catalogue.cthulhu)
    entries = [(c.category, c.card.id, c.reason) for c in found]
    title = "Munchkin Cthulhu (munchkin-cthulhu)"
    touching = "a Level, a combat strength, a Run Away roll, treasures or what is in play"
    lines = section(title, len(catalogue.cthulhu), entries, reasons=reasons, touching=touching)
    return "\n".join(lines).rstrip()
