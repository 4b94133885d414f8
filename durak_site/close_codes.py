"""Every WebSocket close code the server sends, defined once (the sockets' clients mirror this list).

Browsers may send only 1000 and 3000-4999, so the server's own codes are 4xxx: the HTTP status
they resemble, or 4012 for the 1012 "service restart" a browser could not be sent.
"""

SESSION_ENDED = 4401  # not signed in, or the session ended (logged out, a new key, a moderator)
BANNED = 4403  # the player is banned
NOT_FOUND = 4404  # no such table, a private table the viewer may not see, or an unknown path
TOO_MANY = 4408  # too many sockets of one account or address (game/socket_limits.py)
FLOODING = 4429  # too many messages (game/flood.py's buckets ran dry)
SERVICE_RESTART = 4012  # the process is stopping (a deploy): reconnect at once, to another process

ALL = {
    "session_ended": SESSION_ENDED,
    "banned": BANNED,
    "not_found": NOT_FOUND,
    "too_many": TOO_MANY,
    "flooding": FLOODING,
    "service_restart": SERVICE_RESTART,
}
