"""Game records: a config, a seed and the actions (with their times). Replays are exact.

A FUSE game is fully determined by its config, its seed and the actions taken: ``new_game(config,
seed)`` then ``apply`` for each action re-creates every state and every event. A record stores just
that, as JSON::

    {"format": "fusegame-record", "version": 1,
     "config": {...}, "seed": 7, "catalogue": "3f5a...",
     "actions": ["p0 place d12 F07 s3 @15200", "p1 done @15200", ...],
     "outcome": {...} | null}

``catalogue`` is a fingerprint of the rule-relevant card data (ids, points, notation, fuse symbols)
the game was played with, so that replaying against a different catalogue fails loudly instead of
silently diverging. ``outcome`` is the final outcome when the game ended (checked by ``replay``).

    >>> from fusegame import GameConfig
    >>> rec = Recorder(GameConfig(players=2), seed=3)
    >>> action = rec.state.legal_actions(0)[0]
    >>> _ = rec.apply(action)
    >>> rec.record.actions == [action]
    True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fusegame.cards.catalogue import CardDataError, Catalogue
from fusegame.rules.actions import Action, ActionParseError
from fusegame.rules.config import ConfigError, GameConfig
from fusegame.rules.events import Event
from fusegame.rules.outcome import Outcome
from fusegame.rules.state import GameState, IllegalAction, new_game

FORMAT = "fusegame-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says which file/action and why."""


def catalogue_fingerprint(catalogue: Catalogue) -> str:
    """A short hash of the card data that matters to the rules (names and sources are ignored)."""
    data = {
        "bombs": sorted([b.id, b.set, b.points, b.notation] for b in catalogue.bombs),
        "fuses": sorted([f.id, f.set, f.symbol] for f in catalogue.fuses),
    }
    if catalogue.sparks or catalogue.roles:  # FUSE fingerprints stay as they were
        data["sparks"] = sorted([s.id, s.notation] for s in catalogue.sparks)
        data["roles"] = sorted([r.id, r.ability.value] for r in catalogue.roles)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def record_data(config: GameConfig, seed: int, actions: list[str], outcome: Outcome | None,
                catalogue: str | None = None) -> dict[str, Any]:
    """A record as JSON data (``GameRecord.to_dict``) from the actions' text forms, for a holder of
    the texts that has no need of the actions themselves (``catalogue``: the card fingerprint,
    worked out from ``config`` when None)."""
    return {
        "format": FORMAT, "version": VERSION, "config": config.to_dict(), "seed": seed,
        "catalogue": catalogue if catalogue is not None else catalogue_fingerprint(config.catalogue),
        "actions": actions, "outcome": outcome.to_dict() if outcome else None,
    }


