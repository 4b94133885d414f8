"""The installable app: its manifest, the service worker at the site's root and the offline page.

The worker caches only static files whose names carry a content hash (the manifest storage writes
them at collectstatic) and the two offline pages; it never caches a page or any response with a
player's data, so a page always comes from the server. Its script names the release (a hash of the
static manifest and of its own template), so a deploy changes its bytes, the browser installs the
new one, and its activation deletes the old release's cache.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any, cast

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME_COLOUR = "#0b4a2f"  # the header's green (base.html's theme-color)
BACKGROUND_COLOUR = "#0d5434"  # the felt: the splash screen while the app starts


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest in the page's language (LocaleMiddleware has chosen it)."""
    lang = translation.get_language() or settings.LANGUAGE_CODE
    body = {
        "name": _("Durak Club"),
        "short_name": _("Durak"),
        "description": _("Durak Club: podkidnoy and perevodnoy Durak with friends and bots."),
        "lang": lang,
        "dir": "ltr",
        "id": "/",
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static("site/icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("site/icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("site/icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept-Language, Cookie"
    return response


@lru_cache(maxsize=1)
def release() -> str:
    """What makes this deployment's worker differ from the last one's: the hashed names of every
    static file (collectstatic's manifest; absent in development) and the worker's own template."""
    digest = hashlib.sha256()
    template = get_template("pwa/sw.js")
    digest.update(cast(Any, template).template.source.encode())  # the Django backend's Template
    manifest_name = getattr(staticfiles_storage, "manifest_name", None)
    if manifest_name and staticfiles_storage.exists(manifest_name):
        with staticfiles_storage.open(manifest_name) as handle:
            digest.update(handle.read())
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker's script at the root, so its scope is the whole site. Never cached by the browser's
    HTTP cache (its update check always sees a new release)."""
    offline = {lang: reverse("offline", args=[lang]) for lang in _languages()}
    body = render_to_string("pwa/sw.js", {
        "release": release(),
        "static_url": settings.STATIC_URL,
        "offline": json.dumps(offline),
        "default_lang": settings.LANGUAGE_CODE,
        "icon": static("site/icons/icon-192.png"),
    })
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache, max-age=0"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest, lang: str) -> HttpResponse:
    """«Нет связи…»: what the worker shows when a page cannot be loaded. Standalone and the same for
    every visitor (no nick, no rating, no cookie set), since the worker keeps it."""
    if lang not in _languages():
        raise Http404
    with translation.override(lang):
        body = render_to_string("pwa/offline.html", {"lang": lang})
    response = HttpResponse(body)
    response["Cache-Control"] = "no-cache"
    return response
