"""What in a PDF is transparent, and taking away the markers of transparency that draw nothing.

A side as svg2pdf draws it is transparent when anything in it is painted
through a soft mask, at an opacity below 1 or with a blend mode other than
Normal: graphics states (``/SMask``, ``/CA``, ``/ca``, ``/BM``) and pictures
with an alpha channel (``/SMask``) or a colour key (``/Mask``), wherever they
are used (the page, its forms, patterns and Type 3 glyphs).  PDF/X-1a allows
none of it; a transparency group with nothing transparent inside is only a
marker, which :func:`drop_markers` takes away, with graphics-state entries at
their neutral values.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pikepdf
from pikepdf import Dictionary, Name, Stream

_NEUTRAL_BLENDS = ("/Normal", "/Compatible")


def _opacity(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def state_transparency(state: Any) -> str | None:
    """What makes a graphics state transparent, or None."""
    if not isinstance(state, Dictionary):
        return None
    for key in ("/CA", "/ca"):
        if key in state and _opacity(state[key]) < 1:
            return f"opacity {_opacity(state[key]):g}"
    if "/SMask" in state and state["/SMask"] != Name.None_:
        return "a soft mask"
    blend = state.get("/BM")
    if blend is not None:
        modes = [str(m) for m in blend] if isinstance(blend, pikepdf.Array) else [str(blend)]
        if modes and modes[0] not in _NEUTRAL_BLENDS:
            return f"blend mode {modes[0][1:]}"
    return None


def image_transparency(image: Any) -> str | None:
    if "/SMask" in image:
        return "a picture with transparency"
    if "/Mask" in image:
        return "a masked picture"
    return None


def _resources_of(holder: Any) -> Iterator[Any]:
    """``holder``'s resource dictionary, and those of every form, pattern and glyph reachable from it."""
    seen: set[tuple[int, int]] = set()
    todo = [holder.get("/Resources")]
    while todo:
        resources = todo.pop()
        if not isinstance(resources, Dictionary):
            continue
        if resources.is_indirect:
            if resources.objgen in seen:
                continue
            seen.add(resources.objgen)
        yield resources
        for kind in ("/XObject", "/Pattern"):
            for obj in (resources.get(kind) or {}).values():
                if isinstance(obj, (Stream, Dictionary)) and obj.get("/Subtype") != Name.Image:
                    todo.append(obj.get("/Resources"))
        for font in (resources.get("/Font") or {}).values():
            if font.get("/Subtype") == Name.Type3:
                todo.append(font.get("/Resources"))
        for state in (resources.get("/ExtGState") or {}).values():
            mask = state.get("/SMask") if isinstance(state, Dictionary) else None
            if isinstance(mask, Dictionary) and "/G" in mask:
                todo.append(mask.G.get("/Resources"))


def transparency_of(page: Any) -> list[str]:
    """Everything on ``page`` (a pikepdf page object) that is transparent, said in words (empty: nothing)."""
    found: list[str] = []
    for resources in _resources_of(page):
        for state in (resources.get("/ExtGState") or {}).values():
            said = state_transparency(state)
            if said:
                found.append(said)
        for obj in (resources.get("/XObject") or {}).values():
            if obj.get("/Subtype") == Name.Image:
                said = image_transparency(obj)
                if said:
                    found.append(said)
    return found


def is_transparent(pdf: bytes) -> bool:
    """Whether any page of ``pdf`` paints anything transparent."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return any(transparency_of(page.obj) for page in document.pages)


def drop_markers(document: pikepdf.Pdf) -> None:
    """Transparency groups, and graphics-state entries that can only be neutral, taken out of every page and what
    it uses in ``document``, which must paint nothing transparent (ValueError otherwise)."""
    for page in document.pages:
        found = transparency_of(page.obj)
        if found:
            raise ValueError(f"a page to be written without transparency has {found[0]}")
        if "/Group" in page.obj:
            del page.obj["/Group"]
        for resources in _resources_of(page.obj):
            for state in (resources.get("/ExtGState") or {}).values():
                for key in ("/CA", "/ca", "/SMask", "/BM", "/AIS", "/TK"):
                    if isinstance(state, Dictionary) and key in state:
                        del state[key]
            for kind in ("/XObject", "/Pattern"):
                for obj in (resources.get(kind) or {}).values():
                    if isinstance(obj, (Stream, Dictionary)) and "/Group" in obj:
                        del obj["/Group"]


__all__ = ["drop_markers", "image_transparency", "is_transparent", "state_transparency", "transparency_of"]
