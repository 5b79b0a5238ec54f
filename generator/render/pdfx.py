"""PDF/X for print shops: an output intent with the CMYK profile, version keys and matching XMP.

reportlab draws the CMYK pages (with TrimBox and BleedBox and embedded
fonts); this module turns that file into PDF/X with pikepdf:

- ``4`` (PDF/X-4, the default): transparency allowed; ``GTS_PDFXVersion`` in
  the document information and in XMP metadata with the ids PDF/X-4 asks for.
- ``1a`` (PDF/X-1a:2001, PDF 1.3) and ``1a:2003`` (PDF/X-1a:2003, PDF 1.4, the
  version DriveThruCards' card guide asks for): Ghostscript flattens
  transparency first (pages that use it become one CMYK image at
  :data:`FLATTEN_DPI`); without Ghostscript the command stops with an error
  naming it.

Dates come from the drawn file (fixed, so files are reproducible) and the
file identifier is computed from the content.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import uuid
import zlib
from functools import cache
from typing import TYPE_CHECKING

from ..definitions.shops import PDFX_LEVELS
from ..errors import AetherpressError, Problem
from .icc import REGISTRY, OutputProfile

if TYPE_CHECKING:
    import pikepdf

_PDF_VERSION = {"4": "1.6", "1a": "1.3", "1a:2003": "1.4"}  # the newest PDF each level allows
FLATTEN_DPI = 600
_TEXT_LAYER = "/AetherpressText"  # the form of a page's texts, set over its flattened picture
_GS_TIMEOUT = 1800  # s
_FIXED_EPOCH = "946684800"  # 2000-01-01, the date reportlab's invariant files carry


def make_pdfx(pdf: bytes, profile: OutputProfile, level: str = "4", over: bytes | None = None, dpi: float = FLATTEN_DPI) -> bytes:
    """The CMYK ``pdf`` as PDF/X-4, PDF/X-1a:2001 or PDF/X-1a:2003 with ``profile`` as its output intent.  For
    PDF/X-1a, ``pdf`` is flattened at ``dpi`` and each page of ``over`` (text, nothing transparent) is set over its page."""
    import pikepdf  # only print-shop files need it

    # pikepdf loads only for print-shop files
    from pikepdf import Name, String

    if level not in PDFX_LEVELS:
        raise ValueError(f"unknown PDF/X level {level!r}")
    with pikepdf.open(io.BytesIO(pdf)) as source:
        info: dict[str, str] = {str(k): str(v) for k, v in source.docinfo.items() if isinstance(v, String)}
        lang = str(source.Root.Lang) if Name.Lang in source.Root else ""
    flat = level != "4"  # both PDF/X-1a versions
    drawn = _flatten(pdf, dpi, _PDF_VERSION[level]) if flat else pdf
    if over is not None and flat:
        drawn = _stamped(drawn, over)
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(drawn)) as doc:
        for name in [str(k) for k in doc.docinfo.keys() if str(k) not in info]:  # noqa: SIM118
            del doc.docinfo[name]
        for name, text in info.items():
            doc.docinfo[name] = String(text)
        doc.docinfo[Name.Trapped] = Name("/False")
        if lang:  # the language, which flattening drops
            doc.Root[Name.Lang] = String(lang)
        if level == "4":
            doc.docinfo[Name.GTS_PDFXVersion] = String("PDF/X-4")
            _xmp(doc, pdf)
        else:
            if level == "1a":
                doc.docinfo[Name.GTS_PDFXVersion] = String("PDF/X-1:2001")
                doc.docinfo[Name.GTS_PDFXConformance] = String("PDF/X-1a:2001")
            else:  # PDF/X-1a:2003 names itself in the version key alone
                doc.docinfo[Name.GTS_PDFXVersion] = String("PDF/X-1a:2003")
            if Name.Metadata in doc.Root:
                del doc.Root[Name.Metadata]
            for page in doc.pages:
                if Name.ArtBox in page.obj:  # PDF/X: a TrimBox or an ArtBox, not both
                    del page.obj[Name.ArtBox]
        _output_intent(doc, profile)
        doc.save(
            out,
            deterministic_id=True,
            force_version=_PDF_VERSION[level] if level != "4" else "",
            min_version="1.4" if level == "4" else "",
            object_stream_mode=pikepdf.ObjectStreamMode.preserve,  # none: reportlab and Ghostscript write none
            fix_metadata_version=level == "4",
        )
    return out.getvalue()


@cache
def _compressed(profile: OutputProfile) -> bytes:
    return zlib.compress(profile.data, 9)


def _output_intent(doc: pikepdf.Pdf, profile: OutputProfile) -> None:
    # pikepdf loads only for print-shop files
    import pikepdf
    from pikepdf import Name, String

    icc = pikepdf.Stream(doc, _compressed(profile))  # compressed once per profile, not once per file
    icc[Name.Filter] = Name.FlateDecode
    icc[Name.N] = 4
    intent = pikepdf.Dictionary(
        Type=Name.OutputIntent,
        S=Name.GTS_PDFX,
        OutputConditionIdentifier=String(profile.identifier),
        OutputCondition=String(profile.condition),
        Info=String(profile.description),
        DestOutputProfile=icc,
    )
    if profile.registered:
        intent[Name.RegistryName] = String(REGISTRY)
    doc.Root[Name.OutputIntents] = pikepdf.Array([doc.make_indirect(intent)])


def _xmp_date(pdf_date: str) -> str:
    """``D:20000101000000+00'00'`` as ``2000-01-01T00:00:00+00:00``."""
    d = pdf_date.removeprefix("D:")
    zone = d[14:].replace("'", "")
    zone = "Z" if zone in ("", "Z") else f"{zone[:3]}:{zone[3:5]}"
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}{zone}"


def _xmp(doc: pikepdf.Pdf, drawn: bytes) -> None:
    """XMP metadata matching the document information, with PDF/X-4's identifiers."""
    # pikepdf loads only for print-shop files
    from pikepdf import Name

    info = doc.docinfo
    created = _xmp_date(str(info.get(Name.CreationDate, "D:20000101000000Z")))
    modified = _xmp_date(str(info.get(Name.ModDate, info.get(Name.CreationDate, "D:20000101000000Z"))))
    document = uuid.uuid5(uuid.NAMESPACE_URL, "aetherpress:" + hashlib.sha256(drawn).hexdigest())
    with doc.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = str(info.get(Name.Title, ""))
        if Name.Author in info:
            meta["dc:creator"] = [str(info[Name.Author])]
        if Name.Subject in info:
            meta["dc:description"] = str(info[Name.Subject])
        if Name.Keywords in info:
            meta["pdf:Keywords"] = str(info[Name.Keywords])
        meta["pdf:Producer"] = str(info.get(Name.Producer, "Aetherpress"))
        meta["pdf:Trapped"] = "False"
        meta["xmp:CreatorTool"] = str(info.get(Name.Creator, "Aetherpress"))
        meta["xmp:CreateDate"] = created
        meta["xmp:ModifyDate"] = modified
        meta["xmp:MetadataDate"] = modified
        meta["xmpMM:DocumentID"] = f"uuid:{document}"
        meta["xmpMM:InstanceID"] = f"uuid:{document}"
        meta["xmpMM:VersionID"] = "1"
        meta["xmpMM:RenditionClass"] = "default"
        meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"


