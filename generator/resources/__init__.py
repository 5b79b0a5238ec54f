"""What the stages consult and the definitions check names against: the font families and a project's
font files, the names of the symbol library, and the limits of the template sandbox.

The modules are imported by name (``generator.resources.fonts`` ...).
"""

__all__: list[str] = []  # the modules are imported by name