@dataclass
class GameRecord:
    """Everything needed to replay a game exactly.

    ``actions`` are the applied actions in order, each carrying its time (``at``, in ms).
    ``catalogue`` is the card fingerprint (``None``: not checked). ``outcome`` is set once the
    game is over.
    """

    config: GameConfig
    seed: int
    actions: list[Action] = field(default_factory=list)
    outcome: Outcome | None = None
    catalogue: str | None = None

    def __post_init__(self) -> None:
        if self.catalogue is None:
            self.catalogue = catalogue_fingerprint(self.config.catalogue)

    # -- data ------------------------------------------------------------------------------
    def action_texts(self) -> list[str]:
        """The actions in their text form (``p0 place d12 F07 s3 @15200``)."""
        return [str(a) for a in self.actions]

    def to_dict(self) -> dict[str, Any]:
        return record_data(self.config, self.seed, self.action_texts(), self.outcome, self.catalogue)

    @classmethod
    def from_dict(cls, d: Any, source: str = "record") -> GameRecord:
        """Build a record from ``to_dict`` data; raises ``RecordError`` saying what is wrong."""
        def bad(msg: str) -> RecordError:
            return RecordError(f"{source}: {msg}")

        if not isinstance(d, dict):
            raise bad("not a game record (expected a JSON object)")
        if d.get("format") != FORMAT:
            raise bad(f"not a game record (expected \"format\": \"{FORMAT}\")")
        if d.get("version") != VERSION:
            raise bad(f"unsupported record version {d.get('version')!r} (this program reads {VERSION})")
        for key in ("config", "seed", "actions"):
            if key not in d:
                raise bad(f"missing {key!r}")
        unknown = set(d) - {"format", "version", "config", "seed", "catalogue", "actions", "outcome"}
        if unknown:
            raise bad(f"unknown field(s) {', '.join(sorted(unknown))}")
        seed = d["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise bad(f"'seed' must be a whole number, not {seed!r}")
        if not isinstance(d["config"], dict):
            raise bad("'config' must be an object")
        try:
            config = GameConfig.from_dict(d["config"])
        except (ConfigError, CardDataError) as e:
            raise bad(f"bad config: {e}") from None
        except (TypeError, ValueError, KeyError, AttributeError) as e:
            raise bad(f"bad config: {type(e).__name__}: {e}") from None
        texts = d["actions"]
        if not isinstance(texts, list):
            raise bad("'actions' must be a list of action texts")
        actions: list[Action] = []
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise bad(f"action {i + 1} is not text: {t!r}")
            try:
                actions.append(Action.parse(t))
            except ActionParseError as e:
                raise bad(f"action {i + 1}: {e}") from None
        outcome = None
        if d.get("outcome") is not None:
            try:
                outcome = Outcome.from_dict(d["outcome"])
            except (TypeError, ValueError, KeyError) as e:
                raise bad(f"bad outcome: {type(e).__name__}: {e}") from None
        fp = d.get("catalogue")
        if fp is not None and not isinstance(fp, str):
            raise bad("'catalogue' must be a fingerprint string")
        return cls(config, seed, actions, outcome, fp or catalogue_fingerprint(config.catalogue))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; raises ``RecordError`` with the file name and the problem."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"{p}: cannot read file: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{p}: not a text file") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"{p}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
        return cls.from_dict(data, str(p))

    # -- replay ----------------------------------------------------------------------------
    def initial_state(self) -> GameState:
        """The game as it stood before the first action (setup done, first roll made)."""
        fp = catalogue_fingerprint(self.config.catalogue)
        if self.catalogue is not None and self.catalogue != fp:
            raise RecordError(f"the record was made with other cards (catalogue {self.catalogue}, "
                              f"this one is {fp}); replay it with the same --cards file")
        try:
            return new_game(self.config, self.seed)
        except ConfigError as e:
            raise RecordError(f"cannot set up the recorded game: {e}") from None


def save(record: GameRecord, path: str | Path) -> None:
    record.save(path)


def load(path: str | Path) -> GameRecord:
    return GameRecord.load(path)


def replay(record: GameRecord, *, copy: bool = False,
           start: GameState | None = None) -> Iterator[tuple[Action, list[Event], GameState]]:
    """Re-play a record: yields ``(action, events, state)`` after each action.

    The yielded state is the same object each time, advanced in place (pass ``copy=True`` to get a
    clone per step). Every action is validated; one that the rules reject, or a final outcome
    that differs from the recorded one, raises ``RecordError``.
    """
    state = start if start is not None else record.initial_state()
    for i, action in enumerate(record.actions):
        try:
            events = state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"action {i + 1} ({action}) cannot be replayed: {e}") from None
        yield action, events, (state.clone() if copy else state)
    if record.outcome is not None and state.outcome != record.outcome:
        got = "no outcome" if state.outcome is None else f"{state.outcome.to_dict()}"
        raise RecordError(f"the replay ends with {got}, but the record says {record.outcome.to_dict()}")


def final_state(record: GameRecord) -> GameState:
    """The state after the last recorded action."""
    state = record.initial_state()
    for _ in replay(record, start=state):
        pass
    return state


class Recorder:
    """Plays a game and records it: ``Recorder(config, seed)``, then ``apply`` actions.

        >>> from fusegame import GameConfig
        >>> rec = Recorder(GameConfig(players=3), seed=1)
        >>> rec.record.seed, len(rec.record.actions)
        (1, 0)
    """

    def __init__(self, config: GameConfig, seed: int, state: GameState | None = None) -> None:
        """``state`` may be given when it is the fresh ``new_game(config, seed)`` (it is checked)."""
        self.config = config
        self.seed = seed
        fresh = new_game(config, seed)
        if state is not None and state != fresh:
            raise RecordError("a Recorder can only wrap the fresh state of new_game(config, seed)")
        self.state: GameState = state if state is not None else fresh
        self._record = GameRecord(config, seed)

    def apply(self, action: Action, *, checked: bool = True) -> list[Event]:
        """Apply ``action`` to the state and record it (only when it was accepted)."""
        events = self.state.apply(action) if checked else self.state.apply_unchecked(action)
        self._record.actions.append(action)
        if self.state.outcome is not None:
            self._record.outcome = self.state.outcome
        return events

    def extend(self, actions: Sequence[Action]) -> list[Event]:
        out: list[Event] = []
        for a in actions:
            out += self.apply(a)
        return out

    @property
    def record(self) -> GameRecord:
        """The record so far (the live object: it grows as actions are applied)."""
        return self._record
