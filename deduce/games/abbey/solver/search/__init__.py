"""The python-constraint search behind ``solve --engine csp``, checked against the SAT engine."""
