"""The error every accounts service raises for bad input: a stable code and a translated message."""

from __future__ import annotations


class ServiceError(Exception):
    """Refused input. `code` is stable (tests, error frames); `message` is for people, already translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = str(message)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}
