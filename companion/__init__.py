"""Table companion: NFC-tagged tabletop card games, a pure rules engine, a durable event log.

The package is layered (see ``companion/README.md``); importing it runs nothing.
"""
