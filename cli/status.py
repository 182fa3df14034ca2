"""The exit statuses of ``deduce`` besides 0 (success), 1 (bad input) and 2 (bad usage)."""

#: Exit status of ``solve`` when the log contradicts itself.
EXIT_INCONSISTENT = 3
#: Exit status of ``check`` when the solver eliminated the truth.
EXIT_UNSOUND = 4
#: Exit status on an unexpected internal error.
EXIT_INTERNAL = 70
