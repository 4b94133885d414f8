"""Accounts pages: sign-up, the key shown once, restore, profile (new key, log out), the ban notice.

How the key reaches its page once, and the reminder while it waits: accounts/key_once.py.
"""

from __future__ import annotations

from typing import cast

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

from . import key_once, keys, services
from .forms import RestoreForm, SignUpForm
from .models import Player


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return None


@never_cache
@sensitive_post_parameters()
@sensitive_variables("key")
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
            next_url = _safe_next(request)  # on the way to a game: straight on, the key waits (key_once)
            return key_once.carry(request, player, key, next_url, later=bool(next_url))
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)},
                  status=400 if form.errors else 200)


@never_cache
@login_required
@sensitive_variables("key")
def key_shown(request: HttpRequest) -> HttpResponse:
    """The recovery key, once: the cookie carrying it is deleted by this very response."""
    key = key_once.take(request)
    context = {"key": keys.display(key) if key else None,
               "next": _safe_next(request) or reverse("home")}
    response = render(request, "accounts/key.html", context)
    key_once.forget(response)
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
    return render(request, "accounts/profile.html", {"key_expired": key_once.drop_expired(request)})


@require_POST
@login_required
@sensitive_variables("key")
def new_key(request: HttpRequest) -> HttpResponse:
    player = cast(Player, request.user)  # login_required
    key = services.new_key(player)
    update_session_auth_hash(request, player)  # this device stays logged in; others are logged out
    return key_once.carry(request, player, key)


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    services.log_out(request)
    messages.info(request, _("You have logged out. Use your nick and recovery key to come back."))
    response = redirect("home")
    key_once.forget(response)  # a key still waiting leaves the browser with the session
    return response


@never_cache
@login_required
def banned(request: HttpRequest) -> HttpResponse:
    player = cast(Player, request.user)  # login_required
    return render(request, "accounts/banned.html", {"message": services.ban_message(player)
                                                    if player.is_banned else None})
