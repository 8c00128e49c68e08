"""Saying where the dashboard is: the addresses and QR codes ``serve``, ``demo`` and ``token``
print, all from :func:`companion.hardware.network.table_address` (one source for the name)."""

from __future__ import annotations

import click
import segno

from companion.hardware.network import TableAddress


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
    """The address carrying the control token, as text and as a QR code to scan."""
    carrying = f"{address.url}?token={token}"
    click.echo(f"this address carries the control token: {carrying}")
    segno.make(carrying).terminal(compact=True)
