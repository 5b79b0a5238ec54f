"""Stage four: card SVG drawn into PDF (sheets, card pages, forms), colour conversion and PNG."""
