"""The NDEF record that names a card on its tag, so any table recognises it.

One NFC Forum external-type record, ``urn:nfc:ext:tablecompanion:card``, whose payload is the
card id in UTF-8. The uid stays the key: a missing, foreign or garbled record is just None.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ndef

RECORD_TYPE = "urn:nfc:ext:tablecompanion:card"


def card_record(card_id: str) -> Any:
    return ndef.Record(RECORD_TYPE, "", card_id.encode("utf-8"))


def encode_card_id(card_id: str) -> bytes:
    """The NDEF message (bytes) naming ``card_id``."""
    return b"".join(ndef.message_encoder([card_record(card_id)]))


def decode_card_id(message: bytes | Iterable[Any] | None) -> str | None:
    """The card id in an NDEF message (bytes or decoded records), or None. Never raises."""
    if message is None:
        return None
    try:
        records = (
            list(ndef.message_decoder(message))
            if isinstance(message, bytes | bytearray)
            else list(message)
        )
        for record in records:
            if getattr(record, "type", None) == RECORD_TYPE:
                card = bytes(record.data).decode("utf-8")
                return card if card and card.isprintable() else None
    except Exception:
        return None
    return None
