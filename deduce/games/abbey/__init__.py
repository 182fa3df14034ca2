"""Mystery of the Abbey: deck, timeline, constraint model and solvers."""
