"""A one-page PDF (as svg2pdf writes it) with every printed colour through a converter: process CMYK or greys.

:func:`recolour` rewrites what a page prints, wherever it is drawn: colour
operators in the page and in every form XObject, tiling pattern and Type 3
glyph reachable from it; shadings (their colour space and functions); pictures.
Colours become DeviceCMYK or DeviceGray (``converter.space``, components from
``converter.components``); pictures go through ``converter.picture``.
Transparency stays live: transparency groups are blended in the target space,
and soft masks are left as they are, since their content is a mask's
luminosity, not printed colour (so are the alpha images of pictures).
In process CMYK, small dark text, small dark shapes and thin dark lines print
in black ink alone, overprinting (:mod:`.smallblack`).

A gradient's colours are not its end colours converted (ink does not mix like
light): each piece of its function is sampled at every 8-bit step of its RGB
colours (at most 256) and replaced by a sampled function of the converted
samples, so the printed gradient is the conversion of the designed one at every
point.  Hard stops are kept, as the stitching of the pieces is.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pikepdf
from pikepdf import Array, Dictionary, Name, Operator, Stream
from PIL import Image

from .pdffunctions import domain_of, evaluate
from .smallblack import IDENTITY, SmallBlackText
from .softmasks import unshare_masks

if TYPE_CHECKING:
    from .colour import Greys, ProcessColour

_MAX_SAMPLES = 256  # per piece of a gradient function
_DEVICE = {"/DeviceGray": 1, "/CalGray": 1, "/DeviceRGB": 3, "/CalRGB": 3, "/DeviceCMYK": 4}
_INITIAL = {1: (0.0,), 3: (0.0, 0.0, 0.0), 4: (0.0, 0.0, 0.0, 1.0)}  # black, the colour a `cs` sets
PATTERN = "pattern"  # a coloured pattern (or a space left as it is): operands kept
_SETTERS = {"rg": 3, "RG": 3, "g": 1, "G": 1, "k": 4, "K": 4}
_PICKERS = {"sc", "scn", "SC", "SCN"}
_WATCHED = {"q", "Q", "cs", "CS", *_SETTERS, *_PICKERS}


def recolour(pdf: bytes, converter: Greys | ProcessColour) -> bytes:
    """``pdf`` (one page) with every printed colour and picture converted by ``converter``, soft masks kept.

    The result is saved deterministically: the same page gives the same bytes,
    whatever order the resources of ``pdf`` were written in."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        if len(document.pages) != 1:
            raise ValueError(f"recolour converts a one-page PDF, not {len(document.pages)} pages")
        _Recolour(document, converter).page(document.pages[0])
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
        return out.getvalue()


