"""Tables, seats, bots, rule settings, ready and countdown."""
