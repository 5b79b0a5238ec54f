"""ISBNs: a rulebook's ``isbn`` checked and written as the 13 digits its EAN-13 barcode carries."""

from __future__ import annotations

import re


class IsbnError(ValueError):
    """An ISBN that is not one."""


def isbn13(text: str) -> str:
    """The 13 digits of an ISBN given as ISBN-13 or ISBN-10 (hyphens and spaces allowed), its check digit checked."""
    digits = re.sub(r"[\s-]", "", text.upper().removeprefix("ISBN").strip(":"))
    if re.fullmatch(r"\d{9}[\dX]", digits):
        if sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(digits)) % 11:
            raise IsbnError(f"'{text}' is no ISBN: its check digit is wrong")
        digits = "978" + digits[:9]
        return digits + _check13(digits)
    if not re.fullmatch(r"97[89]\d{10}", digits):
        raise IsbnError(f"'{text}' is no ISBN: an ISBN has 13 digits starting 978 or 979 (or 10 digits)")
    if _check13(digits[:12]) != digits[12]:
        raise IsbnError(f"'{text}' is no ISBN: its check digit should be {_check13(digits[:12])}")
    return digits


def _check13(twelve: str) -> str:
    return str(-sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(twelve)) % 10)
