"""Widths in a book's figures and tables: pictures set in even rows, columns that fill the text's width."""

from __future__ import annotations


def balanced_rows(widths: list[float], room: float) -> list[list[int]]:
    """The pictures of a figure (their ``widths``) in as few rows as fit in ``room``, the rows as even as
    can be: eight cards that need two rows go four and four, never seven and one."""
    count = len(widths)
    for lines in range(1, count + 1):
        base, extra = divmod(count, lines)
        sizes = [base + (1 if line < extra else 0) for line in range(lines)]
        rows, start = [], 0
        for size in sizes:
            rows.append(list(range(start, start + size)))
            start += size
        if all(sum(widths[i] for i in row) <= room for row in rows):
            return rows
    return [[i] for i in range(count)]


def fit_columns(natural: list[float], minimum: list[float], width: float) -> list[float]:
    """Column widths that fill ``width``.

    When everything fits on one line, columns keep their natural widths, stretched
    to the measure, so that every table is as wide as the text.  Otherwise short columns keep their
    natural width (so a short cell never wraps) and the long ones share what is
    left in proportion to their natural widths, never below their longest word.
    """
    natural = [n + 2.0 for n in natural]  # a little slack against rounding in the measure
    if sum(natural) <= width:
        spare = width - sum(natural)
        return [n + spare * n / sum(natural) for n in natural]
    widths: dict[int, float] = {}
    open_cols = list(range(len(natural)))
    remaining = width
    while open_cols:
        share = remaining / len(open_cols)
        small = [c for c in open_cols if natural[c] <= share]
        if not small:
            break
        for c in small:
            widths[c] = natural[c]
            remaining -= natural[c]
            open_cols.remove(c)
    if open_cols:
        total = sum(natural[c] for c in open_cols)
        for c in open_cols:
            widths[c] = max(minimum[c], remaining * natural[c] / total)
    out = [widths[c] for c in range(len(natural))]
    excess = sum(out) - width
    if excess > 0.01:  # minimums overflowed: take it back from the widest columns
        for c in sorted(range(len(out)), key=lambda c: -out[c]):
            give = min(excess, out[c] - minimum[c])
            if give > 0:
                out[c] -= give
                excess -= give
            if excess <= 0.01:
                break
    return out
