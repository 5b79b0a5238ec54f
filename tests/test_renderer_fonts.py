"""The copies of fonts the renderer is given: made once, kept in the store by the font's digest, the same bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator.locations import FONTS_DIR
from generator.render import vector


class Store:
    """The store's kept bytes, in memory, counting what had to be made."""

    def __init__(self):
        self.kept: dict[tuple, bytes] = {}
        self.made = 0

    def __call__(self, kind, inputs, make):
        key = (kind, repr(inputs))
        if key not in self.kept:
            self.made += 1
            self.kept[key] = make()
        return self.kept[key]


def test_a_renamed_copy_is_kept_by_the_fonts_digest_and_taken_from_the_store_after(writes_into_test_folders):
    fonts = sorted(str(p) for p in FONTS_DIR.glob("*.ttf"))
    store = Store()
    first = {path: vector._as_named(path, store) for path in fonts}
    assert store.made == len(fonts)  # one entry a font, a font needing no copy kept as empty
    renamed = [path for path, given in first.items() if given != path]
    assert renamed and len(renamed) < len(fonts)  # some shipped fonts need their names made to agree, some not
    for path in renamed:  # the same bytes as a copy made without the store
        assert Path(first[path]).read_bytes() == vector._renamed(path)
    for path, given in first.items():  # kept by the digest of the font's bytes; empty for a font given as it is
        assert bool(store.kept[(vector.RENAMED, repr([_digest(path)]))]) == (given != path)
    again = {path: vector._as_named(path, store) for path in fonts}
    assert again == first and store.made == len(fonts)  # nothing made again: fontTools not asked


def test_a_kept_entry_gives_its_copy_even_when_the_run_folder_lost_it(writes_into_test_folders):
    path = next(str(p) for p in sorted(FONTS_DIR.glob("*.ttf")) if vector._renamed(str(p)) is not None)
    store = Store()
    copy = Path(vector._as_named(path, store))
    copy.unlink()
    assert Path(vector._as_named(path, store)).read_bytes() == vector._renamed(path) and store.made == 1


def _digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_the_half_heights_kept_are_those_read_from_the_fonts(writes_into_test_folders):
    stamps = vector._stamps(tuple(str(p) for p in sorted(FONTS_DIR.glob("*.ttf"))))
    store = Store()
    read = vector._loaded(stamps).half_heights
    assert read == vector._loaded(stamps, store).half_heights == vector._loaded(stamps, store).half_heights
    assert store.made == 2 * len(stamps)  # a copy and a height a font, each made once
