"""Simulated games: bots, whole games on disk, and the solver checked against the truth."""
