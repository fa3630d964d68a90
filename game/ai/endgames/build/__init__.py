"""The builder's half of the endgame tables: the move graphs of Mulino's and Dama's small
endgames and the retrograde solver over them, with numpy (``pip install -e '.[tables]'``).
``tools/build_endgames.py`` is its command line; the game reads the tables without it."""
