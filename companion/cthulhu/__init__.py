"""Munchkin Cthulhu: its catalogue, a pure rules core, the tracker's reducer and its state
document (the Munchkin Cthulhu section of ``shared/spec/tape-v1.md``)."""
