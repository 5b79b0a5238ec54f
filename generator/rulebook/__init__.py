"""Rulebooks: Markdown (with Jinja2 for data) to publisher-quality PDF.

The stages: ``source`` (Jinja2 in a sandbox fills in decks and odds) ->
``markup`` (Python-Markdown element tree) -> ``flow`` (platypus flowables,
card pictures from ``pictures``, hand charts from ``charts``) -> ``document``
(title page, contents, outline, footers; ``multiBuild``) -> ``impose``
(optional saddle-stitch booklet).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from ..definitions.languages import language_name, read_catalogue
from ..definitions.presets import Paper, load_papers
from ..definitions.schema import suggest
from ..errors import AetherpressError, Problem, display_path
from ..hands import Hands
from ..project import Project
from ..project.files import write_bytes
from ..resources.fonts import font_book, missing_characters
from ..units import pt
from .bookodds import OddsSource, chart_examples
from .cardart import CardLibrary, SidesOf
from .definition import RulebookDefinition, load_rulebooks
from .words import game_words, speaking, words

__all__ = [
    "BOOK_PAPERS",
    "BuildContext",
    "build_all",
    "build_book",
    "check_book",
    "lay_out_book",
    "load_rulebooks",
    "pdf_author",
    "render_book",
    "render_file",
    "typesetting",
]

_SPACINGS = (1.0, 0.9, 1.12, 0.8)  # paragraph spacings tried, in turn, to keep widow pages out
BOOK_PAPERS = ("a5", "a4", "letter")  # page sizes a book is designed for
_BOOKLET_SHEETS = {"a5": ("a5", "a4"), "a4": ("a5", "a4"), "letter": ("half-letter", "letter")}  # (pages, sheets)


@dataclass
class BuildContext:
    """What several books built in one run share: decks, card drawings and odds."""

    project: Project
    library: CardLibrary
    odds: OddsSource

    @classmethod
    def create(cls, project: Project, hands: Hands, sides_of: SidesOf, draft: bool = False) -> BuildContext:
        """The context of ``project``'s books: its games and decks (``hands``), its decks' sides (``sides_of``:
        the project context's); in a ``draft``, card text that does not fit is drawn in red."""
        return cls(project, CardLibrary(project, hands.definitions, sides_of, draft, hands), OddsSource(hands))

    def paper(self, name: str) -> Paper:
        return load_papers(self.project)[name]


def _source(context: BuildContext, book: RulebookDefinition):
    """The book's source filled in (its data, odds and decks) and mapped back to the lines written."""
    # the book's drawing modules load only when a book is made
    from .markup import SourceMap, check_limits
    from .source import render_source

    context.odds.begin()
    context.odds.count_ahead(book.games)
    written, rendered = render_source(book, context.library, context.odds)
    if context.library.draft and book.speaks and book.translated:  # a draft tags what the source changed since
        from .sections import mark_stale, states

        found = states(book.id, _source_of(book), book.speaks, read_catalogue(book.file.parent, book.speaks))
        rendered = mark_stale(rendered, [item.heading for item in found if item.state == "stale" and item.heading])
    source_map = SourceMap(display_path(book.source), written, rendered)
    check_limits(source_map)
    _check_glyphs(source_map, rendered, book)
    return source_map, rendered


def _source_of(book: RulebookDefinition) -> Path:
    """The source (``NAME.md``) an edition's source (``NAME.de.md``) translates."""
    return book.source.with_name(book.source.name.replace(f".{book.speaks}.", ".", 1))


@contextmanager
def typesetting(context: BuildContext, book: RulebookDefinition) -> Iterator[None]:
    """Make what is inside the block in the book's language, a run no book font has set in the project's own
    fonts or the shipped script fonts."""
    # the book's drawing modules load only when a book is made
    from .scripts import project_fonts

    with speaking(book.language_set), project_fonts(font_book(context.project)):
        yield


def _check_glyphs(source_map, rendered: str, book: RulebookDefinition) -> None:
    """A character that none of the book's text fonts, none of the project's fonts and none of the script fonts
    has is an error at its line, naming it and the language."""
    # the book's drawing modules load only when a book is made
    from .scripts import fallback_font, fallbacks, register_script_fonts
    from .style import SANS, SERIF

    register_script_fonts()
    for number, line in enumerate(rendered.splitlines(), 1):
        sans = set(missing_characters(SANS, line))  # read once a line: a long line has many characters to look up
        missing = [c for c in missing_characters(SERIF, line) if c in sans]
        missing = [c for c in missing if fallback_font(SERIF, c) is None]
        if missing:
            shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing[:8]) + (" ..." if len(missing) > 8 else "")
            code = book.language_set
            fonts = ", ".join(["EB Garamond", "Source Sans 3", *(family for family, _, _ in fallbacks(code))])
            raise source_map.at_rendered_line(
                number, f"the book in {language_name(code)} ({code}) has characters none of its fonts ({fonts}) has: {shown}"
            )


