"""The card id an NTAG's NDEF record names, parsed from its user memory (pure functions).

User memory starts at page 4 with TLVs: ``00`` NULL, ``03`` NDEF message, ``FE`` terminator, any
other (lock and memory control) skipped; a length is one byte, or ``FF`` and two bytes. The card
id is the payload of the external-type record ``tablecompanion:card`` (``urn:nfc:ext:...`` on
the host, see ``companion/hardware/readers/ndef_card.py``). A missing, foreign or garbled
record is None: the uid alone still identifies the card.
"""

FIRST_PAGE = 4
MAX_BYTES = 128  # at most 8 READs; a card id record is about 50 bytes
CARD_TYPE = b"tablecompanion:card"
TNF_EXTERNAL = 0x04


def ndef_message(data):
    """The NDEF message in ``data`` (user memory from page 4), or None if ``data`` is too
    short to hold all of it yet. Raises ValueError if memory has no NDEF message."""
    i = 0
    while i < len(data):
        tag = data[i]
        if tag == 0x00:
            i += 1
            continue
        if tag == 0xFE:
            raise ValueError("no NDEF message on the tag")
        if i + 2 > len(data):
            return None
        length, head = data[i + 1], 2
        if length == 0xFF:
            if i + 4 > len(data):
                return None
            length, head = (data[i + 2] << 8) | data[i + 3], 4
        if tag == 0x03:
            start = i + head
            return bytes(data[start : start + length]) if start + length <= len(data) else None
        i += head + length
    return None


def card_id(message):
    """The card id in the first ``tablecompanion:card`` record of an NDEF message, or None."""
    i = 0
    try:
        while i < len(message):
            header = message[i]
            type_length = message[i + 1]
            i += 2
            if header & 0x10:  # SR: one-byte payload length
                payload_length = message[i]
                i += 1
            else:
                payload_length = int.from_bytes(message[i : i + 4], "big")
                i += 4
            id_length = 0
            if header & 0x08:  # IL
                id_length = message[i]
                i += 1
            record_type = bytes(message[i : i + type_length])
            i += type_length + id_length
            payload = bytes(message[i : i + payload_length])
            i += payload_length
            if len(payload) != payload_length:
                return None
            if header & 0x07 == TNF_EXTERNAL and record_type == CARD_TYPE:
                return _text(payload)
            if header & 0x40:  # ME: the last record
                return None
    except IndexError:
        return None
    return None


def read_card_id(read, max_bytes=MAX_BYTES):
    """The card id on the listed tag, reading 16 bytes at a time with ``read(page)`` and no more
    than the NDEF message needs; None if there is none. Read errors propagate."""
    data = b""
    page = FIRST_PAGE
    while len(data) < max_bytes:
        data += read(page)
        page += 4
        try:
            message = ndef_message(data)
        except ValueError:
            return None
        if message is not None:
            return card_id(message)
    return None


def _text(payload):
    try:
        text = payload.decode("utf-8")
    except ValueError:
        return None
    if not text or any(ord(c) < 32 or ord(c) == 127 for c in text):
        return None
    return text
