"""Munchkin Cthulhu: its pure rules, its tracker and its state document."""
