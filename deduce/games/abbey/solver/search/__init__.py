"""Search engines kept as references: python-constraint and brute force."""
