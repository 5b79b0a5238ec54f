"""Stage two: card templates drawn into SVG faces and backs, with fitted text, symbols and shipped fonts.

The modules are imported by name (``generator.faces.render`` ...); ``fonts``
and ``symbols`` are also read by the definitions stage to check names.
"""
