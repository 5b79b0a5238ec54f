"""Jinja's internals, the one place they are used.

- ``Environment._parse``, the step between source and compiled code, where an
  environment may rewrite the template's tree (:class:`RewritingEnvironment`);
- what an undefined value was looked up as and in (``Undefined._undefined_*``,
  attributes Jinja's own undefined types read).
"""

from __future__ import annotations

from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

__all__ = ["PRIVATE_NAMES", "RewritingEnvironment", "looked_up"]

# (owner, name): every private member used below, checked against the installed Jinja by a test
PRIVATE_NAMES: tuple[tuple[Any, str], ...] = (
    (jinja2.Environment, "_parse"),
    (jinja2.Undefined, "_undefined_hint"),
    (jinja2.Undefined, "_undefined_obj"),
    (jinja2.Undefined, "_undefined_name"),
)


class RewritingEnvironment(ImmutableSandboxedEnvironment):
    """The immutable sandbox, each template's source passed to :meth:`checked` before it is parsed and its tree
    through :meth:`rewritten` before it is compiled."""

    def checked(self, source: str, name: str | None, filename: str | None) -> None:
        """Raise if the source must not reach the parser."""

    def rewritten(self, tree: nodes.Template) -> nodes.Template:
        return tree

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        self.checked(source, name, filename)
        return self.rewritten(super()._parse(source, name, filename))


def looked_up(value: jinja2.Undefined) -> tuple[str | None, Any, Any]:
    """An undefined value's hint (None unless Jinja wrote its own message), the value it was looked up in and the
    name it was looked up as."""
    return value._undefined_hint, value._undefined_obj, value._undefined_name
