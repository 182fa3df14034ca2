"""The ``deduce`` command line: a thin click layer over the :mod:`deduce` library."""
