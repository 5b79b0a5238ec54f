"""How full each text box of a card is: the text-fitting code's own measure, for a deck's statistics.

A card is drawn once more (as a draft, so a text that does not fit is
measured instead of stopping the drawing), and every text its template lays
out with ``fit`` is taken at the smallest size the template allows.  There,
the text fitting says how many characters must go for it to fit (a text that
does not), or how many more it would take before it no longer fits: the text
continued with its own letters, one more at a time (found by halving).  Its
share of the box is its length against that capacity.
"""

from __future__ import annotations

from typing import Any

from ..definitions.model import Card
from ..errors import AetherpressError
from ..faces.render import FaceRenderer, LaidText
from ..faces.textfit import Fitted, TextDoesNotFit, UnknownIcon, fit_lines

_MOST_ROOM = 4096  # characters of room looked for at most (a box that takes more is a quarter full or less)


def _room(renderer: FaceRenderer, laid: LaidText) -> int:
    """Characters the text could take at its smallest size before it no longer fits (negative: to cut for it to fit)."""
    if laid.fitted.overflow:
        return -laid.fitted.overflow
    own = " ".join(line.text for line in laid.fitted.lines).strip() or "text"
    size = laid.min_size

    def laid_out(extra: int) -> Fitted | None:
        more = (" " + own) * (extra // (len(own) + 1) + 1)
        try:
            return fit_lines(
                laid.text + more[:extra],
                laid.box,
                laid.family,
                size,
                size,
                fonts=renderer.fonts,
                icons=renderer.icons,
                **laid.options,
            )
        except TextDoesNotFit:
            return None

    def fits(extra: int) -> bool:
        return laid_out(extra) is not None

    smallest = laid_out(0)
    if smallest is None:
        return 0
    guess = max(1, min(_MOST_ROOM, _guess(smallest, laid, len(own))))
    # a length that fits (low) and one that does not (high), found from the guess in steps of a quarter
    if fits(guess):
        low, high = guess, guess + max(2, guess // 4)
        while high <= _MOST_ROOM and fits(high):
            low, high = high, high + max(2, high // 4)
        if high > _MOST_ROOM:
            return _MOST_ROOM
    else:
        low, high = guess - max(2, guess // 4), guess
        while low > 0 and not fits(low):
            low, high = low - max(2, low // 4), low
        low = max(low, 0)
    while high - low > max(1, low // 50):  # to the character, or to 2 % of a large room
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _guess(fitted: Fitted, laid: LaidText, length: int) -> int:
    """Roughly how many characters more the box takes at this size: its lines left and the last line's end."""
    lines = fitted.lines
    if not lines or length == 0:
        return 8
    width = sum(line.width for line in lines) / length or 1.0  # an average character
    spacing = lines[1].y - lines[0].y if len(lines) > 1 else fitted.size * float(laid.options.get("leading", 1.2))
    more_lines = int((fitted.frame.h - fitted.box.h) / spacing) if laid.options.get("wrap", True) else 0
    if laid.options.get("max_lines") is not None:
        more_lines = min(more_lines, int(laid.options["max_lines"]) - len(lines))
    return int((max(0, more_lines) * fitted.frame.w + fitted.frame.w - lines[-1].width) / width)


def card_room(renderer: FaceRenderer, card: Card) -> list[dict[str, Any]]:
    """Each text of ``card``'s face as ``renderer`` (a draft one, from the project context) lays it out: its field,
    length, the sizes it may take and took, and its room (see the module's text).  A card that cannot be drawn has
    none (its problem is shown on its own page)."""
    try:
        renderer.face(card)
    except AetherpressError:
        return []
    out = []
    seen = set()
    for laid in renderer.laid:
        same = (laid.field, laid.text, laid.box.w, laid.box.h)  # a corner index drawn twice is one text
        if not laid.text.strip() or same in seen:
            continue
        seen.add(same)
        try:
            room = _room(renderer, laid)
        except (TextDoesNotFit, UnknownIcon, ValueError, KeyError, TypeError):
            continue
        length = len(" ".join(line.text for line in laid.fitted.lines))
        out.append(
            {
                "field": laid.field,
                "length": length,
                "room": room,
                "full": length / max(1, length + room),
                "size": round(laid.fitted.size, 2),
                "smallest": round(laid.min_size, 2),
            }
        )
    return out
