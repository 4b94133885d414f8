"""The Celery app: worker and beat run as their own processes in production (see Procfile).

    celery -A durak_site worker -l info     # eta timer tasks, bot moves
    celery -A durak_site beat -l info       # the 1 s sweep of overdue deadlines (the safety net)
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every second, sweep the deadline columns for rows whose eta task was lost (worker killed, broker
# restarted). A sweep older than 5 s is dropped unrun: a backlog after an outage is one sweep's work.
app.conf.beat_schedule = {
    "sweep-deadlines": {
        "task": "game.tasks.sweep_deadlines",
        "schedule": 1.0,
        "options": {"expires": 5},
    },
}
