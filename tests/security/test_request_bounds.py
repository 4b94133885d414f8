"""The web process bounds what a client can make it hold: a body over the limit is refused with 413
before it is read (declared or chunked), and headers that do not arrive in time drop the connection
(slow, idle and kept-alive clients alike). Driven through daphne's own request handling on a
Twisted test transport and clock."""

from __future__ import annotations

import pytest


@pytest.fixture
def connect():
    from daphne.server import Server
    from twisted.internet.task import Clock
    from twisted.internet.testing import StringTransport

    from durak_site.serve import BoundedHTTPFactory

    clock = Clock()
    server = Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {}  # what Server.run() sets up before it listens
    factory = BoundedHTTPFactory(server, reactor=clock)

    def open_connection():
        protocol = factory.buildProtocol(("127.0.0.1", 5000))
        transport = StringTransport()
        protocol.makeConnection(transport)
        return protocol, transport

    return clock, open_connection


def test_a_declared_body_over_the_limit_is_refused_before_it_is_read(connect):
    from durak_site.serve import REQUEST_BODY_LIMIT

    _clock, open_connection = connect
    protocol, transport = open_connection()
    protocol.dataReceived(b"POST /accounts/signup/ HTTP/1.1\r\nHost: localhost\r\n"
                          b"Content-Length: %d\r\n\r\n" % (200 * 1024 * 1024))
    assert transport.value().startswith(b"HTTP/1.1 413")
    assert transport.disconnecting
    protocol.dataReceived(b"x" * 65536)  # what was already on the wire is dropped, not kept
    assert REQUEST_BODY_LIMIT < 200 * 1024 * 1024


def test_a_chunked_body_is_refused_once_it_passes_the_limit(connect):
    from durak_site.serve import REQUEST_BODY_LIMIT

    _clock, open_connection = connect
    protocol, transport = open_connection()
    protocol.dataReceived(b"POST /accounts/signup/ HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"x" * 65536
    sent = 0
    while not transport.disconnecting and sent <= REQUEST_BODY_LIMIT * 2:
        protocol.dataReceived(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sent += len(chunk)
    assert transport.value().startswith(b"HTTP/1.1 413")
    assert REQUEST_BODY_LIMIT < sent <= REQUEST_BODY_LIMIT + len(chunk)


def test_headers_that_do_not_arrive_in_time_drop_the_connection(connect):
    from durak_site.serve import REQUEST_HEADERS_TIMEOUT

    clock, open_connection = connect
    protocol, transport = open_connection()
    for _ in range(REQUEST_HEADERS_TIMEOUT - 1):  # a byte a second keeps Twisted's idle timer happy
        protocol.dataReceived(b"X")
        clock.advance(1)
    assert not transport.disconnected
    clock.advance(2)
    assert transport.disconnected


def test_an_idle_connection_is_dropped_too(connect):
    from durak_site.serve import REQUEST_HEADERS_TIMEOUT

    clock, open_connection = connect
    _protocol, transport = open_connection()
    clock.advance(REQUEST_HEADERS_TIMEOUT + 1)
    assert transport.disconnected
