from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from accounts import pages as profile_pages
        from lobby import pages

        from . import hooks

        hooks.register()
        profile_pages.register_profile_panel("notifications/settings_section.html", place="settings")
        pages.register_table_panel("notifications/table_client.html", place="page")  # visibility, sound
