"""Saying where the dashboard is: the addresses and QR codes ``serve``, ``demo`` and ``token``
print, all from :func:`companion.table.network.table_address` (one source for the name)."""

from __future__ import annotations

from importlib import import_module

import click

from companion.table.network import TableAddress


def say_where(address: TableAddress) -> None:
    """The dashboard's address for people: on the LAN by name and by IP address; on loopback,
    that a tablet cannot reach it and what to change."""
    if address.on_lan:
        click.echo(f"open {address.url} on a tablet on this network")
        if address.address_url:
            click.echo(f"  (or {address.address_url} if the tablet does not find .local names)")
        return
    click.echo(f"dashboard on {address.url} (this machine only)")


def say_token(address: TableAddress, token: str) -> None:
    """The address carrying the control token, as text and, when a tablet can reach it, as a QR
    code of the IP address (many tablets cannot resolve ``.local`` names), the name beside it."""
    if not address.on_lan:
        click.echo(f"this browser takes control with {address.url}?token={token}")
        click.echo(
            "a tablet cannot reach 127.0.0.1 (that is the tablet itself): serve to the network "
            '(bind = "0.0.0.0" in the table config, or `companion demo --lan`) to scan a code'
        )
        return
    carrying = f"{address.address_url or address.url}?token={token}"
    click.echo(f"scan this code with the tablet's camera to control the table: {carrying}")
    if address.address_url:
        click.echo(f"  (the table is also {address.url}?token={token})")
    # imported by name, only to draw a code: 0.4 MB resident a table on loopback never uses
    import_module("segno").make(carrying).terminal(compact=True)
