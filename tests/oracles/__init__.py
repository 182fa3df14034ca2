"""The brute-force references the solvers must agree with, one module per game.

They enumerate every deal (and, in the Abbey, every history) of tiny games
with exact fractions; the tests compare the solvers to them. They are kept
out of the package: no command uses them.
"""
