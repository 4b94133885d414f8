"""Write docs/PROTOCOL.md's field tables from the sockets' definitions (game/protocol/doc.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.protocol import doc


class Command(BaseCommand):
    help = "Rewrite docs/PROTOCOL.md's field tables from the schema (--check: only say whether they are current)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="change nothing; fail if a table is stale")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(settings.BASE_DIR) / "docs" / "PROTOCOL.md"
        text = path.read_text(encoding="utf-8")
        new, missing, stale = doc.render(text)
        for key in missing:
            self.stderr.write(f"no table in the document for: {key} (add <!-- schema: {key} --><!-- /schema -->)")
        for key in stale:
            self.stderr.write(f"a table of nothing declared: {key}")
        if options["check"]:
            if new != text or missing or stale:
                raise CommandError("docs/PROTOCOL.md is not what the schema says: run manage.py protocol_doc")
            return
        if new != text:
            path.write_text(new, encoding="utf-8")
            self.stdout.write("docs/PROTOCOL.md rewritten")
        if missing or stale:
            raise CommandError("some tables have no place or no definition (above)")
