"""The NDEF record that names a card on its tag, so any table recognises it.

One NFC Forum external-type record, ``urn:nfc:ext:tablecompanion:card``, whose payload is the
card id in UTF-8. The uid stays the key: a missing, foreign or garbled record is just None.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


FIRST_DATA_PAGE = 4  #: an NTAG's user memory (its NDEF TLVs) starts at page 4
PAGES_PER_READ = 4  #: a Type 2 READ answers 16 bytes: four pages
#: READs at most for a card id: the longest card id (41 characters) makes a 65-byte TLV, five
#: READs; one more leaves room for a lock or memory control TLV before it.
MAX_ID_READS = 6


def read_card_id(read: Callable[[int], bytes], max_reads: int = MAX_ID_READS) -> str | None:
    """The card id in a Type 2 tag's NDEF message, read with ``read(page)`` (16 bytes from
    ``page``) from page 4 on, with only as many READs as its NDEF TLV needs; None for a tag
    whose memory holds no such record. Raises whatever ``read`` raises."""
    data = bytearray()
    for n in range(max_reads):
        data += read(FIRST_DATA_PAGE + n * PAGES_PER_READ)
        span = ndef_span(bytes(data))
        if span is None:
            return None
        start, end = span
        if end <= len(data):
            return decode_card_id(bytes(data[start:end]))
    return None


def ndef_span(data: bytes) -> tuple[int, int] | None:
    """Where the NDEF message lies in the TLVs of ``data`` (user memory from page 4): its
    (start, end), where ``end`` may lie beyond ``data`` (read on); None if the TLVs end without
    one. While a TLV's header is cut off by the end of ``data`` the span is (0, len + 1)."""
    more = (0, len(data) + 1)
    i = 0
    while i < len(data):
        kind = data[i]
        if kind == 0x00:  # NULL TLV: one byte
            i += 1
            continue
        if kind == 0xFE:  # terminator: no NDEF message
            return None
        if i + 1 >= len(data):
            return more
        length, header = data[i + 1], 2
        if length == 0xFF:  # three-byte length format
            if i + 3 >= len(data):
                return more
            length, header = int.from_bytes(data[i + 2 : i + 4], "big"), 4
        if kind == 0x03:
            return i + header, i + header + length
        i += header + length
    return more
