"""What card sides are drawn from: a digest of everything a side is drawn from (its inputs, which the
store keys it by, with Aetherpress's own code).

A face is drawn from its card's data, the deck's data (suits, ranks, style,
size: everything but the other cards), the templates, fonts and icons of
every layer of the project and the renderer's options (bleed, draft).  A back is drawn from the same, without any card: a back
must not give its card away.  A template that never names ``deck`` (see
:mod:`.deckreads`) sees of its deck only the style, the size, the suits and
its card's rank, so its sides are keyed by those alone and the variants of a
deck that print a card alike share its side (not in drafts, whose notes name
the deck).  Pictures a template loads are not known until it runs; they are
recorded as it runs and checked when a drawn side is reused (see
:mod:`generator.faces.drawn`).

Two sides with the same key are the same SVG, so a side whose key has not
changed is never drawn again, and the preview knows which cards changed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from ..definitions.model import Card, Deck
from ..definitions.templates import TEMPLATE_SUFFIX
from ..project import Project
from ..project.digests import digest, folder_digest


def plain(value: Any, leave_out: tuple[str, ...] = ()) -> Any:
    """``value`` as JSON-ready data: dataclasses by field (but ``leave_out``), mappings sorted, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name not in leave_out and f.compare}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def _project_inputs(project: Project) -> str:
    """The templates, styles, presets, fonts and icons of every layer (what any side may be drawn with)."""
    folders = []
    for layer in project.layers:
        folders += [layer.templates, layer.styles, layer.presets, layer.fonts, layer.root / "icons"]
    return folder_digest(dict.fromkeys(folders))  # a folder named twice is hashed once


def font_inputs(project: Project) -> str:
    """The font files of every layer: a piece embeds the fonts its SVG names, so they are part of its key."""
    return folder_digest(dict.fromkeys(layer.fonts for layer in project.layers))


class SideKeys:
    """The keys of one deck's sides as one renderer draws them (``options``: its bleed, draft mode...).

    ``reads_deck`` tells whether a template (by file name) reads its deck beyond what every side sees.
    """

    def __init__(self, project: Project, deck: Deck, options: Mapping[str, Any], reads_deck: Callable[[str], bool]):
        drawn_by = digest(_project_inputs(project), plain(options))
        self.base = digest(drawn_by, plain(deck, leave_out=("cards",)))
        # what every side sees of its deck: the style, the size, the suits (and their icons), the folder of its pictures
        seen = digest(drawn_by, "seen", plain(deck.style), plain(deck.size), plain(deck.suits), deck.folder)
        if deck.template_words:  # an edition's words for what templates write themselves
            seen = digest(seen, plain(deck.template_words))
        self.seen = None if options.get("draft") else seen
        self.reads_deck = reads_deck
        self._reads: dict[str, bool] = {}

    def _own(self, template: str) -> bool:
        """Whether sides drawn with ``template`` are this deck's own (it reads the deck, or this is a draft)."""
        if self.seen is None:
            return True
        if template not in self._reads:
            self._reads[template] = self.reads_deck(template + TEMPLATE_SUFFIX)
        return self._reads[template]

    def face(self, deck: Deck, card: Card) -> str:
        template = deck.template_for(card)
        if self._own(template):
            return digest(self.base, "face", template, plain(card))
        rank = plain(deck.rank(card.rank)) if card.rank else None
        return digest(self.seen, "face", template, plain(card), rank)

    def back(self, deck: Deck, card: Card | None) -> str:
        template = deck.back_for(card) if card is not None else deck.back_template
        return digest(self.base if self._own(template) else self.seen, "back", template)
