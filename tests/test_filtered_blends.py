"""A blend mode on an element that is also filtered prints blended, and counts as the group it is drawn in."""

from __future__ import annotations

import pytest

from generator.errors import AetherpressError
from generator.faces.sanitise import MAX_NESTING
from generator.faces.svg import parse_svg
from generator.render.pagepng import render_pages
from generator.render.vector import side_pdf

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="30mm" viewBox="0 0 60 30">'
SOFT = '<defs><filter id="soft"><feGaussianBlur stdDeviation="0.2"/></filter></defs>'


def _centre(style: str, wrapped_in: str = "") -> tuple[int, int, int]:
    """The colour the print renderer gives the middle of a yellow square drawn with ``style`` over dark blue."""
    square = f'<rect x="20" y="5" width="20" height="20" fill="#f4d35e" style="{style}"/>'
    if wrapped_in:
        square = f'<g style="{wrapped_in}">{square}</g>'
    svg = f'{HEAD}{SOFT}<rect width="60" height="30" fill="#1d4e89"/>{square}</svg>'
    image = next(render_pages(side_pdf(svg, "test.svg"), (240, 120)))
    return image.getpixel((120, 60))


@pytest.mark.parametrize("mode", ["multiply", "screen", "difference"])
def test_a_filtered_element_blends_as_it_does_unfiltered(mode):
    plain = _centre(f"mix-blend-mode:{mode}")
    assert plain != _centre("")  # the mode changes the colour at all
    assert max(abs(a - b) for a, b in zip(_centre(f"mix-blend-mode:{mode};filter:url(#soft)"), plain)) <= 3
    grouped = _centre("filter:url(#soft)", wrapped_in=f"mix-blend-mode:{mode}")
    assert max(abs(a - b) for a, b in zip(_centre("", wrapped_in=f"mix-blend-mode:{mode};filter:url(#soft)"), grouped)) <= 3


def _nested(groups: int, style: str) -> str:
    inner = f'<rect width="10" height="10" style="{style}"/>'
    return f"{HEAD}{SOFT}" + "<g>" * groups + inner + "</g>" * groups + "</svg>"


def test_a_filtered_blended_element_counts_as_one_more_group_against_the_print_renderers_limit():
    parse_svg(_nested(MAX_NESTING, "mix-blend-mode:multiply"), "test.svg")
    parse_svg(_nested(MAX_NESTING, "filter:url(#soft)"), "test.svg")
    parse_svg(_nested(MAX_NESTING - 1, "mix-blend-mode:multiply;filter:url(#soft)"), "test.svg")
    with pytest.raises(AetherpressError, match=f"nested more than {MAX_NESTING} deep"):
        parse_svg(_nested(MAX_NESTING, "mix-blend-mode:multiply;filter:url(#soft)"), "test.svg")
    # what the limit is for: the renderer draws the side it passes, the group it adds included
    side_pdf(_nested(MAX_NESTING - 1, "mix-blend-mode:multiply;filter:url(#soft)"), "test.svg")
