"""The card catalogue: card models for both games, the effect vocabulary, the loaders."""