def check_book(context: BuildContext, book: RulebookDefinition) -> None:
    """Everything a build of the book reads, filled in and converted (its pictures, charts and cover),
    short of laying out its pages: any problem is raised, as the build would raise it."""
    # the book's drawing modules load only when a book is made
    from .style import make_styles

    _check_games(context, book)
    with typesetting(context, book):
        source_map, rendered = _source(context, book)
        _story(context, book, "a5", make_styles(context.paper("a5"), _SPACINGS[0]), source_map, rendered)


def _check_games(context: BuildContext, book: RulebookDefinition) -> None:
    """Each name in the book's ``games`` is a game of the project, a variant of one of its decks, or the book
    itself: a misspelt one would make ``rulebook NAME`` miss the book, and its credits go unprinted."""
    definitions = context.library.definitions
    variants = {v for deck in book.decks if deck in definitions for v in definitions[deck].variant_specs}
    known = sorted({*context.odds.games(display_path(book.file)), *variants, book.id})
    for name in book.games:
        if name not in known:
            raise AetherpressError(
                Problem(
                    display_path(book.file),
                    f"rulebook.games: '{name}' is no game of the project nor a variant of the book's decks{suggest(name, known)}",
                )
            )


def render_book(context: BuildContext, book: RulebookDefinition, paper: str = "a5") -> bytes:
    """The book as PDF bytes at page size ``paper`` (a paper preset's name)."""
    return lay_out_book(context, book, paper)[0]


def lay_out_book(context: BuildContext, book: RulebookDefinition, paper: str = "a5"):
    """The book as PDF bytes at page size ``paper`` and its :class:`.document.Layout` (pages, headings, tables)."""
    # the book's drawing modules load only when a book is made
    from .coverart import CoverDesign
    from .document import render_pdf
    from .style import make_styles

    _check_games(context, book)
    source_map, rendered = _source(context, book)
    best: tuple[int, bytes, Any] | None = None
    for spacing in _SPACINGS:  # the first spacing that leaves no widow page and no page more than a third empty
        styles = make_styles(context.paper(paper), spacing)
        story = _story(context, book, paper, styles, source_map, rendered)
        data, bad, layout = render_pdf(
            styles, book.title, book.subtitle or book.title, story, pdf_author(context, book), book.language_set
        )
        layout.cover = next((f.design for f in story if isinstance(getattr(f, "design", None), CoverDesign)), None)
        if best is None or len(bad) < best[0]:
            best = (len(bad), data, layout)
        if not bad:
            break
    assert best is not None
    return best[1], best[2]


def _story(context: BuildContext, book: RulebookDefinition, paper: str, styles, source_map, rendered: str) -> list:
    """Every flowable of the book, title page to the end."""
    # the book's drawing modules load only when a book is made
    from .charts import hand_chart
    from .colophon import book_author, colophon, gather_credits, retold
    from .cover import back_matter, front_matter, title_page
    from .coverpick import cover_design
    from .document import contents
    from .flow import Converter
    from .markup import parse

    names = game_words(context.odds.games(source_map.file))  # the hands' names in the book's language, for its charts

    def chart_for(game: str, ranking: str | None, deck: str | None, also: list[str], element: ET.Element):
        where = source_map.file
        table = context.odds.table(game, ranking, deck, where)
        deck_obj = _chart_deck(context, table, game, where)
        examples = chart_examples(context.odds.hands, table, {c.id for c in deck_obj.cards})
        extra = []
        for other in also:
            other_table = context.odds.table(game, ranking, other, where)
            extra.append((_deck_label(_chart_deck(context, other_table, game, where)), other_table))
        label = _deck_label(deck_obj) if extra else ""
        marks = deciding_attributes(context.odds.games(where)[game].rankings[table.ranking], deck_obj)
        return hand_chart(table, deck_obj, context.library, styles, styles.measure, examples.get, extra, label, marks, names)

    converter = Converter(styles, context.library, source_map, chart_for)
    body = converter.convert(parse(rendered))
    if not converter.headings:
        raise AetherpressError(Problem(source_map.file, "the rulebook has no headings"))
    games = context.odds.games(source_map.file)
    decks = [context.library.deck(d, source_map.file) for d in book.decks]
    credits = gather_credits(book, games, decks)
    undated = retold(credits) and not any(c.date for c in credits)
    verso = colophon(styles, book.title, book.edition, credits, undated, context.odds.simulated)
    facts = [(words("Players"), book.players), (words("Time"), book.playing_time), (words("Age"), book.age)]
    facts = [(k, v) for k, v in facts if v]
    lines = [c.line(words) for c in credits if c.line()] + [c.unofficial for c in credits if c.unofficial]
    design = cover_design(context, book, lines, book_author(credits), facts)
    story = front_matter(design, styles.page)
    story += title_page(styles, book.title, list(book.title_lines), book.subtitle, book_author(credits), verso, book.edition)
    story += contents(styles)
    story += body
    story.append(Spacer(1, 2 * mm))
    story += back_matter(design, styles.page, _fillers(context, book, styles, design))
    return story


