"""One simulated game under a simple pace model.

Real FUSE tables run against a 10-minute clock, so a simulated game needs simulated time. The pace
model here is deliberately simple: a turn costs ``turn_seconds`` plus ``die_seconds`` for every die
rolled at its start, and every action of the turn carries the time at which the turn *ends*. The
first action of a turn that would end at or after the time limit therefore loses the game on time,
and a win scores the time left after its turn, as at a real table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from fusegame.record import GameRecord
from fusegame.rng import Rng
from fusegame.rules.actions import Action, Tick
from fusegame.rules.config import GameConfig
from fusegame.rules.events import Event
from fusegame.rules.outcome import Outcome, score
from fusegame.rules.state import GameState, new_game
from fusegame.rules.turn import dice_to_draw
from fusegame.sim.policies import Policy

#: Salt that separates the policy's generator from the game's own (both derive from the seed).
POLICY_SALT: Final = 0x5EED_B07


@dataclass(frozen=True)
class Pace:
    """How long a simulated turn takes: ``turn_seconds + die_seconds * dice rolled``."""

    turn_seconds: float = 12.0
    die_seconds: float = 1.0

    def __post_init__(self) -> None:
        if self.turn_seconds < 0 or self.die_seconds < 0:
            raise ValueError("pace times cannot be negative")

    def turn_ms(self, dice_rolled: int) -> int:
        return round((self.turn_seconds + self.die_seconds * dice_rolled) * 1000)

    def turn_of(self, state: GameState) -> int:
        """The time the turn ``state`` has just begun costs: its dice are those rolled already, or
        those the leader is about to roll (a Countdown turn begins with the leader's decisions and
        rolls after them; charging only the dice already out gave those turns no die seconds)."""
        return self.turn_ms(len(state.rolled) or dice_to_draw(state))


class Watcher(Protocol):
    """What a study reads from a game as ``play_game`` plays it (the benches that count what
    happens in a game: the dice nobody could take, the bombs a roll could complete)."""

    def turn(self, state: GameState) -> None:
        """A turn has begun and its time has passed (``state.is_over`` if it ran out)."""

    def acted(self, state: GameState, action: Action, events: list[Event]) -> None:
        """``action`` was applied to ``state`` and made ``events``."""

    def over(self, state: GameState) -> None:
        """The game has ended (or stopped at ``max_turns``): ``state`` is its last position."""


@dataclass(frozen=True)
class GameResult:
    """How one simulated game went.

    ``outcome`` is ``None`` only when the game was stopped after ``max_turns`` (possible in an
    untimed game); such a game counts as not won, and ``score`` is the points made so far.
    """

    seed: int
    outcome: Outcome | None
    score: int
    turns: int
    actions: int
    time_ms: int
    record: GameRecord | None = None

    @property
    def won(self) -> bool:
        return self.outcome is not None and self.outcome.won


def play_game(config: GameConfig, seed: int, policy: Policy, pace: Pace | None = None, *,
              max_turns: int = 2000, record: bool = False, checked: bool = False,
              watch: Watcher | None = None) -> GameResult:
    """Play one game from ``new_game(config, seed)`` with ``policy`` choosing every action.

    The policy's generator is derived from ``seed``, so the same arguments give the same game.
    ``record=True`` keeps a ``GameRecord`` of it; ``checked=True`` validates every action (slower;
    the policies only return legal actions). ``watch`` is told of every turn, action and its
    events, and the last position; watched or not, the game is the same.
    """
    pace = pace or Pace()
    # a policy that plays futures out (research's roll-out search) charges them at this game's pace
    at_pace = getattr(policy, "at_pace", None)
    if at_pace is not None:
        policy = at_pace(pace)
    state = new_game(config, seed)
    state.listening = watch is not None  # events cost time, and only a watcher reads them
    rng = Rng(seed).fork(POLICY_SALT)
    rec = GameRecord(config, seed) if record else None
    turn = -1
    at = 0
    n = 0
    # is_over, not ``outcome is None``: an attribute narrowed by the loop's test would be taken for
    # None all through its body by the compiled engine, though every action may end the game
    while not state.is_over:
        if state.turn != turn:
            turn = state.turn
            if turn > max_turns:
                break
            at += pace.turn_of(state)
            # the turn's time passes once; legal actions then carry it (state.time_ms)
            tick = Tick(-1, at)
            state.apply_unchecked(tick)
            if rec is not None:
                rec.actions.append(tick)
            if watch is not None:
                watch.turn(state)
            if state.is_over:
                break
        action = policy(state, rng)
        events = state.apply(action) if checked else state.apply_unchecked(action)
        n += 1
        if rec is not None:
            rec.actions.append(action)
        if watch is not None:
            watch.acted(state, action, events)
    if rec is not None:
        rec.outcome = state.outcome
    if watch is not None:
        watch.over(state)
    return GameResult(seed, state.outcome, _score(state), min(state.turn, max_turns), n, state.time_ms, rec)


def _score(state: GameState) -> int:
    if state.outcome is not None:
        return state.outcome.score.total
    points = sum(state.bomb(c).points for c in state.score_pile)
    sparks = len(state.sparks.defused) if state.sparks is not None else 0
    return score(False, None, points, len(state.fuses_activated), sparks).total
