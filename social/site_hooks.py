"""What apps above social add to the site socket: a page hook is told which page a tab shows (the
socket's `page` message) and answers the channel groups that tab should hear (e.g. an event's live
standings), doing whatever arriving there means for the player. Registered in the app's ready();
the hook runs on the thread pool (it may read the database) and is authorised by the hook itself.
A table's pages hold the table socket instead, which tells the hooks the table's path on connect
(social/table_socket.py) and joins their groups too: send events to them with
`notify.news_event(payload)`, which both sockets hear.

A site panel is a template rendered beside the site script on every signed-in page (with `user`),
e.g. the player's in-page alert switches that the script reads (notifications).
"""

from __future__ import annotations

from collections.abc import Callable

from durak_site.panels import Panels

PageHook = Callable[[int, str], list[str]]
_hooks: list[PageHook] = []
_panels = Panels("every signed-in page", ("site",))


def register_site_panel(template_name: str) -> None:
    _panels.register(template_name, "site")


def site_panels() -> tuple[str, ...]:
    return _panels.at("site")


def register_page_hook(hook: PageHook) -> None:
    if hook not in _hooks:
        _hooks.append(hook)


def page_groups(player_id: int, path: str) -> list[str]:
    """Every registered hook's groups for this player on this page (one thread hop for all)."""
    groups: list[str] = []
    for hook in _hooks:
        groups.extend(hook(player_id, path))
    return groups
