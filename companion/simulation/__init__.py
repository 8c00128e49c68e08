"""Plausible whole games, generated from a seed (tests, benchmarks, the demo)."""
