"""The recovery key's one trip from the service to the one page that shows it, and its reminder.

The key travels in a signed, HttpOnly, SameSite=Strict cookie scoped to the key page's path, so no other
page ever receives it; the page deletes it as it renders, and a one-time nonce kept in the session makes
sure it renders once even for a client that keeps the cookie. So the key is never written to the
database, the session or a log, never put in a URL, and reloading the page does not show it again.

Two ways to carry it:

- at once (sign-up from the header, a new key on the profile): the response goes to the key page and the
  cookie lives `AT_ONCE_AGE` seconds;
- later (sign-up on the way to a game, «Играть»): the response goes straight on, the cookie lives
  `LATER_AGE` seconds (a first game and then some) and the session notes until when. While the key is
  unshown the pages carry a reminder that opens the key page (`reminder`); once that page has rendered
  the nonce is used up and the reminder is gone. If the time runs out first, the reminder says the key
  cannot be shown any more and a new one can be issued on the profile, until the profile is visited.
"""

from __future__ import annotations

import secrets
import time
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.debug import sensitive_variables

from . import keys

COOKIE = "durak_key_once"
NONCE = "accounts.key_once_nonce"  # session: the nonce the cookie must carry
DUE = "accounts.key_once_due"  # session: when a key carried "later" stops being shown (epoch seconds)
AT_ONCE_AGE = 120  # seconds
LATER_AGE = 4 * 3600

PENDING, EXPIRED = "pending", "expired"


def _now() -> float:
    return time.time()


def _salt(player) -> str:
    return f"accounts.key-once.{player.pk}"


def _key_path() -> str:
    return reverse("accounts:key")


@sensitive_variables("key")
def carry(request: HttpRequest, player, key: str, next_url: str | None = None, *, later: bool = False) -> HttpResponse:
    """The response that carries `key` towards the key page: a redirect to it (with `next_url` for its
    «continue»), or, `later`, straight to `next_url` with the reminder on the pages in between."""
    nonce = secrets.token_urlsafe(16)
    request.session[NONCE] = nonce
    if later and next_url:
        age = LATER_AGE
        request.session[DUE] = int(_now()) + age
        response = redirect(next_url)
    else:
        age = AT_ONCE_AGE
        request.session.pop(DUE, None)
        target = _key_path()
        if next_url:
            target += "?" + urlencode({"next": next_url})
        response = redirect(target)
    response.set_signed_cookie(COOKIE, f"{nonce}:{key}", salt=_salt(player), max_age=age, path=_key_path(),
                               secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Strict")
    return response


@sensitive_variables("carried", "key")
def take(request: HttpRequest) -> str | None:
    """The key carried to this request, once: the session's nonce is used up whatever the cookie says."""
    expected = request.session.pop(NONCE, None)
    due = request.session.pop(DUE, None)
    if due is not None and _now() >= due:
        return None
    carried = request.get_signed_cookie(COOKIE, default=None, salt=_salt(request.user),
                                        max_age=LATER_AGE if due is not None else AT_ONCE_AGE)
    if not expected or not carried or ":" not in carried:
        return None
    nonce, key = carried.split(":", 1)
    if not secrets.compare_digest(nonce, expected) or not keys.is_well_formed(key):
        return None
    return key


def forget(response: HttpResponse) -> None:
    response.delete_cookie(COOKIE, path=_key_path(), samesite="Strict")


def reminder(request: HttpRequest) -> str | None:
    """PENDING while a key carried "later" waits to be shown, EXPIRED once its time ran out, else None."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    session = request.session
    due = session.get(DUE)
    if due is None or not session.get(NONCE):
        return None
    return PENDING if _now() < due else EXPIRED


def drop_expired(request: HttpRequest) -> bool:
    """Forget a key whose time ran out (the profile, where a new one is issued, has said so)."""
    if reminder(request) != EXPIRED:
        return False
    request.session.pop(NONCE, None)
    request.session.pop(DUE, None)
    return True