def _fillers(context: BuildContext, book: RulebookDefinition, styles, design) -> list:
    """The pages that may fill the book's last sheet, in order (see :mod:`.fillers`)."""
    from .cover import SIGNATURE
    from .fillers import gallery_page, notes_page, reference_page, scores_page

    where = display_path(book.source)
    pages: list = []
    games = context.odds.games(where)
    for game_id in book.games:
        if game_id in games and getattr(games[game_id], "rankings", None):
            pages.append(reference_page(styles, context.odds.table(game_id, None, None, where), game_words(games)))
            break
    if book.decks:
        deck = context.library.deck(book.decks[0], where)
        arts = [context.library.art(deck, card) for card in deck.cards]
        pages.append(gallery_page(styles, words("The cards of {deck}", deck=deck.title), arts))
    pages.append(scores_page(styles))
    pages.append(notes_page(styles))
    while len(pages) < SIGNATURE - 1:  # a book of neither games nor decks: a second page for notes
        pages.append(notes_page(styles))
    return pages


def deciding_attributes(ranking, deck) -> tuple[str, ...]:
    """The card attributes, besides suits and ranks, that a ranking's categories and tie classes look at
    (Lith's interpretive types), in the order the ranking names them."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            if value not in found:
                found.append(value)
        elif isinstance(value, dict) or hasattr(value, "items"):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    for part in (*ranking.categories, *ranking.classes):
        walk(part.blocks)
    held = {key for card in deck.cards for key in card.attributes}
    return tuple(name for name in found if name in held and name not in ("suits", "ranks", "rank", "suit"))


def pdf_author(context: BuildContext, book: RulebookDefinition) -> str:
    """The book's author for its PDF: the designer its credits name (see :func:`.colophon.book_author`)."""
    # the book's drawing modules load only when a book is made
    from .colophon import book_author, gather_credits

    games = context.odds.games(display_path(book.file))
    decks = [context.library.deck(d, display_path(book.file)) for d in book.decks]
    return book_author(gather_credits(book, games, decks))


def _deck_label(deck) -> str:
    """A chart column's heading for a deck: its size, which is what changes between decks of one game."""
    return words("{count} cards", count=deck.card_count)


def _chart_deck(context: BuildContext, table, game: str, where: str):
    """The deck whose faces draw a chart's example hands."""
    deck_key = getattr(table, "deck_key", "")
    if deck_key:
        return context.library.deck(deck_key, where)
    deck = getattr(table, "deck", None)
    if deck is not None and hasattr(deck, "cards"):
        return deck
    games = context.odds.games(where)
    base = getattr(games[game], "deck_id", None) or game
    if isinstance(deck, str) and deck:
        if ":" in deck or deck in context.library.definitions:
            return context.library.deck(deck, where)
        return context.library.deck(f"{base}:{deck}", where)
    return context.library.deck(base, where)


def build_book(
    context: BuildContext, book: RulebookDefinition, out: Path, paper: str = "a5", booklet: bool = False, thickness: float = 0.0
) -> Path:
    """Write one book (or its booklet, its creep set by the paper's ``thickness`` in mm) into ``out``; return the path."""
    name, data = render_file(context, book, paper, booklet, thickness)
    return write_bytes(out / name, data)


def render_file(
    context: BuildContext, book: RulebookDefinition, paper: str = "a5", booklet: bool = False, thickness: float = 0.0
) -> tuple[str, bytes]:
    """The file name and PDF bytes of one book (or its booklet), in the book's language."""
    with typesetting(context, book):
        return _render_file(context, book, paper, booklet, thickness)


def _render_file(
    context: BuildContext, book: RulebookDefinition, paper: str, booklet: bool, thickness: float
) -> tuple[str, bytes]:
    if booklet:
        # pypdf loads only for booklets
        from ..render.impose import impose

        page_paper, sheet_paper = _BOOKLET_SHEETS[paper]
        data = render_book(context, book, page_paper)

        sheet = context.paper(sheet_paper)
        data = impose(data, (pt(sheet.width), pt(sheet.height)), thickness)
        name = f"{book.name}-booklet-{sheet_paper}.pdf"
    else:
        data = render_book(context, book, paper)
        name = f"{book.name}.pdf" if paper == "a5" else f"{book.name}-{paper}.pdf"
    return name, data


def build_all(project: Project, out: Path, context: BuildContext) -> list[Path]:
    """Every rulebook of the project itself at A5 into ``out``; all are rendered before any is written."""
    books = {k: b for k, b in load_rulebooks(project).items() if project.layer_of(b.file) is project.own}
    files = [render_file(context, book) for book in books.values()]
    return [write_bytes(out / name, data) for name, data in files]
