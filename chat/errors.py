"""Chat refusals: the project's one ServiceError; their sentences are in durak_site/errors.py."""

from durak_site.errors import ServiceError

__all__ = ["ServiceError"]
