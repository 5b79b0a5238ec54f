"""Soft masks kept apart from what a page prints, so recolouring the print leaves the masks alone.

A soft mask's group is drawn for its luminosity (or alpha), not printed: its
colours must stay as they are.  A PDF may share an object (a form, a picture, a
shading, a resource dictionary) between a mask and the printed content; before
the printed objects are changed in place, each mask group that reaches such an
object is given its own copy of it (and of what leads to it).  Objects that are
never changed (fonts other than Type 3, ICC profiles) stay shared.
"""

from __future__ import annotations

from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

_Key = tuple[int, int]


def unshare_masks(document: pikepdf.Pdf, page: Dictionary) -> None:
    """Give the soft-mask groups reachable from ``page`` their own copies of objects the page also prints."""
    masks: list[Dictionary] = []
    printed = _printed(page, masks)
    copies: dict[_Key, tuple[Any, bool]] = {}
    for mask in masks:
        group, changed = _copy(document, mask.G, printed, copies)
        if changed:
            mask.G = group


def _kept(obj: Any) -> bool:
    """Whether ``obj`` is one recolouring never changes (then it need not be copied)."""
    if isinstance(obj, Stream) and "/N" in obj and "/Subtype" not in obj:
        return True  # an ICC profile
    return isinstance(obj, Dictionary) and obj.get("/Type") == Name.Font and obj.get("/Subtype") != Name.Type3


def _children(obj: Any) -> list[tuple[Any, Any]]:
    if isinstance(obj, Stream):
        return [(k, v) for k, v in obj.stream_dict.items() if k != "/Length"]
    if isinstance(obj, Dictionary):
        return list(obj.items())
    if isinstance(obj, Array):
        return list(enumerate(obj))
    return []


def _is_mask(obj: Any) -> bool:
    return isinstance(obj, Dictionary) and "/G" in obj and obj.get("/S") in (Name.Luminosity, Name.Alpha)


def _printed(page: Dictionary, masks: list[Dictionary]) -> set[_Key]:
    """The indirect objects ``page`` prints (not through soft masks, whose dictionaries go to ``masks``)."""
    seen: set[_Key] = set()
    todo: list[Any] = [page]
    while todo:
        obj = todo.pop()
        if _kept(obj):
            continue
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if _is_mask(obj):  # a direct object has one container: it is met once
            masks.append(obj)
            todo.extend(v for k, v in _children(obj) if k != "/G")
            continue
        todo.extend(v for k, v in _children(obj) if k != "/Parent" and isinstance(v, (Dictionary, Array, Stream)))
    return seen


def _copy(document: pikepdf.Pdf, obj: Any, printed: set[_Key], copies: dict[_Key, tuple[Any, bool]]) -> tuple[Any, bool]:
    """``obj`` (in a soft mask), or a copy of it if it is or leads to an object printed too; and whether it was copied."""
    if not isinstance(obj, (Dictionary, Array, Stream)) or _kept(obj):
        return obj, False
    key = obj.objgen if obj.is_indirect else None
    if key is not None:
        if key in copies:
            return copies[key]
        copies[key] = (obj, False)  # a cycle leads back here: as it is
    children = [(k, *_copy(document, v, printed, copies)) for k, v in _children(obj) if k != "/Parent"]
    if key not in printed and not any(changed for _, _, changed in children):
        return obj, False
    children = [(k, v if changed else _fresh(v), changed) for k, v, changed in children]
    new: Any
    if isinstance(obj, Stream):
        new = document.make_stream(obj.read_raw_bytes())
        for k, v, _ in children:
            new[k] = v
    elif isinstance(obj, Dictionary):
        new = Dictionary({k: v for k, v, _ in children})
    else:
        new = Array([v for _, v, _ in children])
    if key is not None:
        new = document.make_indirect(new)
        copies[key] = (new, True)
    return new, True


def _fresh(obj: Any) -> Any:
    """A direct dictionary or array rebuilt (qpdf would share it between the original and the copy), or ``obj``."""
    if isinstance(obj, Dictionary) and not obj.is_indirect:
        return Dictionary({k: _fresh(v) for k, v in obj.items()})
    if isinstance(obj, Array) and not obj.is_indirect:
        return Array([_fresh(v) for v in obj])
    return obj
