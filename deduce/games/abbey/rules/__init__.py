"""The rules of Mystery of the Abbey: the board, the cards, the engine and what players see.

Nothing here imports the solver: only :mod:`deduce.games.abbey.sim` and the
game object join the two wings.
"""
