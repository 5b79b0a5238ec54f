"""A project's context for the tests: its games on their decks (kept per project for the run), its sides and sheets."""

from __future__ import annotations

from generator.hands import Hands
from generator.pipeline.context import ProjectContext
from generator.pipeline.keptsides import Sides
from generator.project import Project

_HANDS: dict[tuple, Hands] = {}


def hands_of(project: Project, fresh: bool = False) -> Hands:
    """The project's games on its decks, read once per test run (``fresh``: read again now)."""
    key = (project.key, str(project.cache_dir))
    if fresh or key not in _HANDS:
        _HANDS[key] = ProjectContext(project).hands
    return _HANDS[key]


def sides_of(project: Project, deck, renderer=None, use_store: bool = True) -> Sides:
    """A deck's sides, kept in the project's store (drawn by ``renderer``, by default the context's)."""
    context = ProjectContext(project)
    return Sides(context.store, deck, renderer or context.renderer(deck), use_store)
