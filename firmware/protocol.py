"""The reader board's serial protocol: one JSON object per line, ``"v": 1``.

Plain Python that runs under MicroPython and CPython alike (no imports beyond json).
"""

import json

VERSION = 1
EVENTS = ("hello", "arrived", "left", "health", "error")
HEX = "0123456789ABCDEFabcdef"


def encode(event, **fields):
    """One line (without the newline) for an event."""
    if event not in EVENTS:
        raise ValueError("unknown event %r" % (event,))
    line = {"v": VERSION, "ev": event}
    line.update(fields)
    return json.dumps(line)


def decode(text):
    """The event in a line, checked. Raises ValueError saying what is wrong."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("not JSON: %r" % (text[:40],)) from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise ValueError('not a version 1 line (needs "v": 1)')
    event = data.get("ev")
    if event not in EVENTS:
        raise ValueError("unknown event %r" % (event,))
    if event in ("arrived", "left", "error"):
        channel = data.get("ch")
        if not isinstance(channel, int) or not 0 <= channel <= 3:
            raise ValueError('"%s" needs "ch": 0 to 3' % event)
    if event in ("arrived", "left"):
        uid = data.get("uid")
        if not isinstance(uid, str) or not uid or any(c not in HEX for c in uid):
            raise ValueError('"%s" needs "uid": hex digits' % event)
    if event == "health" and not isinstance(data.get("ch"), list):
        raise ValueError('"health" needs "ch": a list of channel objects')
    return data
