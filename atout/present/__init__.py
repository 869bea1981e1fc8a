"""The presentation: what a player reads of a position, an answer or a session.

Beside the rules (``atout``'s own modules) and the search (:mod:`atout.solver`), never
inside them: the rules and the search know nothing of this package; the command line
(:mod:`atout.client`) and the services (:mod:`atout.server`) import it.  One module a job:

- :mod:`.words`: how a card, an Austrian Tarock count and a card's verdict are written,
  the one way every interface uses;
- :mod:`.view`: the table as a player reads it (roles, the contract and its value in
  words, the points won so far from a given seat's view, the result), the viewer's model;
- :mod:`.text`: positions and results in a terminal (``atout show``, ``solve --text``);
- :mod:`.table_text`: a contract table in words (``atout table --text``);
- :mod:`.picture`: the table as an SVG image (``atout show --svg``, the viewer's image);
- :mod:`.report` and :mod:`.report_tables`: a session's analyses as one HTML page;
- :mod:`.link`: a position in a share link (the viewer's ``#d=`` links).

The layers are checked by import-linter (pyproject.toml, tests/test_layers.py).
"""
