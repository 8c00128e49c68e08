"""The `companion` command: one module per command group."""
