"""The example game tapes that ship with the package (used by the demo and the tests)."""

from __future__ import annotations

from importlib import resources

EXAMPLES = {
    "munchkin-3p": "munchkin-3p.jsonl",
    "mixed-4p": "mixed-4p.jsonl",
    "oops-2p": "oops-2p.jsonl",
    "cthulhu-3p": "cthulhu-3p.jsonl",
}


def example_tape(name: str) -> str:
    """:raises KeyError: naming the examples that exist."""
    if name not in EXAMPLES:
        raise KeyError(f"no example tape {name!r}; examples: {', '.join(EXAMPLES)}")
    return (
        resources.files("companion.tape")
        .joinpath("bundled")
        .joinpath(EXAMPLES[name])
        .read_text("utf-8")
    )
