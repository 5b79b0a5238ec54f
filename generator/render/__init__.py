"""Stage four: card SVG drawn into PDF (sheets, card pages, forms), colour conversion and PNG."""

__all__: list[str] = []  # the modules are imported by name
