"""Rich card text: ``**bold**``, ``*italic*``, inline icons (``:moons:``) and line breaks, parsed and measured.

A text is parsed into paragraphs (one per line break) of pieces: runs of
text in a weight and style, and icons.  Markers come in pairs; a lone ``*``
or ``**`` stays as written, and ``\\*``, ``\\:`` and ``\\\\`` write the
character itself.  An icon name starts with a letter (so ``10:30:45`` is
plain text).  Widths are measured with the real font metrics of each run's
face and each icon's advance, so wrapping and shrinking treat a bold word
or an icon exactly as it will be drawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import escape

from ..art.symbols import symbol_svg
from ..units import decimal

ICON_HEIGHT = 0.8  # an inline icon's height, as a fraction of the font size (about the height of capitals)
_ICON_RAISE = 0.32  # the icon's centre above the baseline, as a fraction of the font size
ICON_PAD = 0.06  # space either side of an icon, as a fraction of the font size
_TOKEN = re.compile(r"\\[\\*:]|\*\*|\*|:[A-Za-z][A-Za-z0-9_-]{0,63}:|\n|[^\\*:\n]+|.", re.S)
_MARKUP = re.compile(r"[\\*:]")
_SPACE = re.compile(r"[ \t\r\f\v]+")


@dataclass(frozen=True)
class Icon:
    """An inline icon: a symbol of the library, or a project's own SVG icon (its shapes as paths)."""

    name: str
    aspect: float = 1.0  # width / height
    colour: str | None = None  # a fixed colour (a suit's); None: the colour of the text
    symbol: str | None = None  # a library symbol's name
    body: str = ""  # a project icon: <path> elements in its own coordinates
    view: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)  # x, y, width, height of those coordinates

    def advance(self, size: float) -> float:
        return size * (ICON_HEIGHT * self.aspect + 2 * ICON_PAD)

    def svg(self, x: float, baseline: float, size: float, fill: str) -> str:
        """The icon drawn with its advance box starting at ``x`` on the line whose baseline is ``baseline``."""
        colour = self.colour or fill
        height = size * ICON_HEIGHT
        cx = x + self.advance(size) / 2
        cy = baseline - size * _ICON_RAISE
        if self.symbol is not None:
            return str(symbol_svg(self.symbol, cx, cy, height, colour))
        vx, vy, vw, vh = self.view
        scale = height / vh
        left, top = cx - vw * scale / 2, cy - height / 2
        return (
            f'<g transform="translate({_fmt(left)},{_fmt(top)}) scale({_fmt(scale, 6)}) translate({_fmt(-vx, 6)},{_fmt(-vy, 6)})"'
            f' fill="{escape(colour)}">{self.body.replace("currentColor", str(escape(colour)))}</g>'
        )


@dataclass(frozen=True)
class Piece:
    """A run of text in one weight and style, or an icon (``icon`` set, ``text`` its shortcode)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str | None = None


Paragraph = tuple[Piece, ...]


def _paired(tokens: list[str], marker: str) -> set[int]:
    """Indices of the ``marker`` tokens that pair up (a last unpaired one stays text)."""
    where = [i for i, t in enumerate(tokens) if t == marker]
    return set(where[: len(where) - len(where) % 2])


@lru_cache(maxsize=4096)
def parse(text: str) -> tuple[Paragraph, ...]:
    """The paragraphs of ``text`` as pieces; plain text (no ``*``, ``:`` or ``\\``) gives one piece per line."""
    if not _MARKUP.search(text):
        return tuple((Piece(line),) if line else () for line in text.split("\n"))
    tokens = _TOKEN.findall(text)
    bolds, italics = _paired(tokens, "**"), _paired(tokens, "*")
    paragraphs: list[Paragraph] = []
    current: list[Piece] = []
    bold = italic = False

    def add(piece_text: str) -> None:
        if current and current[-1].icon is None and (current[-1].bold, current[-1].italic) == (bold, italic):
            current[-1] = Piece(current[-1].text + piece_text, bold, italic)
        else:
            current.append(Piece(piece_text, bold, italic))

    for i, token in enumerate(tokens):
        if token == "\n":
            paragraphs.append(tuple(current))
            current = []
        elif i in bolds:
            bold = not bold
        elif i in italics:
            italic = not italic
        elif token.startswith("\\") and len(token) == 2:
            add(token[1])
        elif len(token) > 2 and token[0] == ":" == token[-1]:
            current.append(Piece(token, bold, italic, token[1:-1]))
        else:
            add(token)
    paragraphs.append(tuple(current))
    return tuple(paragraphs)


def icon_names(paragraphs: tuple[Paragraph, ...]) -> list[str]:
    """The icons a parsed text uses, each once, in order."""
    return list(dict.fromkeys(p.icon for para in paragraphs for p in para if p.icon is not None))


def visible_length(paragraphs: tuple[Paragraph, ...]) -> int:
    """Characters a reader sees: text without markers, one per icon, one per line break."""
    return sum(1 if p.icon else len(p.text) for para in paragraphs for p in para) + len(paragraphs) - 1


def truncate(paragraphs: tuple[Paragraph, ...], keep: int) -> tuple[Paragraph, ...]:
    """The first ``keep`` visible characters of a parsed text (as :func:`visible_length` counts them)."""
    out: list[Paragraph] = []
    for n, para in enumerate(paragraphs):
        if n:
            if keep <= 0:
                break
            keep -= 1
        pieces: list[Piece] = []
        for p in para:
            if keep <= 0:
                break
            if p.icon:
                pieces.append(p)
                keep -= 1
            else:
                pieces.append(Piece(p.text[:keep], p.bold, p.italic))
                keep -= min(len(p.text), keep)
        out.append(tuple(pieces))
    return tuple(out)


def words(paragraph: Paragraph) -> list[tuple[Piece, tuple[Piece, ...]]]:
    """A paragraph split at spaces into words: each a run of pieces (a word may mix faces and icons),
    with the space before it in the face that space was written in."""
    out: list[tuple[Piece, list[Piece]]] = [(Piece(" "), [])]
    for p in paragraph:
        if p.icon:
            out[-1][1].append(p)
            continue
        parts = _SPACE.split(p.text)
        for i, part in enumerate(parts):
            if i:
                out.append((Piece(" ", p.bold, p.italic), []))
            for j, chunk in enumerate(_ideographic(part)):
                if j:  # a line may break between Chinese or Japanese characters, with no space
                    out.append((Piece("", p.bold, p.italic), []))
                out[-1][1].append(Piece(chunk, p.bold, p.italic))
    return [(space, tuple(w)) for space, w in out if w]


_IDEOGRAPHIC = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# what may not begin a line (closing marks, small kana, the prolonged sound mark): it stays with the character before
_NO_LINE_START = frozenset("、。，．・：；？！ー」』）〕］｝〉》ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")


def _ideographic(text: str) -> list[str]:
    """``text`` cut where a line may break inside it: after a Chinese or Japanese character (kana or ideograph)
    unless what follows may not begin a line; text in other scripts is one piece."""
    if not _IDEOGRAPHIC.search(text):
        return [text] if text else []
    chunks, start = [], 0
    for i in range(1, len(text)):
        if (_IDEOGRAPHIC.match(text[i - 1]) or _IDEOGRAPHIC.match(text[i])) and text[i] not in _NO_LINE_START:
            chunks.append(text[start:i])
            start = i
    chunks.append(text[start:])
    return chunks


def _fmt(v: float, places: int = 3) -> str:
    return decimal(v, places)
