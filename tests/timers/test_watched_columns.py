"""The pacer reads the earliest pending deadline of every registered column in one statement, each
part an ``ORDER BY column LIMIT 1``: without an index leading with that column, each poll (ten a
second) would scan the whole table. Every app's watched column must carry one."""

from __future__ import annotations

from django.db import models

from durak_site import deadlines


def leading_index_columns(model: type[models.Model]) -> set[str]:
    """Columns that lead some index of ``model``: a field's own index or the first of an Index."""
    columns = {f.column for f in model._meta.concrete_fields if f.db_index or f.unique}
    for index in model._meta.indexes:
        if index.fields:
            first = index.fields[0].lstrip("-")
            columns.add(model._meta.get_field(first).column)
    return columns


def test_every_watched_deadline_column_leads_an_index():
    watched = [(d.kind, *d.watch) for d in deadlines.registry.registered() if d.watch is not None]
    assert len(watched) >= 8  # game, social and tournaments all register theirs
    missing = []
    for kind, pending, field in watched:
        model = pending().model
        column = model._meta.get_field(field).column
        if column not in leading_index_columns(model):
            missing.append(f"{kind}: {model._meta.label}.{field}")
    assert missing == []
