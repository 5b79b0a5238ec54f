"""The allow-list is the test matrix: every entry drawn on a card, the browser against every print path, ≤ 1 % off.

The matrix itself is in :mod:`tests.matrix`; ``python tests/bench/bench_matrix.py`` prints it as a table.
Here: that every entry of the allow-list is shown by a specimen that really uses it (so an entry added
there joins the matrix with no other edit), that every picture mode can be made, and the matrix on every path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lxml import etree

from generator.resources.allowlist import allow_list
from tests.fidelity import Browser, browser_available
from tests.matrix import PATHS, Matrix, matrix_project, picture_file, specimens

LIMIT = 0.01
_SVG = "http://www.w3.org/2000/svg"


def _parsed(specimen: str) -> etree._Element:
    text = specimen.replace("{picture:", "data:image/png;base64,{")  # a placeholder is an address
    wrapped = f'<svg xmlns="{_SVG}" xmlns:xlink="http://www.w3.org/1999/xlink">{text}</svg>'
    return etree.fromstring(wrapped.encode())


def _uses(root: etree._Element, kind: str, name: str) -> bool:
    """Whether the parsed specimen ``root`` uses the entry (an element, an attribute, a CSS property)."""
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    if kind == "element":
        return any(etree.QName(el).localname == name for el in elements[1:])
    attributes = {etree.QName(k).localname for el in elements for k in el.attrib}
    if kind == "attribute":
        return name in attributes
    css = " ".join(
        [el.get("style") or "" for el in elements] + [el.text or "" for el in elements if etree.QName(el).localname == "style"]
    )
    return name in attributes or f"{name}:" in css.replace(" :", ":")


def test_every_entry_of_the_allow_list_is_shown_by_a_specimen_that_uses_it():
    listed = allow_list()
    problems = []
    for entry in listed.entries:
        if entry.kind == "extra":
            continue
        seen: set[str] = set()
        holder = entry
        while holder.specimen is None and holder.shown_by and holder.key not in seen:
            seen.add(holder.key)
            holder = listed.entry(holder.shown_by)
        if holder.specimen is None:
            problems.append(f"{entry.key}: no specimen shows it")
        elif not _uses(_parsed(holder.specimen), entry.kind, entry.name):
            problems.append(f"{entry.key}: the specimen of {holder.key} does not use it")
    assert problems == []
    assert len(specimens()) == len([e for e in listed.entries if e.specimen]) + len(listed.modes)


def test_every_picture_mode_is_made_as_its_description_says():
    from PIL import Image

    for mode, spec in allow_list().modes.items():
        _name, data = picture_file(mode, spec)
        assert data, mode
        if spec["format"] == "svg":
            assert b"<svg" in data
            continue
        import io

        with Image.open(io.BytesIO(data)) as image:
            assert image.format.lower() == {"jpeg": "jpeg"}.get(spec["format"], spec["format"]), mode
            if spec.get("alpha") in ("soft", "palette", "key"):
                assert "A" in image.mode or "transparency" in image.info, mode


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    if not browser_available():
        pytest.skip("chromium and chromium-driver are not installed")
    folder = tmp_path_factory.mktemp("matrix")
    browser = Browser()
    yield Matrix(browser, matrix_project(folder), folder / "out")
    browser.close()


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS)
def test_every_specimen_prints_on_every_path_as_the_browser_draws_it(matrix, path):
    keep = Path(os.environ["AETHERPRESS_FIDELITY_PICTURES"]) if os.environ.get("AETHERPRESS_FIDELITY_PICTURES") else None
    found = matrix.compare(path, keep)
    assert len(found) == len(specimens())
    over = {name: f"{share * 100:.2f} %" for name, share in found.items() if share > LIMIT}
    assert over == {}, f"{path}: {over}"
