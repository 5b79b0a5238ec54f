"""Reading print-shop PDFs back with pikepdf: every content stream, image, shading, font and graphics state;
the checks every print-shop PDF passes (cards and books alike)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pikepdf
import pytest
from pikepdf import Name

from generator.render.icc import STOCKS, shipped_profile

RGB_NAMES = {"/DeviceRGB", "/RGB", "/CalRGB"}
GOOD_SPACES = {"/DeviceCMYK", "/CMYK", "/DeviceGray", "/G", "/Pattern"}


@dataclass
class Report:
    """What a PDF draws with: colour spaces by kind of object, CMYK fill totals, fonts, transparency."""

    spaces: dict[str, set[str]] = field(default_factory=dict)  # kind of use -> colour space names
    rgb_operators: int = 0
    cmyk_totals: list[float] = field(default_factory=list)
    images: list[tuple[str, str, int, int]] = field(default_factory=list)  # (inline|xobject, space, w, h)
    fonts: dict[str, bool] = field(default_factory=dict)  # base font -> embedded
    transparency: list[str] = field(default_factory=list)
    streams: int = 0

    def add(self, kind: str, space: str) -> None:
        self.spaces.setdefault(kind, set()).add(space)

    @property
    def all_spaces(self) -> set[str]:
        return set().union(*self.spaces.values()) if self.spaces else set()


def space_name(space) -> str:
    """A colour space as a name; ICCBased spaces by their component count, Indexed by their base."""
    if isinstance(space, pikepdf.Name):
        return str(space)
    if isinstance(space, pikepdf.Array) and len(space):
        kind = str(space[0])
        if kind == "/ICCBased":
            return {1: "/ICCBased-Gray", 3: "/ICCBased-RGB", 4: "/ICCBased-CMYK"}[int(space[1].get("/N"))]
        if kind in ("/Indexed", "/I"):
            return "/Indexed-" + space_name(space[1]).lstrip("/")
        if kind in ("/Separation", "/DeviceN"):
            return kind + "-" + space_name(space[2]).lstrip("/")
        return kind
    return str(space)


def _resolve(space, resources) -> str:
    name = space_name(space)
    if name in GOOD_SPACES or name in RGB_NAMES:
        return name
    spaces = resources.get("/ColorSpace") if resources is not None else None
    if spaces is not None and name in spaces:
        return space_name(spaces[name])
    return name


def check_graphics_state(state, report: Report, where: str) -> None:
    for key in ("/CA", "/ca"):
        if key in state and float(state[key]) < 1:
            report.transparency.append(f"{where}: {key} {float(state[key])}")
    if "/SMask" in state and state["/SMask"] != Name.None_:
        report.transparency.append(f"{where}: soft mask")
    if "/BM" in state and str(state["/BM"]) not in ("/Normal", "/Compatible"):
        report.transparency.append(f"{where}: blend mode {state['/BM']}")


def check_fonts(resources, report: Report) -> None:
    for font in (resources.get("/Font") or {}).values():
        fonts = [font] + list(font.get("/DescendantFonts", []))
        for f in fonts:
            descriptor = f.get("/FontDescriptor")
            if descriptor is None and str(f.get("/Subtype")) == "/Type0":
                continue
            embedded = descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            report.fonts[str(f.get("/BaseFont"))] = embedded


def walk(container, resources, report: Report, seen: set, where: str) -> None:
    """Every operator of a page or form, and every resource it names, recursively through forms."""
    report.streams += 1
    resources = resources if resources is not None else pikepdf.Dictionary()
    check_fonts(resources, report)
    for name, state in (resources.get("/ExtGState") or {}).items():
        check_graphics_state(state, report, f"{where} {name}")
    for shading in (resources.get("/Shading") or {}).values():
        report.add("shading", _resolve(shading.get("/ColorSpace"), resources))
    for pattern in (resources.get("/Pattern") or {}).values():
        if "/Shading" in pattern:
            report.add("shading", _resolve(pattern["/Shading"].get("/ColorSpace"), resources))
    for operands, operator in pikepdf.parse_content_stream(container):
        op = str(operator)
        if op in ("rg", "RG"):
            report.rgb_operators += 1
        elif op in ("k", "K"):
            report.cmyk_totals.append(sum(float(v) for v in operands))
            report.add("vector", "/DeviceCMYK")
        elif op in ("g", "G"):
            report.add("vector", "/DeviceGray")
        elif op in ("cs", "CS"):
            report.add("vector", _resolve(operands[0], resources))
        elif op == "INLINE IMAGE":
            image = operands[0]
            space = _resolve(image.obj.get("/CS", image.obj.get("/ColorSpace")), resources)
            report.add("inline image", space)
            report.images.append(("inline", space, int(image.width), int(image.height)))
        elif op == "Do":
            xobject = resources["/XObject"][operands[0]]
            key = xobject.objgen
            subtype = str(xobject.get("/Subtype"))
            if subtype == "/Image":
                space = _resolve(xobject.get("/ColorSpace"), resources)
                report.add("image xobject", space)
                report.images.append(("xobject", space, int(xobject.Width), int(xobject.Height)))
                if "/SMask" in xobject:
                    report.transparency.append(f"{where}: image with a soft mask")
            elif subtype == "/Form" and key not in seen:
                seen.add(key)
                group = xobject.get("/Group")
                if group is not None and str(group.get("/S")) == "/Transparency":
                    report.transparency.append(f"{where}: transparency group")
                    if "/CS" in group:
                        report.add("group", _resolve(group["/CS"], resources))
                walk(xobject, xobject.get("/Resources"), report, seen, f"{where} form {operands[0]}")


def inspect(pdf: pikepdf.Pdf) -> Report:
    report = Report()
    seen: set = set()
    for n, page in enumerate(pdf.pages):
        group = page.obj.get("/Group")
        if group is not None:
            report.transparency.append(f"page {n + 1}: page group")
            if "/CS" in group:
                report.add("group", space_name(group["/CS"]))
        walk(page, page.obj.get("/Resources"), report, seen, f"page {n + 1}")
    return report


PT = 72 / 25.4
GS_ROUNDING = 4 / 2048  # Ghostscript writes each ink of a flattened file to the nearest 1/1024


def assert_pdfx(pdf: pikepdf.Pdf, level: str, stock: str = "coated") -> None:
    """The output intent (the stock's shipped profile), the version keys and metadata of PDF/X ``level``."""
    (intent,) = pdf.Root.OutputIntents
    assert intent.Type == "/OutputIntent" and intent.S == "/GTS_PDFX"
    assert str(intent.OutputConditionIdentifier) == STOCKS[stock].identifier
    assert str(intent.RegistryName) == "http://www.color.org"
    profile = intent.DestOutputProfile
    assert int(profile.N) == 4 and profile.read_bytes() == shipped_profile(stock).data
    info = pdf.docinfo
    assert info.Trapped == "/False" and str(info.Title) and "CreationDate" in str(info.keys())
    if level == "4":
        assert str(info.GTS_PDFXVersion) == "PDF/X-4"
        assert pdf.pdf_version <= "1.6"
        meta = pdf.open_metadata()
        assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
        assert meta["dc:title"] == str(info.Title)
        assert meta["xmpMM:DocumentID"].startswith("uuid:") and meta["xmpMM:VersionID"] == "1"
        assert meta["xmpMM:RenditionClass"] == "default" and meta["pdf:Trapped"] == "False"
        assert meta["xmp:CreateDate"].startswith("2000-01-01")
    elif level == "1a":
        assert str(info.GTS_PDFXVersion) == "PDF/X-1:2001" and str(info.GTS_PDFXConformance) == "PDF/X-1a:2001"
        assert pdf.pdf_version == "1.3" and "/Metadata" not in pdf.Root
    else:  # what DriveThruCards' guide asks for, by default
        assert level == "1a:2003" and str(info.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert "/GTS_PDFXConformance" not in info
        assert pdf.pdf_version == "1.4" and "/Metadata" not in pdf.Root
    assert len(pdf.trailer.ID) == 2


def assert_boxes(pdf: pikepdf.Pdf, bleed: float, margin: float | None = None) -> list[tuple[float, float]]:
    """Every page: a TrimBox ``bleed`` mm inside its BleedBox, which lies ``margin`` - ``bleed`` mm inside the
    MediaBox (``margin`` the trim's distance from the sheet's edge; by default the bleed: no room for marks);
    never an ArtBox.  The trims' sizes in mm."""
    margin = bleed if margin is None else margin
    sizes = []
    for page in pdf.pages:
        media = [float(v) for v in page.MediaBox]
        trim = [float(v) for v in page.TrimBox]
        expected = [margin * PT, margin * PT, media[2] - margin * PT, media[3] - margin * PT]
        assert trim == pytest.approx(expected, abs=0.01)
        out = (margin - bleed) * PT
        assert [float(v) for v in page.BleedBox] == pytest.approx([out, out, media[2] - out, media[3] - out], abs=0.01)
        assert "/ArtBox" not in page.obj  # PDF/X: a TrimBox or an ArtBox, never both
        sizes.append(((trim[2] - trim[0]) / PT, (trim[3] - trim[1]) / PT))
    return sizes


def assert_press_colour(pdf: pikepdf.Pdf, level: str, limit: float) -> Report:
    """No RGB anywhere, only process spaces, every font embedded, ink within ``limit`` (2.4 = 240 %), nothing
    transparent in PDF/X-1a; the report."""
    report = inspect(pdf)
    assert report.streams >= len(pdf.pages)
    assert report.rgb_operators == 0
    assert report.all_spaces <= GOOD_SPACES, report.spaces
    assert report.fonts and all(report.fonts.values()), report.fonts
    flattened = level.startswith("1a")
    assert report.cmyk_totals and max(report.cmyk_totals) <= limit + (GS_ROUNDING if flattened else 1e-3)
    if flattened:
        assert report.transparency == []
    return report


def numbered_pdf(n: int) -> bytes:
    """An A5 PDF of ``n`` pages, each saying its number ("page1", "page2", ...): to follow pages through imposition."""
    import io

    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(148 * mm, 210 * mm), invariant=1, initialFontName="Times-Roman")
    for i in range(n):
        canvas.setFont("Times-Roman", 40)
        canvas.drawString(60, 300, f"page{i + 1}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
