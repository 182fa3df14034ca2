"""deduce: exact deduction for Mystery of the Abbey, The Name of the Rose and The Black Rose."""

__version__ = "0.1.0"
