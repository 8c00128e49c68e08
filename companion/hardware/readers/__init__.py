"""NFC readers behind one interface, chosen by a string per zone (see :mod:`.registry`)."""
