"""Does a template read its deck?  Then its sides are the deck's own; otherwise decks may share them.

A template sees its card (with the card's rank and suits), the style, the
boxes of the card's size and ``deck``.  One that never names ``deck``, in
itself or in any template it imports or includes, draws a card the same way
in every deck with the same style, size and suits, so the variants of a deck
can share its sides (see :mod:`.keys`).  The answer errs on the safe side:
a template that cannot be read or parsed, or that names another template
only at run time, counts as reading its deck.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
from jinja2 import meta, nodes

from ..resources.limits import LimitExceeded


def reads_deck(env: jinja2.Environment, name: str) -> bool:
    """Whether template ``name`` (or a template it loads) names the variable ``deck``."""
    return _reads(env, name, set())


def _reads(env: jinja2.Environment, name: str, seen: set[str]) -> bool:
    if name in seen:
        return False  # looked at already, further up
    seen.add(name)
    try:
        names_deck, loads = _look(env, name)
    except (jinja2.TemplateError, OSError, UnicodeError, LimitExceeded, RecursionError):
        return True  # drawing it will say what is wrong
    return names_deck or any(_reads(env, other, seen) for other in loads)


def _look(env: jinja2.Environment, name: str) -> tuple[bool, tuple[str, ...]]:
    """Whether the template itself names ``deck`` (or loads a template named only at run time), and what it loads."""
    if env.loader is None:
        return True, ()
    source, _, _ = env.loader.get_source(env, name)
    return _source_facts(env, source)


@lru_cache(maxsize=512)
def _source_facts(env: jinja2.Environment, source: str) -> tuple[bool, tuple[str, ...]]:
    """(names ``deck`` or loads a template named only at run time, the templates it loads) of a template's source:
    a function of the source, worked out once per process for each template of each search path."""
    tree = env.parse(source)
    loads = list(meta.find_referenced_templates(tree))
    dynamic = any(other is None for other in loads)
    # any use of the name counts (even of a variable of the template's own so named): a walk, not a compile
    named = any(node.name == "deck" and node.ctx == "load" for node in tree.find_all(nodes.Name))
    return named or dynamic, tuple(str(o) for o in loads if o)
