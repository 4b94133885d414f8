"""The one refusal type every app's services raise (each app re-exports it from its errors.py).

One class, so a caller can catch another app's refusal precisely (never a bare `except Exception`).
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request; nothing was changed. `code` is stable (tests, error frames, logs) and
    `message` is for people (a translated or lazy string; subclasses may derive it from the code)."""

    def __init__(self, code: str, message=None) -> None:
        super().__init__(code if message is None else f"{code}: {message}")
        self.code = code
        self._message = message

    def default_message(self) -> str:
        return self.code

    @property
    def message(self) -> str:
        return str(self._message) if self._message is not None else self.default_message()

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}
