"""Filling a sheet file's card places with the card pieces (see :mod:`.fragments`), through pikepdf.

The sheets are first drawn by reportlab with an empty form XObject for each
distinct card side (marks, clipping and placement all as before); each form
then receives its piece's page content and resources.  Resources are copied
by content: a font subset, picture or graphics state that several pieces
carry alike is stored once in the file.  Stream data is copied as it is
stored (already compressed), so nothing is decompressed or recompressed and
no piece has to stay open until the file is written.  The one change made is
to drop reportlab's ASCII85 layer over Flate: the stream is a fifth smaller,
and the writer, which compresses what is not Flate alone, has nothing to redo.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pikepdf
from pikepdf import Array, Dictionary, Name, Object, Pdf, Stream, String

_FORM_PREFIX = "FormXob."
A85_OVER_FLATE = ["/ASCII85Decode", "/FlateDecode"]

_Filters = str | list[str] | None  # a stream's /Filter: a name, an array of names, or none
Place = tuple[str | int, ...]  # where an object is in a form's resources: a resource kind, a name, then keys and indices


def flate_alone(data: bytes, filters: _Filters) -> tuple[bytes, _Filters]:
    """Stream data stored as ASCII85 over Flate as the Flate data alone; any other as it is."""
    if filters != A85_OVER_FLATE:
        return data, filters
    text = data.strip()
    return base64.a85decode(text.removesuffix(b"~>"), ignorechars=b" \t\n\r\v"), "/FlateDecode"


def filters_of(stored: object) -> tuple[bool, _Filters]:
    """(understood, filters) of a stream's /Filter entry."""
    if stored is None:
        return True, None
    if isinstance(stored, Name):
        return True, str(stored)
    if isinstance(stored, Array) and all(isinstance(x, Name) for x in stored):
        return True, [str(x) for x in stored]
    return False, None


