"""The one exception type ``apply_action`` and friends raise for a refused move."""
from __future__ import annotations


class IllegalAction(Exception):
    """A refused action: ``code`` is stable snake_case (the web layer translates it), ``message``
    is English for logs and developers."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