def ghostscript() -> str:
    """The Ghostscript program, or a one-line error naming it."""
    found = shutil.which("gs")
    if found is None:
        raise AetherpressError(
            Problem(
                "command line",
                "PDF/X-1a needs Ghostscript ('gs') to flatten transparency, and it is not installed; "
                "install it (Debian: apt-get install ghostscript) or use --pdfx 4",
            )
        )
    return found


def _flatten(pdf: bytes, dpi: float = FLATTEN_DPI, version: str = "1.3") -> bytes:
    """``pdf`` rewritten as PDF ``version`` by Ghostscript: transparency flattened (at ``dpi``), colour kept CMYK,
    fonts embedded."""
    command = [
        ghostscript(),
        "-q",
        "-dNOPAUSE",
        "-dBATCH",
        "-dSAFER",
        "-sstdout=%stderr",
        "-sDEVICE=pdfwrite",
        f"-r{dpi:g}",
        f"-dCompatibilityLevel={version}",
        "-dHaveTransparency=false",
        "-sColorConversionStrategy=CMYK",
        "-dAutoRotatePages=/None",
        "-dEmbedAllFonts=true",
        "-sOutputFile=-",
        "-",
    ]
    env = {**os.environ, "SOURCE_DATE_EPOCH": _FIXED_EPOCH}
    try:
        result = subprocess.run(command, input=pdf, capture_output=True, env=env, timeout=_GS_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AetherpressError(Problem("command line", f"PDF/X-1a: Ghostscript failed to run: {exc}")) from None
    if result.returncode != 0 or not result.stdout.startswith(b"%PDF"):
        said = next((line for line in result.stderr.decode("utf-8", "replace").splitlines() if line.strip()), "no message")
        raise AetherpressError(Problem("command line", f"PDF/X-1a: Ghostscript could not flatten the file: {said}"))
    return result.stdout


def _stamped(pdf: bytes, over: bytes) -> bytes:
    """Each page of ``pdf`` with the page of ``over`` of the same number drawn over it (same page size)."""
    # pikepdf loads only for print-shop files
    import pikepdf
    from pikepdf import Name

    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as doc, pikepdf.open(io.BytesIO(over)) as layer:
        if len(doc.pages) != len(layer.pages):
            raise ValueError("the text layer has another number of pages")
        for page, text in zip(doc.pages, layer.pages, strict=True):
            form = doc.copy_foreign(text.as_form_xobject())
            page.add_resource(form, Name.XObject, Name(_TEXT_LAYER))
            page.contents_add(b"q\n", prepend=True)
            page.contents_add(f"\nQ q {_TEXT_LAYER} Do Q\n".encode(), prepend=False)
        doc.save(out, deterministic_id=True)
    return out.getvalue()