class Copier:
    """Copies objects from pieces into ``target``, one copy per distinct content."""

    def __init__(self, target: Pdf):
        self.target = target
        self.by_content: dict[str, Object] = {}
        # what each object made here holds that is shared by content too, by its place below the object
        self.inside: dict[str, list[tuple[Place, str]]] = {}
        self.used: list[tuple[Place, str]] = []  # the shared objects the form being filled reaches, by place
        self.exact = True  # False once a copy was made that a form filled again could not make alike

    def use(self, place: Place | None, key: str) -> None:
        """The form being filled reaches the object shared under ``key`` at ``place`` in its resources."""
        if place is None:
            self.exact = False
            return
        self.used.append((place, key))
        self.used += [(place + below, inner) for below, inner in self.inside.get(key, ())]

    def fingerprint(self, obj: Object, seen: dict[tuple[int, int], str]) -> str:
        """A digest of an object's content, children included (indirect ones digested once per piece)."""
        if not isinstance(obj, Object):  # numbers and booleans arrive as Python values
            return repr(obj)
        if obj.is_indirect:
            found = seen.get(obj.objgen)
            if found is not None:
                return found
        sha = hashlib.sha256()
        if isinstance(obj, (Array, Dictionary)) and not isinstance(obj, Stream):
            text = obj.unparse()
            if b" R" not in text:  # no reference to follow: its text is its content
                sha.update(text)
                result = sha.hexdigest()
                if obj.is_indirect:
                    seen[obj.objgen] = result
                return result
        if isinstance(obj, Stream):
            sha.update(b"stream")
            sha.update(self._dict_fingerprint(obj.stream_dict, seen, skip=("/Length",)).encode())
            sha.update(obj.read_raw_bytes())
        elif isinstance(obj, Dictionary):
            sha.update(self._dict_fingerprint(obj, seen).encode())
        elif isinstance(obj, Array):
            sha.update(b"array")
            for item in obj:
                sha.update(self.fingerprint(item, seen).encode())
        else:
            sha.update(obj.unparse())
        result = sha.hexdigest()
        if obj.is_indirect:
            seen[obj.objgen] = result
        return result

    def _dict_fingerprint(self, obj: Object, seen: dict, skip: tuple[str, ...] = ()) -> str:
        parts = [f"{k}={self.fingerprint(obj[k], seen)}" for k in sorted(obj.keys()) if k not in skip]
        return "dict{" + ";".join(parts) + "}"

    def copy(self, obj: Object, seen: dict[tuple[int, int], str], place: Place | None = None) -> Object:
        """``obj`` in the target: direct values rebuilt, indirect objects shared by content (each told to
        :meth:`use` with its ``place`` in the form's resources)."""
        if isinstance(obj, Object) and obj.is_indirect:
            key = self.fingerprint(obj, seen)
            found = self.by_content.get(key)
            if found is None:
                mark = len(self.used)
                found = self.target.make_indirect(self._rebuild(obj, seen, place))
                self.by_content[key] = found
                if place is None:
                    self.exact = False
                else:
                    self.inside[key] = [(inner[len(place) :], k) for inner, k in self.used[mark:]]
                    self.used.insert(mark, (place, key))
            else:
                self.use(place, key)
            return found
        return self._rebuild(obj, seen, place)

    def _rebuild(self, obj: Object, seen: dict, place: Place | None = None) -> Object:
        def below(step: str | int) -> Place | None:
            return None if place is None else (*place, step)

        if isinstance(obj, Stream):
            understood, filters = filters_of(obj.get("/Filter"))
            data, kept = obj.read_raw_bytes(), filters
            if understood and "/DecodeParms" not in obj:
                data, kept = flate_alone(data, filters)
            copy = Stream(self.target, data)
            for k in sorted(obj.stream_dict.keys()):
                if k == "/Filter" and kept != filters:
                    copy.stream_dict[k] = Name(str(kept))
                    self.exact = False  # copied whole by qpdf elsewhere, it would keep its ASCII85 layer
                elif k != "/Length":
                    copy.stream_dict[k] = self.copy(obj.stream_dict[k], seen, below(str(k)))
            return copy
        if isinstance(obj, (Dictionary, Array)):
            text = obj.unparse()
            if b" R" not in text:  # nothing to follow: parsed again in one step, the same object
                return Object.parse(text)
        if isinstance(obj, Dictionary):
            return Dictionary({k: self.copy(obj[k], seen, below(str(k))) for k in sorted(obj.keys())})
        if isinstance(obj, Array):
            return Array([self.copy(item, seen, below(i)) for i, item in enumerate(obj)])
        if isinstance(obj, Name):
            return Name(str(obj))
        if isinstance(obj, String):
            return String(bytes(obj))
        return obj  # numbers and booleans arrive as Python values


def card_forms(pdf: Pdf) -> dict[str, Object]:
    """The card forms of a sheets file by their reportlab name (``FormXob.<name>``), each once."""
    forms: dict[str, Object] = {}
    for page in pdf.pages:
        xobjects = page.obj.get("/Resources", Dictionary()).get("/XObject", Dictionary())
        for key in sorted(xobjects.keys()):
            if key.startswith("/" + _FORM_PREFIX):
                forms.setdefault(key[1 + len(_FORM_PREFIX) :], xobjects[key])
    return forms


_Signature = dict[str, dict[str, str]]  # resource kind -> resource name -> fingerprint


@dataclass(frozen=True)
class Known:
    """What assembling needs to know of a piece, worked out once when it is drawn: its resources'
    fingerprints (so each distinct resource is copied once and the others not looked at) and, when
    its page is that simple, its content stream as stored and its resources that are lists of names
    (``/ProcSet``): a piece whose resources are all in the file already is then placed without
    being opened at all."""

    resources: _Signature
    content: bytes | None = None  # None: the piece must be opened (several streams, decode parameters...)
    filters: _Filters = None  # the content stream's /Filter
    names: dict[str, list[str]] = field(default_factory=dict)
    edge: tuple[int, int, int] | None = None  # a front's colour at its edge (see :mod:`.edgecolour`), as drawn

    def head(self) -> bytes:
        """The description and the content stream, as a piece's cache entry keeps them (before the PDF)."""
        header = {
            "resources": self.resources,
            "content": None if self.content is None else len(self.content),
            "filters": self.filters,
            "names": self.names,
            "edge": self.edge,
        }
        return json.dumps(header, sort_keys=True).encode() + b"\n" + (self.content or b"")

    @classmethod
    def read(cls, head: bytes) -> Known:
        line, _, content = head.partition(b"\n")
        header = json.loads(line)
        if header["content"] is not None and len(content) != header["content"]:
            raise ValueError("a content stream of another length")
        kept = content if header["content"] is not None else None
        edge = header.get("edge")
        if edge is not None and (len(edge) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in edge)):
            raise ValueError("an edge colour of another shape")
        return cls(
            dict(header["resources"]),
            kept,
            header["filters"],
            dict(header["names"]),
            (edge[0], edge[1], edge[2]) if edge else None,
        )


