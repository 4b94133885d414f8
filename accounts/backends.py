"""Authentication: nick + recovery key through Django's ModelBackend; the user comes with his rating."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import FieldError
from django.urls import reverse

from .models import Player


class PlayerBackend(ModelBackend):
    """ModelBackend that loads `request.user` with `select_related("rating")`.

    The header shows the rating on every page; this keeps it to the one query that loads the user.
    A player without a Rating row yet shows the start rating (the template's default).
    """

    def get_user(self, user_id):
        try:
            player = Player._default_manager.select_related("rating").get(pk=user_id)
        except Player.DoesNotExist:
            return None
        except FieldError:  # no ratings relation installed: fall back to the plain query
            return super().get_user(user_id)
        return player if self.user_can_authenticate(player) else None


def outside_admin(request, credentials=None) -> bool:
    """AXES_WHITELIST_CALLABLE: django-axes counts admin logins only; players' restore has its own
    throttle (accounts.services.restore), and axes must not record or lock it."""
    return not (getattr(request, "path", "") or "").startswith(reverse("admin:index"))


# The backend a signed-in session names (tools that make sessions by hand: benchmarks, tests).
PLAYER_BACKEND = f"{PlayerBackend.__module__}.{PlayerBackend.__qualname__}"
