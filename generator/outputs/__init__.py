"""Stage five: files a person prints or loads: sheets, print-shop files, PNG, SVG, TTS, proofs, calibration."""

__all__: list[str] = []  # the modules are imported by name
