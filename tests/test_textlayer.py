"""Which texts of a side stay text in a flattened (PDF/X-1a) file: those nothing transparent touches."""

from __future__ import annotations

from lxml import etree

from generator.render.textlayer import MAX_PAINTED, split_text

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'


def texts(svg: str) -> list[str]:
    root = etree.fromstring(svg.encode())
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_a_text_over_transparency_is_set_over_the_flattened_layer_with_its_groups_and_clip():
    svg = (
        HEAD + '<defs><clipPath id="c"><rect width="9" height="9"/></clipPath></defs>'
        '<rect width="10" height="10" fill="#fc0" opacity="0.5"/>'
        '<g transform="translate(1 1)" clip-path="url(#c)"><rect width="2" height="2"/><text x="1" y="5">Name</text></g></svg>'
    )
    under, over = split_text(svg) or ("", "")
    assert texts(under) == [] and texts(over) == ["Name"]
    root = etree.fromstring(over.encode())
    (group,) = root.iter("{http://www.w3.org/2000/svg}g")
    assert group.get("transform") == "translate(1 1)" and group.get("clip-path") == "url(#c)"
    assert [etree.QName(e).localname for e in group] == ["text"]  # the group's square stays in the layer under it
    assert 'opacity="0.5"' in under and 'opacity="0.5"' not in over


def test_texts_that_are_see_through_or_under_something_that_may_be_stay_in_the_flattened_layer():
    for body in (
        '<text x="1" y="5" opacity="0.8">Ghost</text>',
        '<g style="opacity:0.5"><text x="1" y="5">Ghost</text></g>',
        '<text x="1" y="5" fill="url(#g)">Ghost</text>',
        '<text x="1" y="5"><tspan fill-opacity="0.5">Ghost</tspan></text>',
        '<text x="1" y="5" style="mix-blend-mode:multiply">Ghost</text>',
        '<text x="1" y="5">Ghost</text><rect width="3" height="3" fill-opacity="0.4"/>',  # painted over later
        '<text x="1" y="5">Ghost</text><image width="3" height="3" href="data:image/png;base64,AA=="/>',
        '<text x="1" y="5">Ghost</text><rect x="0" y="3" width="6" height="3" fill="#123"/>',  # an opaque banner over it
        '<text x="1" y="5">Ghost</text><g filter="url(#f)"><rect x="8" y="8" width="1" height="1"/></g>',  # a filter
    ):
        assert split_text(HEAD + body + "</svg>") is None, body


def test_a_text_of_many_positions_is_measured_by_its_least_and_greatest_and_many_shapes_keep_a_side_whole():
    many = " ".join(str(n % 10) for n in range(5000))
    svg = HEAD + f'<text x="{many}" y="{many}" font-size="0.1">{"A" * 5000}</text></svg>'
    under, over = split_text(svg) or ("", "")
    assert texts(over) and not texts(under)
    dots = "".join(f'<circle cx="{n % 10}" cy="{n // 10 % 10}" r="0.01" opacity="0.5"/>' for n in range(MAX_PAINTED + 1))
    assert split_text(HEAD + '<text x="1" y="1">A</text>' + dots + "</svg>") is None  # past the bound: kept whole


def test_a_stylesheet_that_may_make_anything_transparent_keeps_the_side_whole():
    svg = HEAD + "<style>.t { opacity: 0.5 }</style><text class='t' x='1' y='5'>Ghost</text></svg>"
    assert split_text(svg) is None


def test_the_layers_together_hold_every_text_once():
    svg = (
        HEAD + '<rect width="10" height="10" opacity="0.3"/><text x="1" y="3">Early</text>'
        '<circle cx="5" cy="5" r="2" fill-opacity="0.5"/><text x="1" y="8">Late</text></svg>'
    )
    under, over = split_text(svg) or ("", "")
    assert texts(under) == ["Early"] and texts(over) == ["Late"]  # "Early" may lie under the translucent circle


def test_a_translucent_shape_painted_later_elsewhere_leaves_a_text_as_text():
    svg = (
        HEAD + '<text x="1" y="2" font-size="2">Name</text><text x="1" y="8.5" font-size="2">Rules</text>'
        '<rect x="0" y="7" width="10" height="3" fill="#fff" opacity="0.5"/></svg>'  # a veil over the lower part
    )
    under, over = split_text(svg) or ("", "")
    assert texts(over) == ["Name"] and texts(under) == ["Rules"]
    turned = svg.replace('<rect x="0" y="7"', '<rect transform="translate(0 -6)" x="0" y="7"')  # now over the name
    under, over = split_text(turned) or ("", "")
    assert texts(over) == ["Rules"] and texts(under) == ["Name"]
