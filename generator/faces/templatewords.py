"""Text a card template writes itself, not from card data: ``{{ _("Twofold") }}``.

A template marks such a text by passing it to ``_`` (the name gettext gives
it).  ``translations extract`` finds every ``_("...")`` of a deck's templates
and the templates they import or include, and puts it in the deck folder's
catalogue under the context ``template``; an edition's renderer gives each its
translation from that catalogue (the text as written where there is none).
Only a text written out in quotes can be found: ``_(card.name)`` translates
nothing, since card data is translated as card data.
"""

from __future__ import annotations

from collections.abc import Iterator

from jinja2 import meta, nodes

from ..definitions.languages import BOX_WORDS, TEMPLATE_WORDS, Text
from ..definitions.model import Deck
from ..definitions.styles import STYLE_KEYS
from ..definitions.templates import TEMPLATE_SUFFIX
from ..errors import display_path
from ..project import Project
from ..resources.limits import LimitExceeded
from .sandbox import environment, template_error, template_path

SAY = "_"  # the name a template calls to have a text it writes translated


def _deck_templates(deck: Deck) -> list[str]:
    names = [deck.template, deck.back_template, *deck.templates.values(), *deck.backs.values()]
    return [name + TEMPLATE_SUFFIX for name in dict.fromkeys(names)]


def _said(tree: nodes.Template) -> Iterator[tuple[str, int]]:
    for call in tree.find_all(nodes.Call):
        if isinstance(call.node, nodes.Name) and call.node.name == SAY and call.args:
            first = call.args[0]
            if isinstance(first, nodes.Const) and isinstance(first.value, str) and first.value.strip():
                yield first.value, call.lineno


def style_texts(deck: Deck) -> list[Text]:
    """The words of the deck's style (its ``text`` keys, such as ``back_title``), which a template prints through
    ``_()`` (``{{ fit("back title", _(style.back_title), ...) }}``): translated like the templates' own words."""
    out = []
    for name, key in STYLE_KEYS.items():
        value = deck.style.get(name)
        if key.kind == "text" and isinstance(value, str) and value.strip():
            out.append(Text(TEMPLATE_WORDS, value, f"style key '{name}': '{value}'", deck.source))
    return out


def box_texts(deck: Deck) -> list[Text]:
    """The words a tuck box prints of its own (its label's count line, the sheet's instructions)."""
    return [Text(TEMPLATE_WORDS, text, f"the tuck box: '{text}'", deck.source) for text in BOX_WORDS]


def template_texts(project: Project, deck: Deck) -> list[Text]:
    """Every text the deck's templates (and those they import or include) write themselves, in the order met, then
    the words of its style and its tuck box."""
    import jinja2

    env = environment(project)
    loader = env.loader
    assert loader is not None
    texts: list[Text] = []
    waiting, seen = _deck_templates(deck), set()
    while waiting:
        name = waiting.pop(0)
        if name in seen:
            continue
        seen.add(name)
        try:
            source, file, _ = loader.get_source(env, name)
            tree = env.parse(source, name, file)
        except jinja2.TemplateNotFound:
            continue  # told where the deck is checked or drawn
        except (jinja2.TemplateSyntaxError, LimitExceeded, RecursionError, MemoryError, OSError, UnicodeError) as exc:
            path = template_path(env, name)  # told as a build tells it, the card being drawn aside
            failed = "template cannot be read"
            raise template_error(exc, display_path(path) if path else name, None, "template", failed) from None
        shown = display_path(file) if file else name
        for text, line in _said(tree):
            place = f"template '{name.removesuffix(TEMPLATE_SUFFIX)}': '{text}'"
            texts.append(Text(TEMPLATE_WORDS, text, place, shown, line))
        waiting += [n for n in meta.find_referenced_templates(tree) if isinstance(n, str)]
    return texts + style_texts(deck) + box_texts(deck)
