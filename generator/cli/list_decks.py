"""``aetherpress list``: every deck with its card count and variants."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..definitions import load_all
from ..project import Project
from .common import examples


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list every deck (the project's and the built-in ones) with its card count and variants")
    examples(p, "aetherpress list", "aetherpress list --json")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(project: Project, args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for definition in load_all(project).values():
        deck = definition.base
        rows.append(
            {
                "id": deck.id,
                "title": deck.title,
                "cards": deck.card_count,
                "variants": list(definition.variant_specs),
                "source": deck.source,
                "builtin": project.layer_of(definition.path).kind == "built-in",
                "credits": deck.credits.to_json() if deck.credits else None,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    width = max((len(r["id"]) for r in rows), default=4)
    for r in rows:
        variants = ", ".join(r["variants"]) or "-"
        where = "  [built-in]" if r["builtin"] and project.own.kind == "project" else ""
        print(f"{r['id']:<{width}}  {r['cards']:>3} cards  {r['title']}  (variants: {variants}){where}")
    return 0
