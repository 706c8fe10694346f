"""One game as the environments see it: the engine state, the clock's pace, the action table,
the observation encoder and the team's score.

Shared by the AEC, Parallel and single-agent environments, which differ only in who acts when.
Time follows the simulator's pace model (``fusegame.sim.game.Pace``): when a turn starts, the
clock moves on by ``turn_seconds + die_seconds * dice rolled`` (a ``Tick``), and every action of
the turn happens at that time, exactly as ``fusegame.sim.game.play_game`` does. So the 10-minute
limit means ``600 / (12 + 1 * dice)`` turns at the default pace (40 solo turns, 37 with four
players), and a win scores +1 per full 10 seconds left. ``pace=None`` stops the clock (only
sensible with ``time_limit=None``: a timed game then ends only on an empty bag or a win).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
import numpy.typing as npt

from fusegame.env.actions import WAIT, ActionTable
from fusegame.env.encode import Encoder, Vector
from fusegame.observe import observation, render_text, score_so_far
from fusegame.rules.actions import Action, Tick
from fusegame.rules.config import GameConfig
from fusegame.rules.decisions import Decision
from fusegame.rules.state import GameState, new_game
from fusegame.sim.game import Pace

#: The simulator's pace (12 s a turn + 1 s a die rolled): the environments' default clock.
DEFAULT_PACE = Pace()
#: How a pace may be given: ``Pace``, ``(turn_seconds, die_seconds)``, ``"12+1"``, or None (no clock).
PaceOption = Pace | tuple[float, float] | str | None

#: The keyword options that go to ``GameConfig`` (every field of it).
CONFIG_OPTIONS = frozenset(f.name for f in fields(GameConfig))

Mask = npt.NDArray[np.int8]


def make_pace(pace: PaceOption) -> Pace | None:
    """``Pace(12, 1)``, ``(12, 1)`` or ``"12+1"`` (seconds a turn + seconds a die), or None."""
    if pace is None or isinstance(pace, Pace):
        return pace
    if isinstance(pace, str):
        turn, _, die = pace.partition("+")
        return Pace(float(turn), float(die or 0))
    turn_s, die_s = pace
    return Pace(float(turn_s), float(die_s))


#: The environments' render modes: the table as text, printed, or as an image of that text.
RENDER_MODES = ("ansi", "human", "rgb_array")

#: What an action outside the mask does: ``"end"`` (the default, as PettingZoo's classic games do):
#: the episode ends at once and the seat that sent it is paid ``illegal_reward`` (-1 by default),
#: so that a learner without masks learns to keep to them; ``"ignore"``: nothing happens, the same
#: seat is asked again and ``info["illegal_action"]`` says so.
ILLEGAL_MODES = ("end", "ignore")
ILLEGAL_REWARD = -1.0


def check_illegal(illegal: str) -> str:
    if illegal not in ILLEGAL_MODES:
        raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
    return illegal


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
    return render_mode


def split_options(options: dict[str, Any]) -> tuple[GameConfig, dict[str, Any]]:
    """``GameConfig`` from the options it knows (or ``config=GameConfig(...)`` itself); the rest is
    returned for the environment."""
    config_kw = {k: v for k, v in options.items() if k in CONFIG_OPTIONS}
    rest = {k: v for k, v in options.items() if k not in CONFIG_OPTIONS and k != "config"}
    given = options.get("config")
    if given is not None:
        if config_kw:
            raise TypeError(f"give either config or its options, not both ({', '.join(sorted(config_kw))})")
        if not isinstance(given, GameConfig):
            raise TypeError(f"config must be a GameConfig, not {type(given).__name__}")
        return given, rest
    return GameConfig(**config_kw), rest


def text_image(text: str) -> npt.NDArray[np.uint8]:
    """``text`` drawn in Pillow's default monospaced font, black on white, as an RGB array."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as e:
        raise ImportError("render_mode='rgb_array' needs Pillow: pip install 'fusegame[rl]'") from e
    font: Any
    try:  # a monospaced font keeps the table's columns; Pillow's own where none is installed
        font = ImageFont.truetype("DejaVuSansMono.ttf", 13)
    except OSError:
        font = ImageFont.load_default()
    lines = text.splitlines() or [""]
    left, top, right, bottom = font.getbbox("M")
    cell_w, cell_h = max(1, int(right - left)), max(1, int(bottom - top) + 4)
    width = 8 + cell_w * max(len(line) for line in lines)
    image = Image.new("RGB", (width, 8 + cell_h * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((4, 4 + i * cell_h), line, fill="black", font=font)
    return np.asarray(image, dtype=np.uint8)


class Match:
    """A game in progress with its pace, its action table and its encoder."""

    def __init__(self, config: GameConfig, pace: Pace | None = DEFAULT_PACE, max_steps: int = 20_000) -> None:
        self.config = config
        self.pace = pace
        self.max_steps = max_steps
        self.table = ActionTable.for_config(config)
        self.encoder = Encoder(config, self.table)
        self.players = config.players
        self._seeder = np.random.default_rng()
        self.state: GameState = new_game(config, 0)
        self.seed = 0
        self._turn = -1
        self._at = 0
        self.steps = 0
        self.score = 0
        #: bumped whenever the state changes (a reset, an action): what is remembered below is
        #: remembered for one version
        self._version = 0
        self._masks: dict[int, tuple[int, Mask, list[int], list[Action]]] = {}
        self._size = self.table.size
        self._acts: tuple[int, dict[int, Decision], list[int]] = (-1, {}, [])
        self._scored: tuple[tuple[str, ...], int, int] | None = None
        self._score_value = 0
        #: the seat whose action outside the mask ended the episode (``illegal="end"``), or None
        self.forfeit: int | None = None

    # -- life cycle ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game. With a seed the game (deal, rolls, everything) is that seed's game; without,
        the next seed comes from the generator of the last seeded reset (or from the system)."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
            self.seed = int(seed)
        else:
            self.seed = int(self._seeder.integers(0, 2**63 - 1))
        self.state = new_game(self.config, self.seed)
        self._turn = -1
        self._at = 0
        self.steps = 0
        self.forfeit = None
        self._version += 1
        self._masks.clear()
        self._clock()
        self._scored = None
        self.score = self._score()

    def _clock(self) -> None:
        g = self.state
        if self.pace is None or g.is_over or g.turn == self._turn:
            return
        self._turn = g.turn
        self._at += self.pace.turn_of(g)
        g.apply_unchecked(Tick(-1, self._at))

    def _score(self) -> int:
        g = self.state
        if g.outcome is not None:
            return int(score_so_far(g)["total"])
        # before the end the score is the points of the score pile, the fuses gone off and the
        # sparks defused: worked out again only when one of them changed
        sparks = len(g.sparks.defused) if g.sparks is not None else 0
        key = (tuple(g.score_pile), len(g.fuses_activated), sparks)
        if key != self._scored:
            self._scored = key
            self._score_value = int(score_so_far(g)["total"])
        return self._score_value

    # -- questions -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """The episode has ended: the game is over, or an action outside the mask ended it."""
        return self.state.is_over or self.forfeit is not None

    @property
    def truncated(self) -> bool:
        return not self.over and self.steps >= self.max_steps

    def _to_act(self) -> tuple[int, dict[int, Decision], list[int]]:
        acts = self.state.to_act()
        hit = self._acts = (self._version, acts, sorted(acts))
        return hit

    def to_act(self) -> dict[int, Decision]:
        """The seats that may act now and what each must decide (``GameState.to_act``, asked once
        a version; do not change it)."""
        hit = self._acts
        return hit[1] if hit[0] == self._version else self._to_act()[1]

    def actors(self) -> list[int]:
        """The seats that may act now, in seat order (do not change the list)."""
        hit = self._acts
        return hit[2] if hit[0] == self._version else self._to_act()[2]

    def _legal(self, seat: int) -> tuple[int, Mask, list[int], list[Action]]:
        """``seat``'s mask now, with the indices it marks and the legal actions they stand for."""
        hit = self._masks.get(seat)
        if hit is None or hit[0] != self._version:
            g = self.state
            legal = list(g.legal_actions(seat))
            indices = self.table.indices(g, seat, legal)
            mask = np.zeros(self._size, dtype=np.int8)
            for i in indices:  # a handful: cheaper one by one than as a fancy index
                mask[i] = 1
            hit = self._masks[seat] = (self._version, mask, indices, legal)
        return hit

    def legal_mask(self, seat: int) -> Mask:
        """1 for every index that names a legal engine action of ``seat`` now (``wait`` is 0: the
        environments decide when waiting is allowed); a new array at every call."""
        return self._legal(seat)[1].copy()  # a fresh array each time: callers keep what they are given

    def allows(self, seat: int, index: int) -> bool:
        """Whether ``index`` names a legal engine action of ``seat`` now (the mask, uncopied)."""
        mask = self._legal(seat)[1]
        return 0 <= index < mask.size and bool(mask[index])

    def decode(self, seat: int, index: int) -> Action | None:
        """The engine action ``index`` names for ``seat`` (None for ``wait`` or nothing)."""
        return self.table.action(self.state, seat, index)

    def observe(self, seat: int, initiative: bool) -> Vector:
        return self.encoder.encode(self.state, seat, initiative, self.to_act())

    def structured(self, seat: int) -> dict[str, Any]:
        """The engine's own view for ``seat`` (``fusegame.observe.observation``)."""
        return observation(self.state, seat)

    def render(self) -> str:
        return render_text(self.state)

    def show(self, render_mode: str | None) -> Any:
        """What an environment's ``render()`` gives: the table as text (``"ansi"``), printed
        (``"human"``, returns None), that text drawn as an RGB image (``"rgb_array"``: an array
        of height x width x 3 bytes, black on white; needs Pillow), or nothing (None)."""
        if render_mode is None:
            return None
        text = self.render()
        if render_mode == "human":
            print(text)
            return None
        if render_mode == "rgb_array":
            return text_image(text)
        return text

    # -- change --------------------------------------------------------------------------------
    def play(self, seat: int, index: int) -> int:
        """Perform the legal action ``index`` of ``seat`` (the caller checked the mask); return the
        change in the team's score."""
        hit = self._masks.get(seat)
        action: Action | None = None
        if hit is not None and hit[0] == self._version and index in hit[2]:
            action = hit[3][hit[2].index(index)]  # the legal action the mask was made from
        else:
            action = self.table.action(self.state, seat, index)
        assert action is not None and index != WAIT
        self.state.apply_unchecked(action)
        return self.settled()

    def play_action(self, action: Action) -> int:
        """Perform a legal engine action (a bot's), restamped with the game time."""
        from fusegame.rules.actions import with_time

        self.state.apply_unchecked(with_time(action, self.state.time_ms))
        return self.settled()

    def settled(self) -> int:
        """After an action: stamp the next turn's time if a turn began; the change in the score."""
        self._version += 1
        self._clock()
        before, self.score = self.score, self._score()
        return self.score - before


__all__ = ["CONFIG_OPTIONS", "DEFAULT_PACE", "ILLEGAL_MODES", "ILLEGAL_REWARD", "RENDER_MODES",
           "check_illegal", "check_render_mode", "Mask", "PaceOption", "Match", "make_pace", "split_options",
           "text_image"]