def describe(piece: bytes) -> Known:
    """Open a piece once and say what assembling needs of it (see :class:`Known`)."""
    with pikepdf.open(io.BytesIO(piece)) as source:
        copier = Copier(source)
        seen: dict[tuple[int, int], str] = {}
        page = source.pages[0].obj
        resources = page.Resources
        found: _Signature = {}
        names: dict[str, list[str]] = {}
        simple = True
        for kind in sorted(resources.keys()):
            entries = resources[kind]
            if isinstance(entries, Dictionary):
                found[kind] = {name: copier.fingerprint(entries[name], seen) for name in sorted(entries.keys())}
            elif isinstance(entries, Array) and not entries.is_indirect and all(isinstance(x, Name) for x in entries):
                names[kind] = [str(x) for x in entries]
            else:
                simple = False
        contents = page.Contents
        if not simple or not isinstance(contents, Stream) or "/DecodeParms" in contents:
            return Known(found)
        understood, filters = filters_of(contents.get("/Filter"))
        if not understood:
            return Known(found)
        content, filters = flate_alone(contents.read_raw_bytes(), filters)
        return Known(found, content, filters, names)


def _placed(copier: Copier, form: Object, known: Known) -> bool:
    """Fill ``form`` from what is known of its piece alone, when every resource is in the file already."""
    if known.content is None:
        return False
    resources = Dictionary()
    used: list[tuple[Place, str]] = []
    for kind in sorted({*known.resources, *known.names}):
        if kind in known.names:
            resources[kind] = Array([Name(n) for n in known.names[kind]])
            continue
        inner = Dictionary()
        for name, fingerprint in sorted(known.resources[kind].items()):
            found = copier.by_content.get(fingerprint)
            if found is None:
                return False
            inner[name] = found
            used.append(((kind, name), fingerprint))
        resources[kind] = inner
    form.write(known.content, filter=_filter_object(known.filters))
    form.Resources = resources
    for place, fingerprint in used:
        copier.use(place, fingerprint)
    return True


def _filter_object(filters: _Filters) -> Name | Array | None:
    return Array([Name(f) for f in filters]) if isinstance(filters, list) else Name(filters) if filters else None


def _resources(copier: Copier, resources: Object, known: _Signature, seen: dict) -> tuple[Dictionary, bool]:
    """The piece's resources in the target, each distinct entry (a font, a picture, a graphics state) once: an entry
    whose fingerprint is already there is not looked at, a new one is copied whole by qpdf; and whether any was
    (then the piece must stay open until the file is written: qpdf reads the data of what it copied then)."""
    copied = Dictionary()
    whole = False
    for kind in sorted(resources.keys()):
        entries = resources[kind]
        fingerprints = known.get(kind)
        if not isinstance(entries, Dictionary) or fingerprints is None:
            copied[kind] = copier.copy(entries, seen, (kind,))
            continue
        inner = Dictionary()
        for name in sorted(entries.keys()):
            fingerprint = fingerprints.get(name, "")
            found = copier.by_content.get(fingerprint)
            entry = entries[name]
            if found is not None:
                copier.use((kind, name), fingerprint)
            elif fingerprint and isinstance(entry, Object) and entry.is_indirect:
                found = copier.target.copy_foreign(entry)
                copier.by_content[fingerprint] = found
                copier.use((kind, name), fingerprint)
                whole = True
            else:
                found = copier.copy(entry, seen, (kind, name))
            inner[name] = found
        copied[kind] = inner
    return copied, whole


Uses = dict[str, list[tuple[Place, str]]]  # each card form's shared objects, by place in its resources
Writer = Callable[[Pdf], tuple[bytes, bool]]  # a filled file's bytes, and whether filling it again writes it alike


