"""Form XObjects that carry every resource they use.

reportlab's ``Canvas.endForm`` gives a form a resource dictionary with fonts
and nested forms only.  A form that draws a gradient (a shading) or uses
transparency (an ExtGState) then names resources it does not have: pdfium
forgives that, but poppler, Acrobat's preflight and print-shop RIPs do not,
and gradients or opacity silently vanish.  :func:`end_form` closes a form
with a full resource dictionary, exactly as reportlab does for a page.
"""

from __future__ import annotations

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas


class _CompleteForm(pdfdoc.PDFFormXObject):
    """A form whose resources include its shadings, colour spaces and graphics states."""

    ExtGState = None
    Resources = None
    _shadingUsed: dict = {}
    _colorsUsed: dict = {}

    def format(self, document):
        if not self.Resources:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if self.ExtGState:
                resources.ExtGState = self.ExtGState
            resources.setShading(self._shadingUsed)
            resources.setColorSpace(self._colorsUsed)
            self.Resources = resources
        return super().format(document)


def end_form(canvas: Canvas) -> None:
    """Like ``canvas.endForm()``, but the form keeps every resource it names."""
    name, lowerx, lowery, upperx, uppery = canvas._formData
    width, height = canvas._pagesize
    form = _CompleteForm(
        lowerx=lowerx, lowery=lowery, upperx=width if upperx is None else upperx, uppery=height if uppery is None else uppery
    )
    form.compression = canvas._pageCompression
    form.setStreamList([canvas._preamble] + canvas._code)
    canvas._setColorSpace(form)
    canvas._setExtGState(form)
    canvas._setXObjects(form)
    form._shadingUsed = dict(canvas._shadingUsed)
    canvas._doc.addForm(name, form)
    canvas._restartAccumulators()
    canvas.pop_state_stack()
