from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The bottom of the stack as an app: it starts the embedded default's deadline driver."""

    name = "durak_site"
    verbose_name = "Durak Club"

    def ready(self) -> None:
        from django.conf import settings

        from durak_site import deadlines, realtime

        # One driver of the deadline sweep per deployment, chosen by TIMERS_BACKEND: Celery beat in
        # production; in the embedded default (no Redis) a daemon thread of the process that serves
        # the site, started by its first request (never in migrate, a shell or a worker).
        if settings.TIMERS_BACKEND == "ticker":
            realtime.when_serving(deadlines.start_ticker)
