"""The card catalogue: card models for both games, the effect vocabulary, loaders and the card data."""
