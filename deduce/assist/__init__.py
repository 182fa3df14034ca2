"""The live assistant at the table (``deduce play``), as a library the REPL stays thin over.

- :mod:`~deduce.assist.session`: the log being played: append an event,
  undo the last one, or try one without writing it;
- :mod:`~deduce.assist.newlog`: the questions a new log asks and its header;
- :mod:`~deduce.assist.live`: solving after every event, without waiting
  for a contradiction's lines;
- :mod:`~deduce.assist.background`: the chances refined in a background
  process while the player is idle;
- :mod:`~deduce.assist.compact`: the short tables shown after every event;
- :mod:`~deduce.assist.why`: a minimal set of events that rules an answer out,
  and the smallest such set (searched with :func:`deduce.subsets.smallest`);
- :mod:`~deduce.assist.vocabulary` and :mod:`~deduce.assist.complete`: the
  words tab completion offers, per game and position in an event line.
"""
