"""The colophon on the back of the title page: edition, credits, licence.

Credits come from the data: the book's own ``[rulebook.credits]``, then each of
its games' ``[game.credits]`` and its decks' ``[deck.credits]``, each set
printed once.  A licence that asks for adaptations to be shared alike makes
the book say that it is shared under that same licence, and what it permits.
"""

from __future__ import annotations

from dataclasses import replace

from reportlab.platypus import Flowable

from ..definitions.credits import Credits, Licence
from .markup import escape
from .paragraphs import Paragraph
from .style import Styles
from .words import game_credits, game_words, words


def gather_credits(book, games: dict, decks: list) -> list[Credits]:
    """The book's, its games' and its decks' credits, in that order, each once: a note (or an unofficial
    fan-work notice) told already is not told again, and a credit that then says nothing an earlier one
    has not said is left out."""
    found: list[Credits] = []
    told: set[str] = set()
    people: set[str] = set()  # designers and authors named already
    names = game_words(games)  # a game's credits in the book's language, from the catalogue beside its file
    candidates = [book.credits] + [game_credits(games.get(g), names) for g in book.games]
    candidates += [getattr(d, "credits", None) for d in decks]
    for credits in candidates:
        if credits is None:
            continue
        credits = replace(
            credits,
            notes=tuple(n for n in credits.notes if n not in told),
            unofficial="" if credits.unofficial in told else credits.unofficial,
        )
        if not credits.source:  # a credit of no source names its people once, in the first credit that does
            credits = replace(
                credits,
                designer="" if credits.designer in people else credits.designer,
                author="" if credits.author in people else credits.author,
            )
        if credits == Credits():
            continue
        if not any(_covers(earlier, credits) for earlier in found):
            found.append(credits)
            told.update(credits.notes)
            told.update([credits.unofficial] if credits.unofficial else [])
            people.update(p for p in (credits.designer, credits.author) if p)
    return found


def retold(credits: list[Credits]) -> bool:
    """Is the book made from others' sources (rather than an original game, credited to its designer)?"""
    return any(c.source or c.author or c.notice for c in credits)


def _covers(earlier: Credits, later: Credits) -> bool:
    """Does ``earlier`` say all that ``later`` does (the same source and people, nothing more given)?"""
    same = ("source", "designer", "author")
    extra = ("url", "date", "notice", "licence", "unofficial", "changes")
    return (
        all(getattr(earlier, k) == getattr(later, k) for k in same)
        and all(not getattr(later, k) or getattr(later, k) == getattr(earlier, k) for k in extra)
        and not later.notes
    )


def book_author(credits: list[Credits]) -> str:
    """Who the book's PDF names as its author: the first designer its credits give, else the first
    author (the one who wrote or signed the source); nobody when the sources name nobody."""
    for key in ("designer", "author"):
        for c in credits:
            if getattr(c, key):
                return str(getattr(c, key))
    return ""


def _credit_paragraph(credits: Credits) -> str:
    """One source's credit as Paragraph markup: title, who made it, where it is published, its licence
    (named once, with a link) and the source's own notice, and what this edition changed."""
    head = f"<i>{escape(credits.source)}</i>" if credits.source else ""
    who = []
    if credits.designer:
        who.append(words("designed by {name}", name=escape(credits.designer)))
    if credits.author and credits.author != credits.designer:
        who.append(words("written and signed by {name}", name=escape(credits.author)))
    text = ", ".join([head] + who if head else who)
    text = (text[0].upper() + text[1:] if text and not head else text) + "."
    if credits.date:
        text += " " + words("Dated {date}.", date=escape(credits.date))
    if credits.url:
        text += " " + words("Source: {source}.", source=_link(credits.url))
    if credits.unofficial:
        text += f" <b>{escape(credits.unofficial)}</b>"
    for note in credits.notes:
        text += " " + escape(note)
    if credits.licence is not None:
        text += " " + words("Licence: {licence}.", licence=_licence_name(credits.licence))
    if credits.notice:
        stop = "" if credits.notice.rstrip().endswith((".", "!", "?")) else "."
        text += " " + words("The source’s notice reads: “{notice}”", notice=escape(credits.notice)) + stop
    if credits.changes:
        text += " " + words("Changes in this edition: {changes}", changes=escape(credits.changes))
    return text


def _licence_paragraph(licence: Licence) -> str:
    """What a shared-alike licence means for this book, in plain words."""
    text = words(
        "This book adapts material shared under {licence}, and is shared under the same licence.",
        licence=escape(licence.short or licence.name),
    )
    if licence.terms:
        text += " " + escape(licence.terms)
    return text


def _licence_name(licence: Licence) -> str:
    name = escape(licence.name) + (f" ({escape(licence.short)})" if licence.short else "")
    return name + (f", {_link(licence.url)}" if licence.url else "")


def _link(url: str) -> str:
    safe = escape(url).replace('"', "%22")
    return f'<a href="{safe}">{safe}</a>'


def colophon(styles: Styles, title: str, edition: str, credits: list[Credits], undated: bool, simulated: bool) -> Flowable:
    """The colophon, set at the foot of the page; ``simulated``: a table of the book was simulated, not counted."""
    s = styles.colophon
    paras = [Paragraph(f"<b>{escape(title)}</b>. {escape(edition or words('Aetherpress edition'))}.", s)]
    for c in credits:
        paras.append(Paragraph(_credit_paragraph(c), s))
    if undated:
        paras.append(Paragraph(words("The source texts carry no date; this edition follows them as they stand."), s))
    for lic in dict.fromkeys(c.licence for c in credits if c.licence is not None and c.licence.share_alike):
        paras.append(Paragraph(_licence_paragraph(lic), s))
    if credits:
        paras.append(
            Paragraph(
                (  # a book made from others' sources says how it treats them
                    words(
                        "The rules are retold in this edition’s own words; names, numbers and notices are as the sources "
                        "give them, and passages quoted from the sources are marked as such."
                    )
                    + " "
                    if retold(credits)
                    else ""
                )
                + words(
                    "Every chance in this book was counted exactly, hand by hand, except in the tables that say they "
                    "were simulated, and how."
                    if simulated
                    else "Every chance in this book was counted exactly, hand by hand."
                )
                + " "
                + words("Set in EB Garamond, Cinzel and Source Sans 3."),
                s,
            )
        )
    return _AtFoot(paras)


class _AtFoot(Flowable):
    """Flowables set at the foot of the frame (a colophon)."""

    def __init__(self, flowables: list[Flowable]):
        super().__init__()
        self.flowables = flowables
        self.sizes: list[tuple[float, float]] = []

    def wrap(self, avail_w, avail_h):
        self.sizes = [f.wrap(avail_w, avail_h) for f in self.flowables]
        used = sum(h + f.getSpaceAfter() for f, (_, h) in zip(self.flowables, self.sizes))
        self.width = avail_w
        self.height = max(used, avail_h - 1)
        return self.width, self.height

    def draw(self):
        used = sum(h + f.getSpaceAfter() for f, (_, h) in zip(self.flowables, self.sizes))
        y = used
        for f, (_, h) in zip(self.flowables, self.sizes):
            y -= h
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()
