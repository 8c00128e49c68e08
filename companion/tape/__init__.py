"""The tape contract (companion/tape/CONTRACT.md): tape lines, prompts, the bundled tapes."""
