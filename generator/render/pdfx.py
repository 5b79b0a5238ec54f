"""PDF/X for print shops: an output intent with the CMYK profile, version keys and matching XMP.

reportlab draws the CMYK pages (with TrimBox and BleedBox and embedded
fonts); this module turns that file into PDF/X with pikepdf:

- ``4`` (PDF/X-4, the default): transparency allowed; ``GTS_PDFXVersion`` in
  the document information and in XMP metadata with the ids PDF/X-4 asks for.
- ``1a`` (PDF/X-1a:2001, PDF 1.3) and ``1a:2003`` (PDF/X-1a:2003, PDF 1.4, the
  version DriveThruCards' card guide asks for): no transparency.  The pages
  given are already free of it (cards: :mod:`.presspiece`; books:
  :mod:`.flatten`); what is left of transparency groups and neutral graphics
  states is taken away, and a page that still paints anything transparent is
  an error, never a file that prints otherwise than it shows.

Dates come from the drawn file (fixed, so files are reproducible) and the
file identifier is computed from the content.
"""

from __future__ import annotations

import hashlib
import io
import uuid
import zlib
from functools import cache
from typing import TYPE_CHECKING

from ..definitions.shops import PDFX_LEVELS
from .icc import REGISTRY, OutputProfile
from .transparency import drop_markers

if TYPE_CHECKING:
    import pikepdf

_PDF_VERSION = {"4": "1.6", "1a": "1.3", "1a:2003": "1.4"}  # the newest PDF each level allows


def make_pdfx(pdf: bytes, profile: OutputProfile, level: str = "4") -> bytes:
    """The CMYK ``pdf`` as PDF/X-4, PDF/X-1a:2001 or PDF/X-1a:2003 with ``profile`` as its output intent; for
    PDF/X-1a, ``pdf`` must paint nothing transparent (ValueError otherwise)."""
    import pikepdf  # only print-shop files need it

    # pikepdf loads only for print-shop files
    from pikepdf import Name, String

    if level not in PDFX_LEVELS:
        raise ValueError(f"unknown PDF/X level {level!r}")
    with pikepdf.open(io.BytesIO(pdf)) as source:
        info: dict[str, str] = {str(k): str(v) for k, v in source.docinfo.items() if isinstance(v, String)}
        lang = str(source.Root.Lang) if Name.Lang in source.Root else ""
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as doc:
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
            drop_markers(doc)
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
            object_stream_mode=pikepdf.ObjectStreamMode.disable,  # PDF 1.3 and 1.4 know no object streams
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
