"""Adapters: every use of a library's private members, and every patch of its globals, in one module per library.

A library's internals change without notice between releases.  Kept here, each
private name is written once, pinned by an upper bound in ``pyproject.toml``
and checked by a test that fails when the installed library no longer has it
(``PRIVATE_NAMES`` in each adapter).
"""

__all__: list[str] = []
