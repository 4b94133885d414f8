"""Authentication: nick + recovery key through Django's ModelBackend; the user comes with his rating."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import FieldError
from django.urls import reverse

from .models import Player

# One-to-one rows of apps above that every signed-in page reads, loaded in the user's one query:
# the header's rating, and what apps add with `load_with_user` in their ready().
_with_user: list[str] = ["rating"]


def load_with_user(relation: str) -> None:
    """`request.user` comes with this one-to-one relation (its reverse name on Player) joined."""
    if relation not in _with_user:
        _with_user.append(relation)


class PlayerBackend(ModelBackend):
    """ModelBackend that loads `request.user` with `select_related("rating", ...)`.

    The header shows the rating on every page; this keeps it to the one query that loads the user.
    A player without a Rating row yet shows the start rating (the template's default).
    """

    def get_user(self, user_id):
        try:
            player = Player._default_manager.select_related(*_with_user).get(pk=user_id)
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
