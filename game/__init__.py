"""Live games: the rules engine (game/engine) and its persistence, socket and timers."""
