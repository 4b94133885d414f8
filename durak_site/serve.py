"""The web process: daphne with bounds on what a client may make it hold before the app sees it.

    python -m durak_site.serve [daphne's options] durak_site.asgi:application

Daphne (through Twisted) reads a whole request body into memory or a temporary file before Django
runs, so DATA_UPLOAD_MAX_MEMORY_SIZE refuses a huge POST only after it was received; and Twisted
lets a client take minutes to send its headers as long as a byte arrives every minute. Here:

* a body over REQUEST_BODY_LIMIT bytes (declared by Content-Length, or counted as chunks arrive) is
  answered 413 and the connection closed before it is read;
* a request's headers must arrive within REQUEST_HEADERS_TIMEOUT seconds of the connection (or of
  the previous response on a kept-alive one), else the connection is dropped. A socket's handshake
  is such a request; daphne's own --websocket_connect_timeout bounds the rest of it.

The reverse proxy in front (README, "Reverse proxy") enforces the same limits first.

A socket handshake that fails because Redis does not answer (an outage, or the first handshakes
after one) is answered 503, not 500: the client waits and reconnects (durak_site.outages).

Its access log goes through logging (``durak_site.logs.AccessLog``): JSON under LOG_FORMAT=json like
every other line, and with the URL's query values (invitation codes) left out.
"""

from __future__ import annotations

import daphne.server  # noqa: F401  (first: it installs the asyncio reactor Twisted must use)
from autobahn.websocket.types import ConnectionDeny
from daphne import cli
from daphne import http_protocol as daphne_http
from daphne import ws_protocol as daphne_ws
from twisted.internet.protocol import connectionDone
from twisted.python.failure import Failure
from twisted.web import http

from durak_site.logs import AccessLog
from durak_site.outages import redis_outage

REQUEST_BODY_LIMIT = 1024 * 1024  # bytes: the site's largest form is a few kilobytes
REQUEST_HEADERS_TIMEOUT = 15  # seconds
TOO_LARGE = (b"HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain\r\nContent-Length: 18\r\n"
             b"Connection: close\r\n\r\nRequest too large\n")


class BoundedRequest(daphne_http.WebRequest):
    """Refuses a body over the limit before reading it (chunked bodies as they grow)."""

    _received = 0
    _refused = False

    def gotLength(self, length):
        if length is not None and length > REQUEST_BODY_LIMIT:
            self._refuse()
        super().gotLength(None if self._refused else length)

    def handleContentChunk(self, data):
        if self._refused:
            return
        self._received += len(data)
        if self._received > REQUEST_BODY_LIMIT:
            self._refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command, path, version):
        if not self._refused:
            super().requestReceived(command, path, version)

    def _refuse(self) -> None:
        self._refused = True
        transport = self.channel.transport
        if transport is not None:
            transport.write(TOO_LARGE)
            transport.loseConnection()


class BoundedChannel(http.HTTPChannel):
    """Drops a connection whose request headers do not arrive in time (slow or idle clients)."""

    _headers_deadline = None

    def connectionMade(self):
        super().connectionMade()
        self._arm()

    def allHeadersReceived(self):
        self._disarm()
        super().allHeadersReceived()

    def requestDone(self, request):
        super().requestDone(request)
        if self.persistent and self.transport is not None:
            self._arm()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._disarm()
        super().connectionLost(reason)

    def _arm(self) -> None:
        self._disarm()
        self._headers_deadline = self.callLater(REQUEST_HEADERS_TIMEOUT, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._headers_deadline is not None and self._headers_deadline.active():
            self._headers_deadline.cancel()
        self._headers_deadline = None

    def _headers_too_slow(self) -> None:
        self._headers_deadline = None
        if self.transport is not None:
            self.transport.abortConnection()


class BoundedHTTPFactory(daphne_http.HTTPFactory):
    """Daphne's factory with the bounded channel and request (and an injectable clock for tests)."""

    def __init__(self, server, reactor=None):
        self.server = server
        http.HTTPFactory.__init__(self, reactor=reactor)

    def protocol(self):
        return http._GenericHTTPChannelProtocol(BoundedChannel())

    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        return protocol


class OutageAwareWebSocketProtocol(daphne_ws.WebSocketProtocol):
    """Daphne's socket protocol; a handshake that failed on a Redis outage is answered 503."""

    def handle_exception(self, exception):
        if hasattr(self, "handshake_deferred") and redis_outage(exception):
            self.handshake_deferred.errback(ConnectionDeny(code=503, reason="Service Unavailable"))
            del self.handshake_deferred
            return
        super().handle_exception(exception)


class OutageAwareWebSocketFactory(daphne_ws.WebSocketFactory):
    protocol = OutageAwareWebSocketProtocol


def main() -> None:
    daphne.server.HTTPFactory = BoundedHTTPFactory  # the Server builds its factory from this name
    daphne.server.WebSocketFactory = OutageAwareWebSocketFactory
    cli.AccessLogGenerator = AccessLog  # the CLI builds its access log from this name
    cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
