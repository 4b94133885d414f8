"""Refusals of game services: the project's one ServiceError and its one catalogue (durak_site/errors.py)."""

from durak_site.errors import CATALOGUE, ServiceError, message_for

__all__ = ["CATALOGUE", "ServiceError", "message_for"]
