"""The exports: one module each, registered in one registry (see :mod:`.exportkinds`)."""

from __future__ import annotations

from .exportkinds import EXPORTS, Export, ExportJob, Option, exports_table, option_error, register

# the export modules, each registering its export as it loads, in the order the help and the README list them
# isort: off
from . import pod_export, png_export, svg_export, tts_export, cgs_export, foundry_export  # noqa: F401
# isort: on

__all__ = ["EXPORTS", "Export", "ExportJob", "Option", "exports_table", "option_error", "register"]
