"""Durak rules engine: a pure, deterministic library (no Django, no I/O, no clock)."""
from game.engine.rules import RULE_CHOICES, InvalidRules, Rules

__all__ = ["RULE_CHOICES", "InvalidRules", "Rules"]