def recolour_pages(pdf: bytes, converter: Greys | ProcessColour) -> bytes:
    """Every page of ``pdf`` converted as :func:`recolour` converts one; what pages share is converted once."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        work = _Recolour(document, converter)
        for page in document.pages:
            work.page(page)
            work.respaced.clear()
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
        return out.getvalue()


def _to_rgb(n: int, values: tuple[float, ...]) -> tuple[float, float, float]:
    """Components of a DeviceGray (1), RGB (3) or DeviceCMYK (4) colour as RGB 0-1 (CMYK naively)."""
    v = [min(1.0, max(0.0, round(float(x), 6))) for x in values]
    if n == 1:
        return (v[0], v[0], v[0])
    if n == 4:
        return ((1 - v[0]) * (1 - v[3]), (1 - v[1]) * (1 - v[3]), (1 - v[2]) * (1 - v[3]))
    return (v[0], v[1], v[2])


def components(space: Any) -> int | None:
    """How many components a DeviceGray-, RGB- or CMYK-like colour space has; None for any other."""
    if isinstance(space, Name):
        return _DEVICE.get(str(space))
    if isinstance(space, Array) and len(space) and space[0] in (Name.CalRGB, Name.CalGray):
        return _DEVICE[str(space[0])]
    if isinstance(space, Array) and len(space) == 2 and space[0] == Name.ICCBased:
        n = int(space[1].get("/N", 0))
        return n if n in (1, 3, 4) else None
    return None


def _key(obj: Any) -> tuple[int, int] | None:
    return obj.objgen if obj.is_indirect else None


class _Recolour:
    def __init__(self, document: pikepdf.Pdf, converter: Greys | ProcessColour) -> None:
        self.document = document
        self.converter = converter
        self.space = Name(converter.space)
        self.n = _DEVICE[converter.space]
        self.setters = ("k", "K") if self.n == 4 else ("g", "G")
        self.colours: dict[tuple[float, float, float], tuple[float, ...]] = {}
        self.done: dict[tuple[int, int], Any] = {}  # converted objects, and the colour spaces of resources
        self.respaced: list[tuple[Dictionary, str, Any]] = []  # named colour spaces to change once all is read

    def ink(self, matrix: Any = IDENTITY) -> SmallBlackText | None:
        """The tracker of small dark text for one content stream: in process CMYK only (not in greys)."""
        if self.n != 4 or getattr(self.converter, "greyscale", False):
            return None
        return SmallBlackText(matrix)

    def converts(self, n: Any) -> bool:
        return isinstance(n, int) and n != self.n

    def colour(self, n: int, values: Any) -> tuple[float, ...]:
        """A colour of ``n`` components converted (each distinct colour once)."""
        return self.colours_of(n, [values])[0]

    def colours_of(self, n: int, colours: list) -> list[tuple[float, ...]]:
        rgbs = [_to_rgb(n, tuple(values)) for values in colours]
        new = sorted(set(rgbs).difference(self.colours))
        self.colours.update(zip(new, (tuple(round(v, 4) for v in c) for c in self.converter.components(new))))
        return [self.colours[rgb] for rgb in rgbs]

    def once(self, obj: Any, convert: Callable[[Any], Any]) -> Any:
        key = _key(obj)
        if key is None:
            return convert(obj)
        if key not in self.done:
            self.done[key] = None  # a cycle stops here
            self.done[key] = convert(obj)
        return self.done[key]

    # pages, forms and patterns: their content and resources

    def page(self, page: pikepdf.Page) -> None:
        unshare_masks(self.document, page.obj)
        self.group(page.obj)
        ink = self.ink()
        ops = self.content(pikepdf.parse_content_stream(page.obj), self.resources(page.obj.get("/Resources")), ink)
        if ink is not None:
            ink.add_states(page.obj.get("/Resources"))
        if ops is not None:
            page.obj.Contents = self.document.make_stream(pikepdf.unparse_content_stream(ops))
        for named, name, space in self.respaced:
            if space is not None:
                named[name] = space
            elif name in named:
                del named[name]

    def group(self, obj: Any) -> None:
        group = obj.get("/Group")
        if isinstance(group, Dictionary) and group.get("/S") == Name.Transparency and "/CS" in group:
            group.CS = self.space

    def stream(self, owner: Stream, resources: Any) -> None:
        """A content stream (form, tiling pattern, glyph) converted in place, with ``resources``."""

        def convert(owner: Stream) -> Stream:
            self.group(owner)
            matrix = owner.get("/Matrix")
            ink = self.ink(tuple(float(v) for v in matrix) if isinstance(matrix, Array) and len(matrix) == 6 else IDENTITY)
            ops = self.content(pikepdf.parse_content_stream(owner), self.resources(resources), ink)
            if ink is not None:
                ink.add_states(resources)
            if ops is not None:
                owner.write(pikepdf.unparse_content_stream(ops))
            return owner

        self.once(owner, convert)

    def resources(self, resources: Any) -> dict[str, Any]:
        """Each XObject, pattern, shading and Type 3 font of ``resources`` converted; the kinds of its colour spaces."""
        if not isinstance(resources, Dictionary):
            return {}

        def convert(resources: Dictionary) -> dict[str, Any]:
            spaces = self.colour_spaces(resources.get("/ColorSpace"))
            for obj in _values(resources.get("/XObject")):
                if obj.get("/Subtype") == Name.Image:
                    self.once(obj, self.image)
                elif obj.get("/Subtype") == Name.Form:
                    self.stream(obj, obj.get("/Resources", resources))
            for obj in _values(resources.get("/Pattern")):
                if obj.get("/PatternType") == 1:
                    self.stream(obj, obj.get("/Resources"))
                elif "/Shading" in obj:
                    self.once(obj.Shading, self.shading)
            for obj in _values(resources.get("/Shading")):
                self.once(obj, self.shading)
            for font in _values(resources.get("/Font")):
                if font.get("/Subtype") == Name.Type3:
                    for glyph in _values(font.get("/CharProcs")):
                        self.stream(glyph, font.get("/Resources", resources))
            return spaces

        return self.once(resources, convert)

    def colour_spaces(self, named: Any) -> dict[str, Any]:
        """What each named colour space is (components, or PATTERN, or ("pattern", components)).

        Once every stream is converted, converted ones are dropped (their operators set device colours)
        and patterns and palettes get converted underlying spaces."""
        if not isinstance(named, Dictionary):
            return {}

        def read(named: Dictionary) -> dict[str, Any]:
            spaces: dict[str, Any] = {}
            for name in sorted(named.keys()):
                space = named[name]
                n = components(space)
                if n is not None:
                    spaces[name] = n
                    if self.converts(n):
                        self.respaced.append((named, name, None))
                elif isinstance(space, Array) and len(space) == 2 and space[0] == Name.Pattern:
                    spaces[name] = (PATTERN, components(space[1]))
                    if self.converts(components(space[1])):
                        self.respaced.append((named, name, Array([Name.Pattern, self.space])))
                else:
                    spaces[name] = PATTERN
                    if isinstance(space, Array) and len(space) == 4 and space[0] in (Name.Indexed, Name.I):
                        self.respaced.append((named, name, self.palette(space)))
            return spaces

        return self.once(named, read)

    def palette(self, space: Array) -> Array:
        """An Indexed colour space with its palette converted as a picture (if its base space is converted)."""
        n = components(space[1])
        if n is None or n == self.n:
            return space
        table = space[3].read_bytes() if isinstance(space[3], Stream) else bytes(space[3])
        count = int(space[2]) + 1
        rgb = bytes(round(255 * v) for i in range(count) for v in _to_rgb(n, tuple(x / 255 for x in table[i * n : (i + 1) * n])))
        out = self.converter.picture(Image.frombytes("RGB", (count, 1), rgb))
        base = Name.DeviceCMYK if out.mode == "CMYK" else Name.DeviceGray
        return Array([Name.Indexed, base, count - 1, pikepdf.String(out.tobytes())])

    # content streams

    def content(self, instructions: list, spaces: dict[str, Any], ink: SmallBlackText | None = None) -> list | None:
        """Colour operators rewritten: colours of converted spaces set with k/K (or g/G), the rest kept
        (None if nothing changes); with ``ink``, small dark text in black ink alone, overprinting."""
        out: list = []
        state: list[Any] = [None, None]  # what the fill and stroke colour spaces are: components, PATTERN or a tuple
        saved: list[list[Any]] = []
        changed = False
        keep = out.append
        for instruction in instructions:
            op = str(instruction.operator)
            if ink is not None:
                added = ink.before(op, list(instruction.operands) if op != "INLINE IMAGE" else [], len(out))
                if ink.insert is not None:  # a path's switch to black ink, before its first point
                    at, switch = ink.insert
                    out[at:at] = switch
                    ink.insert = None
                    changed = True
                out.extend(added)
                changed = changed or bool(added)
            if op not in _WATCHED:
                converted = self.inline_image(instruction, spaces) if op == "INLINE IMAGE" else None
                changed = changed or converted is not None
                keep(converted or instruction)
                continue
            stroke, new = int(op.isupper()), None
            if op == "q":
                saved.append(list(state))
            elif op == "Q" and saved:
                state = saved.pop()
            elif op in _SETTERS:
                state[stroke] = _SETTERS[op]
                if self.converts(_SETTERS[op]):
                    new = (self.colour(_SETTERS[op], instruction.operands), self.setters[stroke])
            elif op in ("cs", "CS"):
                name = str(instruction.operands[0])
                state[stroke] = _DEVICE.get(name, spaces.get(name, PATTERN))
                if self.converts(state[stroke]):
                    new = (self.colour(state[stroke], _INITIAL[state[stroke]]), self.setters[stroke])
            else:  # sc, scn, SC, SCN
                new = self.picked(state[stroke], list(instruction.operands), stroke)
            if new is None:
                out.append(instruction)
            else:
                out.append(pikepdf.ContentStreamInstruction(list(new[0]), Operator(new[1] or op)))
                changed = True
            if ink is not None and op not in ("q", "Q"):
                (ink.stroke if stroke else ink.fill)(out[-1])
        return out if changed else None

    def picked(self, kind: Any, operands: list, stroke: int) -> tuple[Any, str] | None:
        """The operands and operator that set the colour ``operands`` pick in a space of ``kind`` (None: as they are)."""
        numbers = all(isinstance(v, (int, float, Decimal)) for v in operands)
        if kind is None and numbers and len(operands) == 3:
            kind = 3  # set in the caller's colour space: RGB, as three components say
        if self.converts(kind) and numbers:
            return self.colour(kind, operands), self.setters[stroke]
        if isinstance(kind, tuple) and self.converts(kind[1]) and len(operands) > 1:
            return [*self.colour(kind[1], operands[:-1]), operands[-1]], ""  # an uncoloured pattern's colour
        return None

    def inline_image(self, instruction: Any, spaces: dict[str, Any]) -> Any:
        """An inline picture in a converted colour space, converted and written again (hex-encoded, so it parses);
        None for one left as it is."""
        image = instruction.iimage
        space = image.obj.get("/CS", image.obj.get("/ColorSpace"))
        n = spaces.get(str(space)) if str(space) in spaces else components(_long(space))
        if image.obj.get("/IM", image.obj.get("/ImageMask", False)) or not self.converts(n):
            return None
        out = self.converter.picture(_samples(image).convert("RGB"))
        cs = "/DeviceCMYK" if out.mode == "CMYK" else "/DeviceGray"
        data = f"BI /W {out.width} /H {out.height} /CS {cs} /BPC 8 /F /AHx ID\n".encode() + out.tobytes().hex().encode()
        holder = self.document.make_stream(data + b">\nEI\n")
        return pikepdf.parse_content_stream(holder)[0]

    # pictures, shadings and their functions

    def image(self, image: Stream) -> Stream:
        space = image.get("/ColorSpace")
        indexed = isinstance(space, Array) and len(space) == 4 and space[0] == Name.Indexed
        n = components(space[1] if indexed else space)  # type: ignore[index]
        if image.get("/ImageMask", False) or not self.converts(n):
            return image
        picture = _samples(pikepdf.PdfImage(image))
        if isinstance(image.get("/Mask"), Array) and "/SMask" not in image:  # colour-key masking: the key is RGB
            image.SMask = self.key_mask(picture, [int(v) for v in image.Mask])
            del image.Mask
        out = self.converter.picture(picture.convert("RGB"))
        image.write(zlib.compress(out.tobytes(), 6), filter=Name.FlateDecode)
        image.ColorSpace = Name.DeviceCMYK if out.mode == "CMYK" else Name.DeviceGray
        image.BitsPerComponent = 8
        if "/Decode" in image:
            del image.Decode
        return image

    def key_mask(self, picture: Image.Image, ranges: list[int]) -> Stream:
        import numpy as np  # loaded with pictures

        values = np.asarray(picture).reshape(picture.height, picture.width, -1)
        keyed = np.all((values >= np.array(ranges[0::2])) & (values <= np.array(ranges[1::2])), axis=-1)
        alpha = np.where(keyed, 0, 255).astype(np.uint8).tobytes()
        return self.document.make_stream(
            zlib.compress(alpha, 6),
            Type=Name.XObject,
            Subtype=Name.Image,
            Width=picture.width,
            Height=picture.height,
            BitsPerComponent=8,
            ColorSpace=Name.DeviceGray,
            Filter=Name.FlateDecode,
        )

    def shading(self, shading: Any) -> Any:
        n = components(shading.get("/ColorSpace"))
        if not self.converts(n):
            return shading
        if "/Function" not in shading or shading.get("/ShadingType") == 1:
            raise ValueError(f"recolour cannot convert a type {shading.get('/ShadingType')} shading without a 1-in function")
        shading.Function = self.function(shading.Function, n)  # type: ignore[arg-type]
        if "/Background" in shading:
            shading.Background = Array(self.colour(n, [float(v) for v in shading.Background]))  # type: ignore[arg-type]
        shading.ColorSpace = self.space
        return shading

    def function(self, function: Any, n: int) -> Any:
        """A function of one input giving colours of ``n`` components as one giving converted colours."""
        if isinstance(function, Array):  # one function per component
            each = [evaluate(f) for f in function]
            return self.sampled(lambda t: [f(t)[0] for f in each], domain_of(function[0]), n, _MAX_SAMPLES, None)

        def convert(function: Any) -> Any:
            if function.get("/FunctionType") == 3:
                pieces = Array([self.function(piece, n) for piece in function.Functions])
                kept = {k: function[k] for k in ("/Domain", "/Bounds", "/Encode")}
                return self.document.make_indirect(Dictionary({**kept, "/FunctionType": 3, "/Functions": pieces}))
            count, key = _MAX_SAMPLES, None
            if function.get("/FunctionType") == 2:  # a gradient between two colours: the same on many pages
                c0, c1 = (_to_rgb(n, tuple(function.get(c, [i] * n))) for i, c in ((0, "/C0"), (1, "/C1")))
                exponent = float(function.get("/N", 1))
                if exponent == 1:
                    count = min(_MAX_SAMPLES, max(2, math.ceil(max(abs(a - b) for a, b in zip(c0, c1)) * 255 - 1e-6) + 1))
                key = (c0, c1, exponent)
            return self.sampled(evaluate(function), domain_of(function), n, count, key)

        return self.once(function, convert)

    def sampled(self, function: Callable, domain: tuple[float, float], n: int, count: int, key: tuple | None) -> Stream:
        """A sampled function (type 0) of ``count`` converted colours of ``function`` evenly over ``domain``
        (kept for the next page under ``key``, if given)."""
        start, end = domain

        def sample() -> bytes:
            colours = self.colours_of(n, [function(start + (end - start) * i / (count - 1)) for i in range(count)])
            return bytes(min(255, max(0, round(v * 255))) for colour in colours for v in colour)

        kept = getattr(self.converter, "samples", None)  # a converter may keep what it sampled (see .colour.Recent)
        data: bytes = kept.get((key, domain, count), sample) if key and kept is not None else sample()
        return self.document.make_stream(
            zlib.compress(data, 6),
            FunctionType=0,
            Domain=Array([start, end]),
            Range=Array([0, 1] * self.n),
            Size=Array([count]),
            BitsPerSample=8,
            Encode=Array([0, count - 1]),
            Filter=Name.FlateDecode,
        )


def _samples(image: Any) -> Image.Image:
    """A picture's colours, without its masks (the alpha of a picture is not recoloured, and kept)."""
    try:
        return image.as_pil_image(apply_mask=False)
    except TypeError:  # pikepdf before 10 leaves masks out
        return image.as_pil_image()


def _values(named: Any) -> list:
    """The values of a resource dictionary, in the order of their names."""
    return [named[k] for k in sorted(named.keys())] if isinstance(named, Dictionary) else []


def _long(space: Any) -> Any:
    """An inline image's abbreviated colour space name in full."""
    short = {"/G": Name.DeviceGray, "/RGB": Name.DeviceRGB, "/CMYK": Name.DeviceCMYK}
    return short.get(str(space), space)
