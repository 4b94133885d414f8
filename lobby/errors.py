"""Refusals of lobby services: the project's one ServiceError (durak_site/errors.py)."""

from durak_site.errors import ServiceError

__all__ = ["ServiceError"]
