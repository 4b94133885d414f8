"""The Celery app: worker and beat run as their own processes in production (see Procfile).

    celery -A durak_site worker -l info     # the deadline sweeps, bot moves
    celery -A durak_site beat -l info       # THE one scheduler: a sweep when a deadline falls due

The beat schedule and its scheduler class live in settings (CELERY_BEAT_SCHEDULE,
CELERY_BEAT_SCHEDULER: game.beat.DeadlineScheduler reads the deadline columns and enqueues the sweeps).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
