"""What the stages consult and the definitions check names against: the font families and a project's
font files, the names of the symbol library, the limits of the template sandbox, and the allow-list of what a
card's SVG may hold (``allowlist.toml``).

The modules are imported by name (``generator.resources.fonts`` ...).
"""

__all__: list[str] = []  # the modules are imported by name
