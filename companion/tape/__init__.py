"""The tape contract (shared/spec/tape-v1.md): tape lines, prompts, the bundled tapes."""
