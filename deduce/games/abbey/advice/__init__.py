"""Advice for the observer: what to ask and where to go, and when to accuse."""
