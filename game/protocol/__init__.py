"""The sockets' schema: a TypedDict per message in and out of the table and the site socket.

`schema` is the machinery (registry, decoding, encoding, checks); `table` the table socket's own
messages; every app above declares its own next to its code and registers them in its ready()
(chat/protocol.py, social/protocol.py, tournaments/protocol.py, notifications/protocol.py,
letters/protocol.py);
`doc` writes docs/PROTOCOL.md's field tables from them.
"""

from game.protocol import schema
from game.protocol.schema import (
    IN,
    OUT,
    TABLE,
    Malformed,
    Refuse,
    Refused,
    Spec,
    accepts,
    check_out,
    decode,
    encode,
    register_in,
    register_out,
    spec,
    specs,
)

__all__ = [
    "IN", "OUT", "TABLE", "Malformed", "Refuse", "Refused", "Spec", "accepts", "check_out", "decode", "encode",
    "register_in", "register_out", "schema", "spec", "specs",
]
