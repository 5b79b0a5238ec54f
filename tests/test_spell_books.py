"""The books print the engine's figures: spell odds in Founder's Flip, row strategy in Fivefold Arrangement."""

from __future__ import annotations

import re

import pytest

from generator.hands import load_games
from generator.rulebook.bookodds import format_interval, format_points, format_probability
from tests.contexts import hands_of

from .test_rulebook import pdf_text, squash

# counts the odds of every spell: left out of the quick run (pytest -m 'not slow')
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def texts(book_pdf):
    return {b: pdf_text(book_pdf(b)) for b in ("founders-flip", "fivefold-arrangement")}


def test_every_hand_changing_spell_has_its_odds_in_the_book(project, texts):
    text = squash(texts["founders-flip"])
    game = load_games(project)["founders-flip"]
    deal = hands_of(project).odds_table("founders-flip")
    section = text[text.rindex(squash("The odds under each spell")) :]  # the appendix's section, not its contents line
    for mid, modifier in game.modifiers.items():
        assert squash(modifier.title) in section, mid
        table = hands_of(project).odds_table("founders-flip", modifiers=[mid])
        if modifier.ranking:
            assert squash(f"{table.total:,}") in section, mid
            continue
        start = section.index(squash(modifier.title))
        part = section[start : start + 3000]
        for c in table.categories:
            dealt = next((d for d in deal.categories if d.name == c.name), None)
            if modifier.reverse is not None or dealt is None or abs(dealt.probability - c.probability) > 5e-5:
                # the category's row: its name, then the deal's chance, then the chance under the spell
                assert squash(c.name) in part, (mid, c.name)
                assert squash(format_probability(c.probability, c.interval)) in part, (mid, c.name)
                if c.interval is not None:
                    assert squash(format_interval(c.interval, c.probability)) in part, (mid, c.name)
    simulated = hands_of(project).odds_table("founders-flip", modifiers=["in-wrought-arcanum"])
    assert squash(f"come from {simulated.trials:,} deals played out at random") in section
    assert squash(f"counted over all {simulated.deals:,} deals") in section
    kept = section[section.index(squash("Card kept")) :]
    for rank, cells in _kept_figures(simulated).items():
        assert squash(" ".join(format_probability(x, i, 1) for x, i in cells)) in kept, rank


def _kept_figures(table) -> dict[str, list]:
    """The kept-card table's figures by rank: (share, interval that holds with all the table's figures at once)."""
    together = 3 * len(table.kept)
    out = {}
    for rank in table.kept:
        cells = [table.kept_share(rank, best, together) for best in ("Straight", "Flush", "One Pair")]
        share, (lo, hi) = cells[2]
        cells[2] = (1 - share, (1 - hi, 1 - lo))
        out[rank] = cells
    return out


def test_the_kept_card_tables_bound_holds_for_every_figure_as_printed(project, texts):
    """The bound the book states holds for what it prints, rounding included: every printed figure is within
    it of both ends of the figure's interval (so of any share the interval holds)."""
    from decimal import Decimal

    text = " ".join(texts["founders-flip"].split())
    said = re.search(r"Every figure of this table lies within ([0-9.]+) percentage points", text)
    assert said is not None
    bound = Decimal(said.group(1))
    table = hands_of(project).odds_table("founders-flip", modifiers=["in-wrought-arcanum"])
    printed_all = []
    for cells in _kept_figures(table).values():
        for share, (lo, hi) in cells:
            printed = Decimal(format_probability(share, (lo, hi), 1).rstrip(" %"))
            printed_all.append(printed)
            assert printed - Decimal(repr(lo)) * 100 <= bound and Decimal(repr(hi)) * 100 - printed <= bound, (printed, lo, hi)
            assert squash(f"{printed} %") in squash(text)
    assert len(printed_all) == 3 * len(table.kept) and bound < 1


def test_spells_that_leave_hands_alone_are_named(project, texts, definitions):
    text = squash(texts["founders-flip"])
    game = load_games(project)["founders-flip"]
    others = [c.name for c in definitions["aetherial"].build(()).cards if c.id not in game.modifiers]
    assert squash("The other spells — " + ", ".join(others)) in text


def test_fivefold_strategy_tables(project, texts):
    text = texts["fivefold-arrangement"]
    flat = squash(text)
    assert "Choosing your row" in text and text.index("Rulings") < text.index("Choosing your row")
    for sid, setup in hands_of(project).row_table("fivefold-arrangement").items():
        start = flat.index(squash(f"{setup.title}Both rows") if setup.setup.shared_draws else squash(f"{setup.title}Each player"))
        part = flat[start:]
        assert squash(f"{setup.total:,}") in part
        for row in setup.best(5) + setup.worst(5):
            line = squash(
                f"{setup.row_label(row)} {row.orders:,} {format_points(row.expected)} "
                f"{format_probability(float(row.chance(0)))} {format_probability(float(row.win))} "
                f"{format_probability(float(row.tie))}"
            )
            assert line in part, (sid, line)
        picked = setup.best(3) + setup.worst(1)
        head = part[part.index(squash("Head to head")) :]
        for a in picked:
            cells = "".join(
                squash(f"{format_probability(float(w))} · {format_probability(float(t))}".replace("\u00a0%", ""))
                for w, t, _ in (setup.head_to_head(a, b) for b in picked)
            )
            assert cells in head, (sid, setup.row_label(a))
    assert re.search(r"Five cards are turned from the draw deck\s+without\s+replacement", text)


def test_the_spell_reference_says_in_a_line_what_each_spell_does_to_the_odds(project, texts):
    """One line per hand-changing spell, worked out from the counted odds, in the spell reference (the rules
    part); the tables and any talk of simulations and intervals wait for the appendix."""
    from generator.rulebook.oddsline import change_line

    text = squash(texts["founders-flip"])
    rules = text.split(squash("Odds and strategy This appendix"))[0]
    reference = rules[rules.rindex(squash("Spell reference")) :]
    deal = hands_of(project).odds_table("founders-flip")
    lines = {}
    for mid, modifier in load_games(project)["founders-flip"].modifiers.items():
        line = change_line(hands_of(project).odds_table("founders-flip", modifiers=[mid]), deal)
        lines[mid] = line
        at = reference.index(squash(modifier.title))
        assert squash(f"Odds: {line}.") in reference[at : at + 900], (mid, line)
    assert lines["a-rainbow-in-light-and-pigment"] == "A Flush becomes seven times likelier"
    for jargon in ("seed", "99.9 %", "interval", "simulation"):
        assert jargon not in rules, jargon
    assert squash("Almost surely between") in text
