"""The deadline registry: which deadline columns exist in the whole site and what firing one does.

Each app registers its own in its ``AppConfig.ready()``; the one sweep (``sweep.py``), the one pacer
(``pacer.py``) and whichever driver the deployment runs (Celery beat, or the in-process ticker) read
this registry and know nothing of any app. docs/ARCHITECTURE.md ("Registries") says who registers what.

Two ways to register:

- ``register_column(kind, pending, column, fire)``: the common case, one row with one deadline
  column. The registry lists the overdue rows, locks one with ``skip_locked``, re-checks it is still
  pending and due by the database clock, and calls ``fire(row_id)`` inside that transaction.
- ``register(Deadline(...))``: full control (a seat's deadline that locks its game, a deadline
  derived from other columns such as a stale heartbeat, a firing per group of rows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Now

Due = tuple[int, int | None, object]  # (row id, its version or None, its deadline), as a lister yields it


@dataclass(frozen=True)
class Fired:
    kind: str
    obj_id: int
    version: int | None
    late_ms: float  # DB now() minus the deadline when the lock was taken, plus the time to commit the firing


Firer = Callable[[int, int | None, bool], Fired | None]


@dataclass(frozen=True)
class Deadline:
    """One kind of deadline.

    ``due()`` lists the overdue rows (oldest first); ``fire(row_id, version, skip_locked)`` fires one
    inside the registry's transaction (lock the row, with ``skip_locked`` when asked; re-check; call
    the owning service) and returns what fired or None for a no-op. ``watch`` is (a function giving
    the rows whose deadline is pending, the column): the pacer wakes when its earliest value falls
    due; None when another kind's watch covers the same column (the game's turn and check share
    ``Game.deadline``). A ``derived`` deadline has no column (a stale heartbeat): only the full sweep,
    every TIMERS_FULL_SWEEP_SECONDS, lists it.
    """

    kind: str
    due: Callable[[], Iterable[Due]]
    fire: Firer
    watch: tuple[Callable[[], QuerySet], str] | None = None
    derived: bool = False


_registry: dict[str, Deadline] = {}
_generation = 0  # changes with every (un)registration: what the pacer's compiled statement is keyed on


def register(deadline: Deadline) -> None:
    """Add a kind (from an app's ready()). A kind is registered once; the same kind twice is a mistake."""
    if deadline.kind in _registry:
        raise ValueError(f"deadline kind {deadline.kind!r} is registered already")
    global _generation
    _registry[deadline.kind] = deadline
    _generation += 1


def unregister(kind: str) -> None:
    global _generation
    if _registry.pop(kind, None) is not None:
        _generation += 1


def generation() -> int:
    """A number that changes whenever the registered kinds do."""
    return _generation


def registered() -> list[Deadline]:
    """Every kind, in the order of registration (the apps' order in INSTALLED_APPS)."""
    return list(_registry.values())


def get(kind: str) -> Deadline | None:
    return _registry.get(kind)


def locked(queryset: QuerySet, skip_locked: bool) -> QuerySet:
    """``queryset`` locked FOR UPDATE (its own rows only), skipping rows another firer holds when
    ``skip_locked``; unchanged where the database has no row locks (SQLite: one writer anyway)."""
    features = connection.features
    if not features.has_select_for_update:
        return queryset
    return queryset.select_for_update(skip_locked=skip_locked and features.has_select_for_update_skip_locked,
                                      of=("self",) if features.has_select_for_update_of else ())


def late_ms(db_now: datetime, deadline: datetime) -> float:
    return (db_now - deadline).total_seconds() * 1000.0


def register_column(kind: str, pending: Callable[[], QuerySet], column: str,
                    fire: Callable[[int], object], *, version: str | None = None) -> Deadline:
    """Register the common case: the rows of ``pending()`` carry a deadline in ``column``; when it is
    due, ``fire(row_id)`` is called inside the transaction that holds the row locked, after the
    registry re-read it as still pending and due by the database clock. The service must clear or
    move the column (or change the row so that ``pending()`` drops it). ``version``: a field that
    changes with every change of the row; a firing listed at one version is dropped at another.
    """
    fields = ["pk", version, column] if version else ["pk", column]

    def due() -> Iterable[Due]:
        for row in pending().filter(**{f"{column}__lte": Now()}).order_by(column).values_list(*fields):
            yield (row[0], row[1], row[2]) if version else (row[0], None, row[1])

    def firer(pk: int, listed_version: int | None, skip_locked: bool) -> Fired | None:
        names = [column, "db_now", *([version] if version else [])]
        row = (locked(pending().filter(pk=pk, **{f"{column}__lte": Now()}), skip_locked)
               .annotate(db_now=Now()).values(*names).first())
        if row is None:
            return None
        current = row[version] if version else None
        if listed_version is not None and current is not None and current != listed_version:
            return None
        fire(pk)
        return Fired(kind, pk, current, late_ms(row["db_now"], row[column]))

    deadline = Deadline(kind, due, firer, watch=(pending, column))
    register(deadline)
    return deadline
