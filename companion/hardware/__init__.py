"""The table's hardware: NFC readers, the tap filter, GPIO feedback, pin map, devices' config."""
