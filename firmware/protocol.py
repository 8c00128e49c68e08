"""The reader board's serial protocol, version 1: one JSON object per line (see README.md).

Plain Python that runs under MicroPython and CPython alike (only ``json``). :func:`encode` builds
lines and :func:`decode` checks them; the host re-implements :func:`decode` with the same rules
and messages (``companion/hardware/readers/board_protocol.py``), and both are tested on the lines in
``examples.jsonl`` and ``examples_bad.jsonl``.
"""

import json

VERSION = 1
EVENTS = ("hello", "arrived", "left", "error", "health")
CHANNELS = 4
UID_DIGITS = (8, 14, 20)  # ISO 14443A uids are 4, 7 or 10 bytes
HEX = "0123456789ABCDEFabcdef"


def encode(event, **fields):
    """One line (without its newline) for ``event``; the fields are checked as :func:`decode`
    would check them. Raises ValueError for an unknown event or a malformed field."""
    line = {"v": VERSION, "ev": event}
    line.update(fields)
    check(line)
    return json.dumps(line)


def decode(text):
    """The checked object in one line (str or bytes, surrounding whitespace ignored).

    Raises ValueError saying what is wrong: not UTF-8, not JSON, not a version 1 object, an
    unknown event, or a missing or malformed field.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except ValueError:
            raise ValueError("not UTF-8") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("not JSON: %r" % (text[:40],)) from None
    check(data)
    return data


def check(data):
    """Raise ValueError unless ``data`` is a well-formed version 1 line object."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if not _is_int(data.get("v")) or data["v"] != VERSION:
        raise ValueError('not a version 1 line (needs "v": 1)')
    event = data.get("ev")
    if event not in EVENTS:
        raise ValueError("unknown event %r" % (event,))
    if event == "hello":
        if not isinstance(data.get("fw"), str):
            raise ValueError('"hello" needs "fw": a version string')
        count = data.get("channels")
        if not _is_int(count) or not 1 <= count <= CHANNELS:
            raise ValueError('"hello" needs "channels": 1 to %d' % CHANNELS)
        return
    if event != "error" or "t" in data:  # an error's time is optional
        _time(event, data)
    if event == "health":
        listed = data.get("ch")
        if not isinstance(listed, list):
            raise ValueError('"health" needs "ch": a list of channel objects')
        for entry in listed:
            _status(entry)
        return
    _channel(event, data.get("ch"))
    if event == "error":
        if not isinstance(data.get("msg"), str):
            raise ValueError('"error" needs "msg": a string')
        return
    _uid(event, data.get("uid"))
    if "card" in data and not isinstance(data["card"], str):
        raise ValueError('"%s": "card" must be a string' % event)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _time(event, data):
    if not _is_int(data.get("t")) or data["t"] < 0:
        raise ValueError('"%s" needs "t": board milliseconds' % event)


def _channel(event, channel):
    if not _is_int(channel) or not 0 <= channel < CHANNELS:
        raise ValueError('"%s" needs "ch": 0 to %d' % (event, CHANNELS - 1))


def _uid(event, uid):
    if not isinstance(uid, str) or len(uid) not in UID_DIGITS or any(c not in HEX for c in uid):
        raise ValueError('"%s" needs "uid": 8, 14 or 20 hex digits' % event)


def _status(entry):
    if not isinstance(entry, dict):
        raise ValueError('"health" needs "ch": a list of channel objects')
    _channel("health", entry.get("ch"))
    if not isinstance(entry.get("ok"), bool):
        raise ValueError('"health" channel needs "ok": true or false')
    for name in ("polls", "errors"):
        if not _is_int(entry.get(name)) or entry[name] < 0:
            raise ValueError('"health" channel needs "%s": a count' % name)
    if entry.get("present") is not None:
        _uid("health", entry["present"])
    elif "present" not in entry:
        raise ValueError('"health" channel needs "present": a uid or null')
