"""The Markdown element tree to reportlab platypus flowables.

Supported blocks: headings (#–####), paragraphs, lists (nested, bulleted and
numbered), tables, block quotes, horizontal rules and images; inline:
emphasis, strong, code, line breaks and links.  Anything else stops the
build with an error naming the source line: no text is ever dropped.

Images name what to draw by their address, ``KIND:PATH?QUERY``: the kinds
are the registry's (:mod:`.blocks`: ``card:``, ``back:``, ``hand:``,
``chart:`` ...).  ``?w=16`` sets a picture's width in millimetres.  A paragraph holding only images shows them in
a row with their alt texts as captions.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, unquote

from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    HRFlowable,
    ListFlowable,
    ListItem,
    Spacer,
    Table,
    TableStyle,
)

from ..errors import AetherpressError
from ..faces.icons import deck_icons
from .blocks import BLOCK_KINDS, PictureRequest, kinds_said
from .cardart import CardLibrary
from .inlineicons import BOOK_ICONS
from .keeping import INTRODUCTION, SHORT_TABLE, BookTable, Stack, Whole, unwrapped
from .markup import Inline, SourceMap, escape, last_words_bound, plain_text, slug
from .paragraphs import Paragraph
from .scripts import list_from_the_right, mirrored, right_to_left
from .style import SANS, SANS_BOLD, SERIF, Styles
from .widths import balanced_rows, fit_columns
from .words import language, spaced

_DEFAULT_CARD_MM = 16.0
MIN_PICTURE_MM, MAX_PICTURE_MM = 3.0, 180.0
_BREAKS = re.compile(r"[ \t\r\n]+")  # where a line may break: any space but a no-break one
_BLOCK_TAGS = {"p", "ul", "ol", "blockquote", "table", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "div"}


def _alone(img: ET.Element) -> bool:
    """Is the image of a block kind set by itself, as wide as the text (a chart)?"""
    kind = BLOCK_KINDS.get(img.get("src", "").partition(":")[0])
    return kind is not None and kind.alone


class Heading(Paragraph):
    """A heading: bookmarked where it stands, in the outline, and reported for the contents."""

    def __init__(self, text_markup: str, style, level: int, title: str, key: str):
        super().__init__(text_markup, style)
        self.level = level
        self.title = title
        self.key = key

    def draw(self):
        self.canv.bookmarkHorizontal(self.key, 0, self.height + self.style.fontSize * 0.4)
        self.canv.addOutlineEntry(self.title, self.key, level=self.level, closed=self.level > 0)
        super().draw()


class Converter:
    """Turns one book's element tree into flowables."""

    def __init__(
        self,
        styles: Styles,
        library: CardLibrary,
        source: SourceMap,
        chart_for: Callable[[str, str | None, str | None, list[str], ET.Element], Flowable],
    ):
        self.s = styles
        self.library = library
        self.source = source
        self.chart_for = chart_for
        self.anchors: set[str] = set()
        self.icons = deck_icons(library.project, ())
        self.inline = Inline(source, self.anchors, styles.link_colour, SANS, self.icons)
        self.headings: list[tuple[int, str, str]] = []
        self._last_level = -1

    # --- entry point --------------------------------------------------------------
    def convert(self, root: ET.Element) -> list[Flowable]:
        keys: dict[str, int] = {}
        for element in root.iter():
            if element.tag in ("h1", "h2", "h3", "h4"):
                base = slug(plain_text(element))
                keys[base] = keys.get(base, 0) + 1
                key = base if keys[base] == 1 else f"{base}-{keys[base]}"
                element.set("data-key", key)
                self.anchors.add(key)
        story: list[Flowable] = []
        token = BOOK_ICONS.set(self.icons)
        try:
            for child in root:
                flow = self.block(child, self.s.measure)
                if story and _keeps_with_next(story[-1]) and flow and isinstance(flow[0], CondPageBreak):
                    flow = flow[1:]  # a heading or an introduction keeps with what follows: no page break between them
                story.extend(flow)
        finally:
            BOOK_ICONS.reset(token)
        return self.keep_introductions(story)

    def keep_introductions(self, story: list[Flowable]) -> list[Flowable]:
        """A heading stays with the first rows of the table or chart it introduces: the one that follows it
        after text shorter than :data:`.keeping.INTRODUCTION` of a page (a spell's heading, a line on it, its table)."""
        frame_h = self.s.page[1] - self.s.margins[2] - self.s.margins[3]
        kept: list[Flowable] = []
        index = 0
        while index < len(story):
            flowable = story[index]
            kept.append(flowable)
            index += 1
            if not isinstance(flowable, Heading):
                continue
            between: list[Flowable] = []
            height = 0.0
            end = index
            while end < len(story) and not isinstance(story[end], Heading):
                inner = unwrapped(story[end])
                if isinstance(inner, BookTable):
                    break
                if isinstance(story[end], (Paragraph, Spacer)):  # an introduction is text, measured here
                    between.append(story[end])
                    height += story[end].wrap(self.s.measure, frame_h)[1] + story[end].getSpaceAfter()
                elif not isinstance(story[end], CondPageBreak):
                    break
                end += 1
            if end < len(story) and isinstance(unwrapped(story[end]), BookTable) and height < INTRODUCTION * frame_h:
                for f in [flowable, *between]:
                    f.keepWithNext = 1
                kept.extend(between)  # without the page breaks a heading or a chart asks for: they go together
                index = end
        return kept

    # --- blocks -------------------------------------------------------------------
    def block(self, el: ET.Element, width: float) -> list[Flowable]:
        tag = el.tag
        if tag in ("h1", "h2", "h3", "h4"):
            return self.heading(el)
        if tag == "p":
            return self.paragraph(el, width, self.s.body)
        if tag in ("ul", "ol"):
            return [self.list_block(el, width, depth=0)]
        if tag == "table":
            return self.table(el, width)
        if tag == "blockquote":
            return [self.blockquote(el, width)]
        if tag == "hr":
            return [
                Spacer(1, 4),
                HRFlowable(width="40%", thickness=0.6, color=self.s.rule_light, spaceBefore=4, spaceAfter=10, hAlign="CENTER"),
            ]
        if tag in ("h5", "h6"):
            raise self.source.error(el, f"heading level {tag[1]} is not supported (use # to ####)")
        if tag == "pre":
            raise self.source.error(el, "code blocks are not supported in rulebooks (indented text or ``` fences)")
        raise self.source.error(el, f"unsupported Markdown element <{tag}>")

    def heading(self, el: ET.Element) -> list[Flowable]:
        level = int(el.tag[1]) - 1
        level = min(level, self._last_level + 1)  # the outline cannot skip a level
        self._last_level = level
        style = (self.s.h1, self.s.h2, self.s.h3, self.s.h4)[int(el.tag[1]) - 1]
        title = plain_text(el)
        key = el.get("data-key", "")
        self.headings.append((level, title, key))
        flow: list[Flowable] = []
        # room enough left on the page for the heading and a start under it
        flow.append(CondPageBreak(self.s.page[1] * {"h1": 0.3, "h2": 0.18}.get(el.tag, 0.1)))
        flow.append(Heading(last_words_bound(self.inline.markup(el)), style, level, title, key))
        return flow

    def paragraph(self, el: ET.Element, width: float, style) -> list[Flowable]:
        children = list(el)
        if (
            children
            and all(c.tag == "img" for c in children)
            and not (el.text or "").strip()
            and not any((c.tail or "").strip() for c in children)
        ):
            return self.images(children, el, width)
        if plain_text(el).endswith(":"):  # an introduction stays with what it introduces
            style = _keep_with_next(style)
        return [Paragraph(self.inline.markup(el), style)]

    def list_block(self, el: ET.Element, width: float, depth: int) -> Flowable:
        ordered = el.tag == "ol"
        items = []
        indent = self.s.body.fontSize * 1.3
        for li in el:
            if li.tag != "li":
                raise self.source.error(li, f"unexpected <{li.tag}> in a list")
            items.append(ListItem(self.list_item(li, width - indent, depth)))
        start = el.get("start")
        kwargs: dict[str, Any] = {
            "leftIndent": indent,
            "bulletFontName": SERIF,
            "bulletFontSize": self.s.body.fontSize,
            "spaceBefore": 0,
            "spaceAfter": self.s.body.spaceAfter * (1 if depth == 0 else 0.3),
        }
        if ordered:
            first = int(start) if start else 1
            widest = max(stringWidth(f"{n}.", SERIF, self.s.body.fontSize) for n in range(first, first + len(items)))
            indent = widest + self.s.body.fontSize * 0.45
            kwargs.update(
                bulletType="1", bulletFormat="%s.", start=first, leftIndent=indent, bulletDedent=indent, bulletAlign="left"
            )
        else:
            kwargs.update(bulletType="bullet", start="•" if depth == 0 else "–")
        return ListFlowable(items, **(list_from_the_right(kwargs) if right_to_left(language()) else kwargs))

    def list_item(self, li: ET.Element, width: float, depth: int) -> list[Flowable]:
        flow: list[Flowable] = []
        inline = ET.Element("span")
        inline.text = li.text
        for child in li:
            if child.tag in _BLOCK_TAGS:
                if plain_text(inline) or len(inline):
                    flow.append(Paragraph(self.inline.markup(inline, li), self.s.list_item))
                inline = ET.Element("span")
                if child.tag in ("ul", "ol"):
                    flow.append(self.list_block(child, width, depth + 1))
                elif child.tag == "p":
                    flow.extend(self.paragraph(child, width, self.s.list_item))
                else:
                    flow.extend(self.block(child, width))
                inline.text = child.tail
            else:
                inline.append(child)
        if (inline.text or "").strip() or len(inline):
            flow.append(Paragraph(self.inline.markup(inline, li), self.s.list_item))
        return flow

    def blockquote(self, el: ET.Element, width: float) -> Flowable:
        """A quotation: set in italic with a rule before it; a closing paragraph that starts with a dash is its credit."""
        inner: list[Flowable] = []
        for child in el:
            if child.tag == "p":
                inner.extend(self.paragraph(child, width - 14, self.s.quote))
            else:
                inner.extend(self.block(child, width - 14))
        box = Table([[inner]], colWidths=[width - 6], hAlign="RIGHT")
        box.setStyle(
            TableStyle(
                [
                    ("LINEBEFORE", (0, 0), (0, -1), 1.6, self.s.rule_light),
                    ("FONTNAME", (0, 0), (-1, -1), SANS),
                    ("LEFTPADDING", (0, 0), (-1, -1), 8),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 1),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return Stack([box, Spacer(1, self.s.body.spaceAfter)], hAlign="RIGHT")

    # --- images -------------------------------------------------------------------
    def picture(self, img: ET.Element, block: ET.Element, default_w: float = _DEFAULT_CARD_MM) -> Flowable:
        try:
            return self._picture(img, block, default_w)
        except AetherpressError as exc:  # name the source line of the image
            if all(p.file == self.source.file and p.line is None for p in exc.problems):
                raise AetherpressError([self.source.problem(block, p.message) for p in exc.problems]) from None
            raise

    def _picture(self, img: ET.Element, block: ET.Element, default_w: float) -> Flowable:
        src = img.get("src", "")
        scheme, _, rest = src.partition(":")
        path, _, query = rest.partition("?")
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        try:
            width = float(params.get("w", default_w))
        except ValueError:
            raise self.source.error(block, f"image '{src}': w= must be a width in millimetres") from None
        if not MIN_PICTURE_MM <= width <= MAX_PICTURE_MM:  # NaN fails both
            raise self.source.error(
                block, f"image '{src}': w= must be {MIN_PICTURE_MM:g} to {MAX_PICTURE_MM:g} mm, not {params.get('w', default_w)}"
            )
        kind = BLOCK_KINDS.get(scheme)
        if kind is None:
            raise self.source.error(block, f"image '{src}': use {kinds_said()} (see the README)")
        request = PictureRequest(src, unquote(path), params, width, block, self.library, self.source, self.chart_for)
        return kind.draw(request)

    def images(self, imgs: list[ET.Element], block: ET.Element, width: float) -> list[Flowable]:
        if len(imgs) == 1 and _alone(imgs[0]):
            chart = self.picture(imgs[0], block)
            parts: list[Flowable] = [CondPageBreak(self.s.page[1] * 0.2)]
            if getattr(chart, "legend", ""):  # what the letters of its examples stand for, kept with its start
                parts.append(Paragraph(escape(chart.legend), _keep_with_next(self.s.caption)))
            return [*parts, chart, Spacer(1, self.s.body.spaceAfter * 1.5)]
        pictures = [self.picture(img, block) for img in imgs]
        captions = [img.get("alt", "").strip() for img in imgs]
        if all("stack" in parse_qs(img.get("src", "").partition("?")[2], keep_blank_values=True) for img in imgs):
            return self.stacked(pictures, captions, width)
        gap = 2.5 * mm
        cap = self.s.caption
        widths = [
            max(p.wrap(width, 1e6)[0], max([stringWidth(w, cap.fontName, cap.fontSize) for w in c.split()] + [0])) + gap
            for p, c in zip(pictures, captions)
        ]
        rows = balanced_rows(widths, width)
        flow: list[Flowable] = []
        for row in rows:
            cells = [[pictures[i]] for i in row]
            data = [cells]
            has_caption = any(captions[i] for i in row)
            if has_caption:
                data.append([Paragraph(escape(captions[i]), self.s.caption) for i in row])
            table = Table(data, colWidths=[widths[i] for i in row], hAlign="CENTER")
            table.setStyle(
                TableStyle(
                    [
                        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                        ("VALIGN", (0, 0), (-1, -1), "TOP"),
                        ("FONTNAME", (0, 0), (-1, -1), SANS),
                        ("LEFTPADDING", (0, 0), (-1, -1), gap / 2),
                        ("RIGHTPADDING", (0, 0), (-1, -1), gap / 2),
                        ("TOPPADDING", (0, 0), (-1, -1), 1),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                    ]
                )
            )
            flow.append(table)
        return [Whole(Stack(flow)), Spacer(1, self.s.body.spaceAfter)]

    def stacked(self, pictures: list[Flowable], captions: list[str], width: float) -> list[Flowable]:
        """Pictures one under another, each with its caption beside it (``?stack`` on every picture of a
        paragraph): examples that the text reads from the top down, "each beating the one below it"."""
        gap = 2.5 * mm
        picture_w = max(p.wrap(width, 1e6)[0] for p in pictures) + gap
        text_w = min(width - picture_w, width * 0.45)
        rows = [[p, Paragraph(escape(c), self.s.body)] for p, c in zip(pictures, captions)]
        table = Table(rows, colWidths=[picture_w, text_w], hAlign="CENTER")
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("FONTNAME", (0, 0), (-1, -1), SANS),
                    ("LEFTPADDING", (0, 0), (-1, -1), gap / 2),
                    ("RIGHTPADDING", (0, 0), (-1, -1), gap / 2),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                    ("LINEBELOW", (0, 0), (-1, -2), 0.25, self.s.rule_light),
                ]
            )
        )
        return [Whole(Stack([table])), Spacer(1, self.s.body.spaceAfter)]

    # --- tables -------------------------------------------------------------------
    def cell(self, el: ET.Element, head: bool) -> tuple[Any, float, float]:
        """A cell's content with its natural and minimum widths (points)."""
        style = self.s.cell_head if head else self.s.cell
        align = (el.get("align") or "").lower() or _style_align(el.get("style", ""))
        if align in ("right", "center"):
            style = style.clone(style.name + "-" + align, alignment=TA_RIGHT if align == "right" else TA_CENTER)
        imgs = [c for c in el if c.tag == "img"]
        if imgs:
            rest = ET.Element("span")
            rest.text = el.text
            pictures = []
            for child in el:
                if child.tag == "img":
                    pictures.append(self.picture(child, el, default_w=14.0))
                    if rest.text is None and len(rest) == 0:
                        rest.text = child.tail
                    elif len(rest):
                        rest[-1].tail = (rest[-1].tail or "") + (child.tail or "")
                    else:
                        rest.text = (rest.text or "") + (child.tail or "")
                else:
                    rest.append(child)
            flow: list[Any] = list(pictures)
            natural = max(p.wrap(1e6, 1e6)[0] for p in pictures)
            minimum = natural
            if plain_text(rest):
                text = self.inline.markup(rest, el)
                flow.append(Paragraph(text, style))
                natural = max(natural, stringWidth(plain_text(rest), style.fontName, style.fontSize))
            return flow, natural, minimum
        text = self.inline.markup(el)
        shown = spaced(plain_text(el))
        words = _BREAKS.split(shown) or [""]  # a figure bound by no-break spaces ("1 in 58,905") is one word: it never wraps
        font = SANS_BOLD if head or "<b>" in text else style.fontName
        natural = stringWidth(shown, font, style.fontSize)
        minimum = max(stringWidth(w, font, style.fontSize) for w in words)
        return Paragraph(text, style), natural, minimum

    def table(self, el: ET.Element, width: float) -> list[Flowable]:
        rows: list[list[Any]] = []
        naturals: list[list[float]] = []
        minimums: list[list[float]] = []
        head_rows = 0
        for section in el:
            if section.tag not in ("thead", "tbody"):
                raise self.source.error(section, f"unexpected <{section.tag}> in a table")
            for tr in section:
                row, nat, mins = [], [], []
                for td in tr:
                    content, n, m = self.cell(td, td.tag == "th")
                    row.append(content)
                    nat.append(n)
                    mins.append(m)
                rows.append(row)
                naturals.append(nat)
                minimums.append(mins)
                if section.tag == "thead":
                    head_rows += 1
        ncols = max(len(r) for r in rows)
        for row_cells, row_nat, row_min in zip(rows, naturals, minimums):
            while len(row_cells) < ncols:
                row_cells.append("")
                row_nat.append(0.0)
                row_min.append(0.0)
        pad = 2 * self.s.cell_pad + 0.5
        natural_widths = [max(n[c] for n in naturals) + pad for c in range(ncols)]
        minimum_widths = [max(m[c] for m in minimums) + pad for c in range(ncols)]
        widths = fit_columns(natural_widths, minimum_widths, width)  # every table as wide as the text
        commands = [
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), self.s.cell_pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), self.s.cell_pad),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ("LINEABOVE", (0, 0), (-1, 0), 0.8, self.s.rule_dark),
            ("LINEBELOW", (0, -1), (-1, -1), 0.8, self.s.rule_dark),
            ("FONTNAME", (0, 0), (-1, -1), self.s.cell.fontName),
        ]
        if head_rows:
            commands.append(("LINEBELOW", (0, head_rows - 1), (-1, head_rows - 1), 0.5, self.s.rule_dark))
            commands.append(("VALIGN", (0, 0), (-1, head_rows - 1), "BOTTOM"))
        if len(rows) > head_rows + 1:
            commands.append(("LINEBELOW", (0, head_rows), (-1, -2), 0.25, self.s.rule_light))
        side = "LEFT"
        if right_to_left(language()):  # the first column at the right
            rows, widths, commands = mirrored(rows, widths, commands)
            side = "RIGHT"
        table = BookTable(rows, colWidths=widths, repeatRows=head_rows, hAlign=side)
        table.setStyle(TableStyle(commands))
        after = Spacer(1, self.s.body.spaceAfter)
        body = len(rows) - head_rows
        return [Whole(table, unbroken=body <= SHORT_TABLE) if len(rows) <= 16 else table, after]


def _keeps_with_next(flowable: Flowable) -> bool:
    return bool(getattr(flowable, "keepWithNext", 0) or getattr(getattr(flowable, "style", None), "keepWithNext", 0))


def _keep_with_next(style):
    if not getattr(style, "keepWithNext", 0):
        style = style.clone(style.name + "-keep", keepWithNext=1)
    return style


def _style_align(style: str) -> str:
    for part in style.split(";"):
        key, _, value = part.partition(":")
        if key.strip() == "text-align":
            return value.strip()
    return ""
