"""Accounts pages: sign-up, the key shown once, restore, profile (new key, log out), the ban notice.

The key travels from the service to the one page that shows it in a signed, HttpOnly cookie that lives
two minutes and is scoped to that page; the page deletes it as it renders, and a one-time nonce kept in
the session makes sure it renders once even for a client that keeps the cookie. So the key is never
written to the database, the session or a log, and reloading the page does not show it again.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_POST

from durak_site.errors import ServiceError

from . import keys, services
from .forms import RestoreForm, SignUpForm

KEY_COOKIE = "durak_key_once"
KEY_NONCE = "accounts.key_once_nonce"
KEY_COOKIE_AGE = 120  # seconds


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return None


def _key_cookie_salt(player) -> str:
    return f"accounts.key-once.{player.pk}"


@sensitive_variables("key")
def _show_key_once(request: HttpRequest, player, key: str, next_url: str | None = None) -> HttpResponse:
    """Redirect to the key page, carrying the key in a short-lived signed cookie bound to a session nonce.

    The session keeps only the nonce; the key page pops it, so the key renders once even if a client
    keeps or replays the cookie.
    """
    nonce = secrets.token_urlsafe(16)
    request.session[KEY_NONCE] = nonce
    target = reverse("accounts:key")
    if next_url:
        target += "?" + urlencode({"next": next_url})
    response = redirect(target)
    response.set_signed_cookie(KEY_COOKIE, f"{nonce}:{key}", salt=_key_cookie_salt(player), max_age=KEY_COOKIE_AGE,
                               path=reverse("accounts:key"), secure=settings.SESSION_COOKIE_SECURE,
                               httponly=True, samesite="Strict")
    return response


@sensitive_variables("carried", "key")
def _take_key(request: HttpRequest) -> str | None:
    """The key carried to this request, once: the session's nonce is used up whatever the cookie says."""
    expected = request.session.pop(KEY_NONCE, None)
    carried = request.get_signed_cookie(KEY_COOKIE, default=None, salt=_key_cookie_salt(request.user),
                                        max_age=KEY_COOKIE_AGE)
    if not expected or not carried or ":" not in carried:
        return None
    nonce, key = carried.split(":", 1)
    if not secrets.compare_digest(nonce, expected) or not keys.is_well_formed(key):
        return None
    return key


@never_cache
@sensitive_post_parameters()
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or "accounts:profile")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            player, key = services.sign_up(form.cleaned_data["nick"], services.client_ip(request))
        except ServiceError as exc:
            form.add_error("nick", exc.message)
            if exc.code == "too_many_signups":
                return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)},
                              status=429)
        else:
            login(request, player, backend="accounts.backends.PlayerBackend")
            return _show_key_once(request, player, key, _safe_next(request))
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)},
                  status=400 if form.errors else 200)


@never_cache
@login_required
def key_shown(request: HttpRequest) -> HttpResponse:
    """The recovery key, once: the cookie carrying it is deleted by this very response."""
    key = _take_key(request)
    context = {"key": keys.display(key) if key else None,
               "next": _safe_next(request) or reverse("home")}
    response = render(request, "accounts/key.html", context)
    response.delete_cookie(KEY_COOKIE, path=reverse("accounts:key"), samesite="Strict")
    return response


@never_cache
@sensitive_post_parameters("key")
def restore(request: HttpRequest) -> HttpResponse:
    form = RestoreForm(request.POST if request.method == "POST" else None)
    error_code = None
    if request.method == "POST" and form.is_valid():
        try:
            player = services.restore(request, form.cleaned_data["nick"], form.cleaned_data["key"])
        except ServiceError as exc:
            error_code = exc.code
            form.add_error(None, exc.message)
        else:
            login(request, player, backend="accounts.backends.PlayerBackend")
            messages.success(request, _("Welcome back, %(nick)s!") % {"nick": player.nick})
            return redirect(_safe_next(request) or "home")
    status = 429 if error_code == "throttled" else 400 if form.errors else 200
    return render(request, "accounts/restore.html", {"form": form, "next": _safe_next(request)}, status=status)


@never_cache
@login_required(login_url="accounts:restore")  # a logged-out owner comes back with his key, not a new nick
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {})


@require_POST
@login_required
def new_key(request: HttpRequest) -> HttpResponse:
    key = services.new_key(request.user)
    update_session_auth_hash(request, request.user)  # this device stays logged in; others are logged out
    return _show_key_once(request, request.user, key)


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    services.log_out(request)
    messages.info(request, _("You have logged out. Use your nick and recovery key to come back."))
    return redirect("home")


@never_cache
@login_required
def banned(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/banned.html", {"message": services.ban_message(request.user)
                                                    if request.user.is_banned else None})
