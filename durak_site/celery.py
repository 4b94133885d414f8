"""The Celery app: worker and beat run as their own processes in production (see Procfile).

    celery -A durak_site worker -l info     # the deadline sweeps, bot moves
    celery -A durak_site beat -l info       # THE one scheduler: a sweep every TIMERS_SWEEP_SECONDS

The beat schedule lives in settings (CELERY_BEAT_SCHEDULE).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
