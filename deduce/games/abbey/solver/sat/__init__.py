"""The SAT engine: the model in CNF on one incremental solver, and minimal conflicts."""
