"""Scenario documents: build any mid-game FUSE or FUSE: Countdown position from a small YAML or JSON
document.

A scenario names the cards in front of each player (with the dice on them), the row, the deck, the
dice in the middle, whose turn it is and how much time is left; everything it leaves out gets a
sensible default. Tests, tutorials and bug reports all use the same documents::

    config: {players: 2, difficulty: standard}
    seed: 7
    players:
      - cards:
          - {notation: "? =c|n ? =c|n ?", dice: [Y5, null, null]}
          - F12
      - [F03, F20]
    row: [F01, F02, F04, F05, F06]
    deck: [F07, "fuse:R", F08]
    rolled: [R5, B3, G1, Y2]
    time_left: 300

Countdown, the FUSE modules, integrated sets and epic games are described the same way
(``config: {game: countdown}``), with spark cards in front of the players (``{spark: "G5"}``), the
spark deck and discards, role cards (``roles: [technologist, cutter]``), temporary colours on rolled
dice (``rolled: [B4 as R]``) and the state of the leader's ability.

``load_scenario(path)``, ``scenario_from_text(text)`` and ``scenario_from_data(data)`` return a
``GameState``; ``dump_scenario(state)`` writes any state back as a document, so that
``scenario_from_data(dump_scenario(s)) == s``. Bad input raises ``ScenarioError`` (a
``ValueError``) whose message starts with the field it is about, e.g.
``players[0].cards[1].dice[2]: 'Q5' is not a die ...``. The full schema is in docs/scenarios.md.

The package: ``fields`` (what a document may hold, and how dice are written), ``cards`` (card
references, definitions and the catalogue a position needs), ``reader`` (a document to a state),
``writer`` (a state to a document). The parts of the rules and the pending decisions declare their
own fields (``fusegame.rules.schema``): the reader and the writer follow those declarations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from fusegame.rules.schema import ScenarioError, kind_of
from fusegame.rules.state import GameState
from fusegame.scenario.reader import read
from fusegame.scenario.writer import write

__all__ = [
    "ScenarioError", "dump_scenario", "dump_scenario_text", "load_scenario", "scenario_from_data",
    "scenario_from_text",
]


def load_scenario(path: str | Path) -> GameState:
    """Read a scenario from a ``.yaml``/``.yml`` or ``.json`` file."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError(str(p), f"cannot read the file: {e}") from None
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ScenarioError(str(p), f"not valid JSON: {e}") from None
        return scenario_from_data(data)
    return scenario_from_text(text, source=str(p))


def scenario_from_text(text: str, source: str = "<scenario>") -> GameState:
    """Build a position from YAML text (JSON is YAML too)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ScenarioError(source, f"not valid YAML: {e}") from None
    return scenario_from_data(data)


def scenario_from_data(data: Any) -> GameState:
    """Build a position from parsed scenario data (a dict, as from YAML or JSON)."""
    if not isinstance(data, Mapping):
        raise ScenarioError("", f"a scenario must be a mapping of fields, not {kind_of(data)}")
    return read(data)


def dump_scenario(state: GameState) -> dict[str, Any]:
    """Write ``state`` as a scenario document (plain data; YAML- and JSON-ready).

    Dice are written with their ids (``Y5@17``) and the generator's state as ``seed``, so loading
    the document gives back an equal state.
    """
    return write(state)


def dump_scenario_text(state: GameState) -> str:
    """``dump_scenario`` as YAML text."""
    return yaml.safe_dump(write(state), sort_keys=False, default_flow_style=None, width=110)


# ====================================================================== reading
#: the fields of a document about the table itself; the parts of the rules and the pending
#: decisions add the fields they declare (``rules.schema``)
