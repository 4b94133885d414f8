from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _deliver(player_id: int, kind: str, data: dict) -> None:
    """The local runner's sender: the delivery (pywebpush) is loaded only where a push is sent."""
    from . import delivery

    delivery.send(player_id, kind, data)


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from accounts import pages as profile_pages
        from accounts.backends import load_with_user
        from lobby import pages
        from social import site_hooks

        from . import hooks, services

        hooks.register()
        services.send_locally_with(_deliver)  # without Redis: a thread of this process sends
        profile_pages.register_profile_panel("notifications/settings_section.html", place="settings")
        pages.register_table_panel("notifications/table_client.html", place="page")  # visibility, «Ваш ход»
        site_hooks.register_site_panel("notifications/in_page_alerts.html")  # the chime and buzz switches
        load_with_user("notification_settings")  # ... which every signed-in page reads
