"""Refusals of ratings services: a stable code for programs and a translated message for people."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused ratings request. Nothing was changed when this is raised."""

    def __init__(self, code: str, message) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return str(self.message)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": str(self.message)}
