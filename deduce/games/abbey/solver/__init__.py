"""The Abbey solver: the timeline of a log, its constraint model, propagation, solving.

Nothing here imports the rules engine: the solver reads logs, never states.
"""
