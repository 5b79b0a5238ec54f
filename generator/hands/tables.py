"""An odds table: each category's count, probability (exact, or simulated with its interval) and example."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from .figures import outward
from .simulate import CONFIDENCE, wilson


@dataclass(frozen=True)
class CategoryOdds:
    name: str
    description: str
    count: int
    pattern: int
    probability: float
    one_in: float | None
    subcounts: dict | None
    example: tuple[str, ...] | None
    interval: tuple[float, float] | None = None  # the interval of the probability (simulated figures, 99.9 %)
    fraction: Fraction = Fraction(0)  # the probability as a fraction: exact, or the simulation's estimate

    @property
    def exact(self) -> bool:
        """Was this figure counted (not simulated)?"""
        return self.interval is None


@dataclass(frozen=True)
class OddsTable:
    game: str
    ranking: str
    deck: str
    hand_size: int
    total: int
    categories: tuple[CategoryOdds, ...]
    modifiers: tuple[str, ...] = ()
    deck_key: str = ""
    title: str = ""
    ranking_title: str = ""
    deck_title: str = ""
    cards: int = 0
    method: str = "exact"  # or "simulation"
    trials: int | None = None
    seed: int | None = None
    modifier_titles: tuple[str, ...] = ()
    losing: str | None = None  # the category of hands a requirement leaves without value
    kept: dict | None = None  # a simulated grid with one kept card: rank -> counts per category (in this order)
    deals: int | None = None  # every deal, when some categories of a simulated table are counted exactly over them

    @property
    def simulated(self) -> bool:
        return self.method == "simulation"

    @property
    def confidence(self) -> float | None:
        """How surely a simulated figure's interval holds its true chance (None for a counted table)."""
        return CONFIDENCE if self.simulated else None

    def kept_share(self, rank: str, best: str, together: int = 1) -> tuple[float, tuple[float, float]]:
        """Under a grid with one kept card: the share of deals, with the kept card of this rank, whose
        hand is ``best`` or better, and its interval (:data:`.simulate.CONFIDENCE`), or, for one of ``together``
        figures printed side by side, wide enough that all of them hold their true shares together at that
        confidence (each at 1 - (1 - confidence) / ``together``, Bonferroni's bound)."""
        counts = (self.kept or {})[rank]
        names = [c.name for c in self.categories]
        hits = sum(counts[: names.index(best) + 1])
        z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / (2 * max(1, together)))
        return hits / sum(counts), wilson(hits, sum(counts), z)

    def kept_leaders(self, best: str, most: bool = True) -> list[str]:
        """Under a grid with one kept card: the rank whose share of ``best`` or better is highest (lowest,
        with ``most`` false), then every other rank the simulation cannot tell from it (their
        intervals overlap), in rank order.  One rank alone is a finding; several are a tie."""
        shares = {rank: self.kept_share(rank, best) for rank in self.kept or {}}
        if not shares:
            return []
        pick = max if most else min
        top = pick(shares, key=lambda rank: shares[rank][0])
        lo, hi = shares[top][1]
        return [top] + [r for r, (_, (a, b)) in shares.items() if r != top and a <= hi and b >= lo]

    def category(self, name: str) -> CategoryOdds:
        for c in self.categories:
            if c.name == name:
                return c
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "ranking": self.ranking,
            "deck": self.deck,
            "hand_size": self.hand_size,
            "total": self.total,
            "method": self.method,
        }
        if self.simulated:
            out.update(trials=self.trials, seed=self.seed, confidence=CONFIDENCE)
            if self.deals is not None:
                out["deals"] = self.deals
        if self.modifiers:
            out["modifiers"] = list(self.modifiers)
        if self.kept:
            out["by_kept_card"] = [
                {
                    "rank": rank,
                    "trials": sum(counts),
                    "counts": {c.name: n for c, n in zip(self.categories, counts)},
                }
                for rank, counts in self.kept.items()
            ]
        cats = []
        for c in self.categories:
            row: dict[str, Any] = {
                "name": c.name,
                "count": c.count,
                "pattern": c.pattern,
                "probability": float(f"{c.probability:.3g}"),
                "fraction": [c.fraction.numerator, c.fraction.denominator],
            }
            if self.simulated:
                row.update(exact=c.exact, of=self.deals if c.exact else self.trials)
            if c.subcounts is not None:
                row["subcounts"] = dict(c.subcounts)
            if c.interval is not None:
                row["interval"] = list(outward(c.interval, 3))
            cats.append(row)
        out["categories"] = cats
        return out

    def audit(self) -> dict[str, list]:
        """Advice for the designer: categories no hand takes, and every pair of categories out of rarity order
        (a higher one more common than any lower one, however many categories lie between them, unreachable
        ones too).

        From a simulation, a category is reported unreachable when no simulated deal took it,
        and two categories out of order only when their intervals do not overlap."""
        unreachable = [c.name for c in self.categories if c.count == 0]
        inverted = []
        ranked = [c for c in self.categories if c.count and c.name != self.losing]
        for i, hi in enumerate(ranked):
            for lo in ranked[i + 1 :]:
                if hi.fraction <= lo.fraction:
                    continue
                if hi.interval is not None and lo.interval is not None and hi.interval[0] <= lo.interval[1]:
                    continue
                inverted.append((hi.name, hi.count, lo.name, lo.count))
        return {"unreachable": unreachable, "inverted": inverted}


def shares_of(raw: dict) -> list[tuple[Fraction, tuple[float, float] | None]]:
    """Each category's probability in a simulated table, and its interval (None: counted exactly).

    Categories counted exactly (``raw["exact"]``) keep their exact share; the others share what
    is left, q, in proportion to the simulated deals that fell among them: p = q x h / H, whose
    interval is q times the Wilson interval of h in H."""
    counts, total = raw["counts"], raw["total"]
    exact = {int(i): n for i, n in raw.get("exact", {}).get("counts", {}).items()}
    if not exact:
        return [(Fraction(h, total), wilson(h, total)) for h in counts]
    everything = raw["exact"]["total"]
    left = Fraction(everything - sum(exact.values()), everything)
    rest = sum(h for i, h in enumerate(counts) if i not in exact)
    out: list[tuple[Fraction, tuple[float, float] | None]] = []
    for i, h in enumerate(counts):
        if i in exact:
            out.append((Fraction(exact[i], everything), None))
        elif rest == 0:
            out.append((Fraction(0), (0.0, float(left))))
        else:
            lo, hi = wilson(h, rest)
            out.append((left * Fraction(h, rest), (float(left) * lo, float(left) * hi)))
    return out
