"""Stage two: card templates drawn into SVG faces and backs, with fitted text, symbols, art and fonts.

The modules are imported by name (``generator.faces.render`` ...).
"""

__all__: list[str] = []  # the modules are imported by name
