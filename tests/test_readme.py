"""The README documents what the program does: every option with its default, every style key,
symbol and ranking building block, and a quick start of exactly two commands that CI runs."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from generator.cli import parser
from generator.definitions.styles import STYLE_KEYS
from generator.hands.blocks import BLOCKS
from generator.resources.symbolnames import SYMBOL_NAMES
from generator.units import format_mm

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def table_after(marker: str) -> list[list[str]]:
    """The rows (cells stripped) of the Markdown table right after ``<!-- marker -->``."""
    start = README.index(f"<!-- {marker} -->")
    rows = []
    for line in README[start:].splitlines()[1:]:
        if not line.strip():
            if rows:
                break
            continue
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if not set("".join(cells)) <= set("-: "):
            rows.append(cells)
    return rows[1:]  # without the header


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every command (``build``, ``export png`` ...) and the global options, by name."""
    found = {"(global)": parser()}

    def walk(p: argparse.ArgumentParser, prefix: str) -> None:
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    path = f"{prefix} {name}".strip()
                    if any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
                        walk(sub, path)
                    else:
                        found[path] = sub

    walk(found["(global)"], "")
    return found


def expected_default(action: argparse.Action) -> str | None:
    """How the README must state a default (None: in its own words)."""
    if isinstance(action, (argparse._StoreTrueAction, argparse.BooleanOptionalAction)):
        if action.default is None:  # neither on nor off: chosen case by case, said in words
            return None
        return "on" if action.default else "off"
    if action.default in (None, [], argparse.SUPPRESS):
        return None
    if isinstance(action.default, float):
        text = format_mm(action.default, 3)
        return f"{text} mm" if action.metavar == "MM" else text
    return str(action.default)


DOCUMENTED = [name for name, p in commands().items() if any(a.option_strings and a.dest != "help" for a in p._actions)]


@pytest.mark.parametrize("command", DOCUMENTED)
def test_every_option_is_documented_with_its_default(command):
    rows = table_after(f"options: {command}")
    documented = {}
    for row in rows:
        for option in re.findall(r"`(--[a-z-]+)", row[0]):
            documented[option] = row[1]
    actions = [a for a in commands()[command]._actions if a.option_strings and a.dest != "help"]
    options = {o for a in actions for o in a.option_strings}
    assert set(documented) == options
    for action in actions:
        want = expected_default(action)
        if want is not None:
            assert documented[action.option_strings[0]] == want, action.option_strings


def test_the_commands_are_all_in_the_command_table():
    for command in commands():
        if command != "(global)":
            assert f"`aetherpress {command.split()[0]}" in README, command


def test_style_keys_are_documented_with_kind_and_default():
    rows = {row[0].strip("`"): row for row in table_after("style keys")}
    assert set(rows) == set(STYLE_KEYS)
    for key in STYLE_KEYS.values():
        _, kind, default, meaning = rows[key.name]
        assert meaning == key.meaning
        if key.kind == "length":
            assert default == f"{format_mm(key.default)} mm"
        elif key.kind == "bool":
            assert default == str(key.default).lower()
        elif key.kind == "choice":
            assert kind == " / ".join(key.choices) and default == key.default
        else:
            assert default.strip('`"') == key.default and kind == key.kind


def test_symbols_and_ranking_blocks_are_listed():
    for name in SYMBOL_NAMES:
        assert f"`{name}`" in README, name
    for name in BLOCKS:
        assert f"| `{name} = " in README, name


def test_quick_start_is_two_commands_and_ci_runs_the_test_command():
    quick = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    lines = [line.split("#")[0].strip() for line in quick.strip().splitlines()]
    assert len(lines) == 2 and "aetherpress build" in lines[0] and "pytest" in lines[1]
    assert lines[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
