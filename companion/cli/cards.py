"""``companion cards``: browse the card catalogue."""

from __future__ import annotations

import click

from companion.catalogue.cards import Card
from companion.catalogue.cthulhu import card_table as cthulhu_table
from companion.catalogue.view import card_details, card_table
from companion.cli.common import catalogue_or_fail


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
    if card_id not in catalogue:
        matches = [c.id for c in catalogue if card_id.lower() in c.id][:8]
        hint = f"; did you mean {', '.join(matches)}?" if matches else ""
        raise click.ClickException(f"no card {card_id!r}{hint}")
    click.echo(card_details(catalogue[card_id], catalogue))
