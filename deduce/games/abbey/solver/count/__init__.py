"""Exact counting of complete histories, and of each card's current holder."""
