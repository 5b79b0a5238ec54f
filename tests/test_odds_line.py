"""The one line a spell's odds become in a spell reference: worked out from two tables, in a player's words."""

from __future__ import annotations

from types import SimpleNamespace

from generator.rulebook.oddsline import change_line


def _table(ranking: str = "standard", hand_size: int = 4, losing: str | None = None, **chances: float):
    categories = tuple(
        SimpleNamespace(name=name.replace("_", " "), probability=p, one_in=(1 / p if p else None)) for name, p in chances.items()
    )
    return SimpleNamespace(ranking=ranking, hand_size=hand_size, categories=categories, losing=losing)


DEAL = _table(Flush=0.033, One_Pair=0.37, High_Card=0.597)


def test_the_hand_that_moves_most_says_it():
    assert change_line(_table(Flush=0.224, One_Pair=0.31, High_Card=0.466), DEAL) == "A Flush becomes seven times likelier"
    assert change_line(_table(Flush=0.033, One_Pair=0.88, High_Card=0.087), DEAL) == "High Card becomes seven times rarer"
    assert change_line(_table(Flush=0.0, One_Pair=0.40, High_Card=0.60), DEAL) == "A Flush can no longer be made"
    assert change_line(_table(Flush=0.066, One_Pair=0.37, High_Card=0.564), DEAL) == "A Flush becomes twice as likely"


def test_new_hands_a_losing_hand_an_order_turned_and_a_ranking_of_its_own():
    legacy = _table(Legacy=0.0694, Flush=0.03, One_Pair=0.34, High_Card=0.5606)
    assert change_line(legacy, DEAL) == "1\u00a0in\u00a014.4 hands are Legacy, a new hand"
    lost = _table(losing="Cannot win", Flush=0.033, One_Pair=0.30, High_Card=0.485, Cannot_win=0.182)
    assert change_line(lost, DEAL) == "1\u00a0in\u00a05.5 hands cannot win"
    turned = _table(Flush=0.033, High_Card=0.597, One_Pair=0.37)
    assert change_line(turned, DEAL) == "Every hand keeps its chance from the deal, but High Card now comes right after Flush"
    assert change_line(_table(Flush=0.033, One_Pair=0.37, High_Card=0.597), DEAL) == "Every hand keeps its chance from the deal"
    six = _table("gage", 6, Three_Pair=0.1, One_Pair=0.494, High_Card=0.406)
    assert change_line(six, DEAL) == "Hands of six cards with a ranking of their own; the commonest is One Pair (49.4\u00a0%)"


def _moved(now: float, then: float = 0.2) -> str:
    """The line for a Flush whose chance moves from ``then`` to ``now`` (nothing else moves)."""
    return change_line(_table(Flush=now, High_Card=0.5), _table(Flush=then, High_Card=0.5))


def test_ratio_words_are_true_to_their_rounding():
    # within a factor of two, whole percent: never "half as likely" for 0.558 of the chance, nor "twice" for 1.5
    assert _moved(0.1116) == "A Flush becomes 44 % rarer"
    assert _moved(0.134) == "A Flush becomes 33 % rarer"
    assert _moved(0.3) == "A Flush becomes 50 % likelier"
    assert _moved(0.398) == "A Flush becomes 99 % likelier"
    # "twice" and "half" only where the percent or the whole multiple rounds to them
    assert _moved(0.3995) == "A Flush becomes twice as likely"
    assert _moved(0.1) == "A Flush becomes half as likely"
    assert _moved(0.09) == "A Flush becomes half as likely"  # 2.2 times rarer, to the whole multiple two
    assert _moved(0.07) == "A Flush becomes three times rarer"  # 2.86
    for now in (0.02, 0.05, 0.08, 0.1, 0.11, 0.15, 0.19, 0.21, 0.3, 0.4, 0.45, 0.6, 0.9):
        ratio, line = now / 0.2, _moved(now)
        if "%" in line:  # the percent stated is the change rounded to a whole percent
            share = int(line.split()[-3])
            assert abs(share - abs(ratio - 1) * 100) <= 0.5 and (0.5 < ratio < 2)
        else:  # the multiple stated is the ratio (or its inverse) rounded to a whole number
            said = {"twice as likely": 2, "half as likely": 2}.get(" ".join(line.split()[-3:]))
            times = said or ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].index(line.split()[-3]) + 2
            assert abs(times - max(ratio, 1 / ratio)) <= 0.5, (now, line)
