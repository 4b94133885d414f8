"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by daphne)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from durak_site import gc_pauses, metrics  # noqa: E402
from durak_site.origins import SiteOriginValidator  # noqa: E402
from durak_site.realtime import LoopBinder  # noqa: E402
from durak_site.routing import websocket_urlpatterns  # noqa: E402

application = LoopBinder(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
))

metrics.forget_dead_processes()  # a process killed before this one started left its open sockets counted

# Everything loaded so far (Django, the URLconf, the apps) lives as long as the process: keep it out of
# the collector's full passes. A full collection walking it paused the loop 107 ms under bench_ws at 50
# tables (gc.callbacks timing); frozen, 39 ms.
gc.freeze()
gc_pauses.start()  # and what lives on is frozen as it ages (thousands of sockets: durak_site/gc_pauses.py)
