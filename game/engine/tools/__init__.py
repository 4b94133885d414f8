"""Tools built on the engine, not rules: the benchmark (``bench``), the self-play invariant run
(``selfplay``), bot games and seeded matches between bot levels (``arena``, ``tournament``).
Nothing in the engine or the site imports them; the tests and ``make bench`` do."""
