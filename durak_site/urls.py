"""Top-level URLs; each app owns its own urls module."""

from django.contrib import admin
from django.urls import include, path

from . import pwa, views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics_view, name="metrics"),
    path("help/", views.help_page, name="help"),
    path("help/accessibility/", views.accessibility, name="accessibility"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/<str:lang>/", pwa.offline, name="offline"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("lobby.urls")),
    path("games/", include("game.urls")),
    path("ratings/", include("ratings.urls")),
    path("analysis/", include("analysis.urls")),
    path("notifications/", include("notifications.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("messages/", include("letters.urls")),
    path("", include("social.urls")),
    path("", views.home, name="home"),
]

handler500 = "durak_site.views.server_error"