def written(pdf: Pdf, streams: pikepdf.ObjectStreamMode) -> bytes:
    """``pdf`` as a reproducible file, its objects packed into object streams or not (``streams``)."""
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, compress_streams=True, object_stream_mode=streams)
    return out.getvalue()


def written_once(pdf: Pdf) -> tuple[bytes, bool]:
    """A filled file written once, as it comes: not one to be filled again."""
    return written(pdf, pikepdf.ObjectStreamMode.generate), False


@dataclass(frozen=True)
class Filled:
    """A sheets file with its card forms filled, and what filling it again with a few pieces changed needs (see
    :mod:`.refill`): the objects each form reaches that are shared by content, by their fingerprints and places,
    and whether every copy was one a form filled again makes alike (else, a file to be filled whole again)."""

    pdf: bytes
    uses: Uses
    exact: bool


def fill_forms(
    skeleton: bytes, known: Callable[[str], Known], piece: Callable[[str], bytes], names: Iterable[str] | None = None
) -> bytes:
    """The skeleton with each card form ``name`` drawn as the page of ``piece(name)``, a PDF, of which
    ``known(name)`` says what :func:`describe` found (a piece placed from that alone is not fetched);
    a reproducible file."""
    return fill(skeleton, known, piece, names).pdf


def fill(
    skeleton: bytes,
    known: Callable[[str], Known],
    piece: Callable[[str], bytes],
    names: Iterable[str] | None = None,
    write: Writer | None = None,
) -> Filled:
    """:func:`fill_forms`, with what filling the file again needs; ``write`` writes the filled file (by default
    once, as it comes: see :mod:`.refill` for a file to be filled again)."""
    with pikepdf.open(io.BytesIO(skeleton)) as pdf:
        forms = card_forms(pdf)
        names = sorted(forms) if names is None else list(names)
        return fill_into(pdf, Copier(pdf), forms, names, known, piece, {}, write)


def fill_into(
    pdf: Pdf,
    copier: Copier,
    forms: dict[str, Object],
    names: list[str],
    known: Callable[[str], Known],
    piece: Callable[[str], bytes],
    uses: Uses,
    write: Writer | None = None,
) -> Filled:
    """Fill the forms ``names`` of ``pdf`` (the others kept as they are, the objects they reach in ``uses``) and
    write it with ``write`` (see :func:`fill`)."""
    opened: list[Pdf] = []  # pieces whose objects were copied whole: their data is read when the file is written
    try:
        for name in names:
            found = known(name)
            copier.used = []
            if not _placed(copier, forms[name], found):
                source = pikepdf.open(io.BytesIO(piece(name)))
                if _fill_from(copier, forms[name], source, found):
                    opened.append(source)
                else:
                    source.close()
            uses[name] = copier.used
        data, alike = (write or written_once)(pdf)
        return Filled(data, {name: uses[name] for name in sorted(uses)}, alike and copier.exact)
    finally:
        for source in opened:
            source.close()


def _fill_from(copier: Copier, form: Object, source: Pdf, found: Known) -> bool:
    """Fill ``form`` with the page of ``source``; whether ``source`` must stay open until the file is written."""
    page = source.pages[0].obj
    seen: dict[tuple[int, int], str] = {}
    contents = page.Contents
    understood, filters = filters_of(contents.get("/Filter"))
    if isinstance(contents, Array):  # reportlab writes one stream; accept several
        data = b"\n".join(part.read_bytes() for part in contents)
        form.write(data)
    elif understood and "/DecodeParms" not in contents:
        data, filters = flate_alone(contents.read_raw_bytes(), filters)
        form.write(data, filter=_filter_object(filters))
    else:
        form.write(
            contents.read_raw_bytes(),
            filter=copier.copy(contents["/Filter"], seen) if "/Filter" in contents else None,  # type: ignore[arg-type]
            decode_parms=copier.copy(contents["/DecodeParms"], seen) if "/DecodeParms" in contents else None,  # type: ignore[arg-type]
        )
    form.Resources, whole = _resources(copier, page.Resources, found.resources, seen)
    return whole
