"""Stage three: where each card goes on a sheet, and where each page goes in a booklet.  Pure math."""

__all__: list[str] = []  # the modules are imported by name
