"""The game art: the symbol library and the art in several colours (dragons, crests, spell icons), as vector paths.

Drawn by the templates' ``symbol``, ``symbols`` and ``art``; the modules are imported by name
(``generator.art.symbols`` ...).  The definitions know only the symbols' names
(:mod:`generator.resources.symbolnames`), so reading a deck does not load the drawings.
"""

__all__: list[str] = []  # the modules are imported by name
