"""Scripts that write the project's files, run as modules: ``python -m tools.NAME``.

Run from the top of the repository, a module finds the checkout's packages
(``deduce``, ``cli`` and the suite's helpers in ``tests``) without any change
to the import path.
"""
