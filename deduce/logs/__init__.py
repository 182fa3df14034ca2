"""Game logs: the data model, the canonical JSON Lines syntax and the typed line syntax."""
