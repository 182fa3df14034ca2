"""The ``deduce`` command line: a thin click layer over the :mod:`deduce` library."""

from time import perf_counter

#: When the command started (its first import), so that ``solve --budget``
#: counts the start-up and the reading of the log too.
STARTED = perf_counter()
