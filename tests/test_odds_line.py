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
    assert change_line(legacy, DEAL) == "1 in 14.4 hands are Legacy, a new hand"
    lost = _table(losing="Cannot win", Flush=0.033, One_Pair=0.30, High_Card=0.485, Cannot_win=0.182)
    assert change_line(lost, DEAL) == "1 in 5.5 hands cannot win"
    turned = _table(Flush=0.033, High_Card=0.597, One_Pair=0.37)
    assert change_line(turned, DEAL) == "Every hand keeps its chance from the deal, but High Card now comes right after Flush"
    assert change_line(_table(Flush=0.033, One_Pair=0.37, High_Card=0.597), DEAL) == "Every hand keeps its chance from the deal"
    six = _table("gage", 6, Three_Pair=0.1, One_Pair=0.494, High_Card=0.406)
    assert change_line(six, DEAL) == "Hands of six cards with a ranking of their own; the commonest is One Pair (49.4 %)"
