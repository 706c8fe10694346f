"""The game state and the one pipeline that changes it.

``GameState`` holds a whole game as plain data (the seeded generator included), so it can be
cloned, saved as JSON and replayed exactly. Its core is the table (cards in front of the players,
the row and deck, the score pile), the bag and the dice, the clock and the turn; the optional
parts of the rules that this game uses (``parts``: sparks, roles, the level stacks, FUSE's penalty
rolls, Countdown's Step 3) keep their own state in their own modules, and the queue of pending
decisions (``rules.decisions``) says who must decide what.

Actions come from any seat that may act now, in any order (the games are played in real time);
``apply`` asks the head of the queue whether the action is allowed, lets it carry the action out,
then runs the automatic steps until a player (or chance) must act, and returns the events.
Chance (the turn's draw and roll, penalty rerolls, role rerolls, "roll a 6") is resolved with the
state's own generator, or left open for a solver with ``chance=False`` (see ``chance_outcomes``
and ``apply_chance``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from fusegame.cards.catalogue import Catalogue
from fusegame.cards.model import Ability, BombCard, FuseCard, RoleCard
from fusegame.constraints import EMPTY, CompiledCard
from fusegame.dice import TYPE_LABELS, DiceSet, colours_text, die_type
from fusegame.rng import Rng
from fusegame.rules import defusal, ending, moves, penalty, roles, sparks, stacks, step3, turn, validity
from fusegame.rules.actions import Action, Tick
from fusegame.rules.chance import CHANCE_OUTCOME_LIMIT, ChanceDice, TooManyOutcomes
from fusegame.rules.config import GameConfig
from fusegame.rules.decisions import Decision, LegalActions, Pending, Step
from fusegame.rules.errors import (
    BadTime,
    GameOverError,
    IllegalAction,
    IllegalPlacement,
    NotYourDecision,
)
from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.outcome import Outcome
from fusegame.rules.schema import Part, part_from_json, part_to_json
from fusegame.rules.table import HandCard, Pick

if TYPE_CHECKING:
    from collections.abc import Iterator

class Over(Step):
    """The game is over: a step that waits for nobody and does nothing."""


#: The turn's own steps: the bottom of the queue of pending decisions.
STEPS: dict[Phase, Step] = moves.STEPS
STEPS.update({
    Phase.ROLL: turn.ROLL,
    Phase.DISTRIBUTE: turn.DISTRIBUTE,
    Phase.PENALTY: penalty.STEP,
    Phase.DEFUSE: step3.STEP,
    Phase.SPARKS: sparks.STEP,
    Phase.OVER: Over(),
})

#: Hooks a part may have into the turn (a method of that name; see ``rules.schema.Part``).
HOOKS = ("after_roll", "on_placed", "on_bomb_defused", "on_distribution_end", "on_turn_end")

_COMPILED: dict[tuple[str, str, int, bool], CompiledCard] = {}
STATE_VERSION = 2

#: A game's look-ups of its cards by id: bombs, sparks, both, fuses, roles, and compiled tables.
#: Never changed once built, so games made from one configuration share them (clones too).
CardLookups = tuple[dict[str, BombCard], dict[str, BombCard], dict[str, BombCard], dict[str, FuseCard],
                    dict[str, RoleCard], dict[str, CompiledCard]]
#: The look-ups of the configurations games were last made from, by identity: a simulation makes
#: every game of a batch from one configuration, and builds them once instead of for every game.
#: Each entry keeps its configuration alive, so no other object can take its id while it is here.
_LOOKUPS: dict[int, tuple[GameConfig, CardLookups]] = {}
_LOOKUPS_KEPT: Final = 32


def card_lookups(config: GameConfig, dice: DiceSet) -> CardLookups:
    """The look-ups of a game of ``config`` played with ``dice``."""
    catalogue = config.catalogue
    bombs = {b.id: b for b in catalogue.bombs}
    sparks_ = {b.id: b for b in catalogue.sparks}
    cards = {**bombs, **sparks_}
    in_play = dice.types_in_play
    return (bombs, sparks_, cards, {f.id: f for f in catalogue.fuses}, {r.id: r for r in catalogue.roles},
            {b.id: compiled(b, in_play, config.feasibility) for b in cards.values()})


def _shared_lookups(config: GameConfig) -> CardLookups:
    hit = _LOOKUPS.get(id(config))
    if hit is None:
        if len(_LOOKUPS) >= _LOOKUPS_KEPT:
            _LOOKUPS.clear()
        hit = _LOOKUPS[id(config)] = (config, card_lookups(config, config.dice_set))
    return hit[1]


def compiled(card: BombCard, types_in_play: int, feasibility: bool) -> CompiledCard:
    """The compiled tables of a card (shared by every game with the same dice and rules)."""
    key = (card.id, card.notation, types_in_play, feasibility)  # the notation fixes the shape
    c = _COMPILED.get(key)
    if c is None:
        c = _COMPILED[key] = CompiledCard(card.shape, types_in_play, feasibility)
    return c


def compiled_entries() -> int:
    """The states the memos of every compiled card of the process hold now."""
    return sum(c.entries() for c in _COMPILED.values())


def forget_compiled() -> None:
    """Empty the memos of states of every compiled card of the process (``CompiledCard.forget``)
    and let go of the look-ups of the configurations games were made from: the answers stay the
    same, only the time to find them again is spent."""
    for c in _COMPILED.values():
        c.forget()
    _LOOKUPS.clear()


class GameState:
    """A game in progress. Create one with ``new_game``; change it only through ``apply``."""

    sparks: sparks.Sparks | None  #: spark cards (Countdown, the Spark module)
    roles: roles.Roles | None  #: role cards (Countdown, integrated, the Role module)
    stacks: stacks.Stacks | None  #: the level stacks setup
    penalty: penalty.Penalty | None  #: FUSE's unused-dice reroll
    step3: step3.Step3 | None  #: Countdown's Step 3 (and the clock stopped by a mid-turn save)

    def __init__(self, config: GameConfig | None = None, dice: DiceSet | None = None) -> None:
        if config is None:  # a blank state for ``clone`` to fill in (without the tables' cost)
            return
        self.config = config
        self.catalogue: Catalogue = config.catalogue
        self.dice = dice or config.dice_set
        lookups = _shared_lookups(config) if dice is None else card_lookups(config, self.dice)
        #: ``compiled``: card id -> its compiled legality tables (``card_rules``)
        self._bombs, self._sparks, self._cards, self._fuses, self._roles, self.compiled = lookups
        self.steps = config.turn_steps
        self._limit_ms = None if config.time_limit is None else config.time_limit * 1000
        n = config.players
        self.quota = config.base_quota
        # -- the core
        self.rng = Rng(0)
        self.time_ms = 0
        self.faces: list[int] = [1] * len(self.dice)
        self.types: list[int] = [die_type(c, 1) for c in self.dice.colours]  # cache of die_type per die
        self.bag: list[int] = list(range(len(self.dice)))
        self.hands: list[list[HandCard]] = [[] for _ in range(n)]  # bombs and sparks in play
        self.row: list[str] = []
        self.deck: list[str] = []  # top is the end of the list
        self.score_pile: list[str] = []
        self.fuses_activated: list[str] = []
        self.turn = 1
        self.leader = 0
        self.phase = Phase.ROLL
        self.rolled: list[int] = []
        self.free: list[int] = []  # dice of this turn's roll still in the middle
        self.taken: list[int] = [0] * n
        self.done: list[bool] = [False] * n
        self.unused: list[int] = []  # rolled dice nobody took, until they are dealt with
        self.picks: list[Pick] = []  # defused bombs whose owners still take a replacement
        self.queue: list[Pending] = []  # pending decisions, in ``decisions.ORDER``
        self.outcome: Outcome | None = None
        #: whether ``apply`` reports what happened; False builds no events (the simulator discards
        #: them, and building their words' facts was a twentieth of a random game's time)
        self.listening = True
        # -- the parts of the rules this game uses
        self.parts: dict[str, Part] = {}
        for name in config.parts:
            self.parts[name] = Part.registry[name].create(self)
        self._wire()

    def _wire(self) -> None:
        """Point the typed shortcuts and the hooks at this state's parts."""
        p = self.parts
        self.sparks = cast("sparks.Sparks | None", p.get("sparks"))
        self.roles = cast("roles.Roles | None", p.get("roles"))
        self.stacks = cast("stacks.Stacks | None", p.get("stacks"))
        self.penalty = cast("penalty.Penalty | None", p.get("penalty"))
        self.step3 = cast("step3.Step3 | None", p.get("step3"))
        #: hook name -> the parts' methods for it, in the order of the parts
        self.hooks: dict[str, list[Any]] = {h: [getattr(part, h) for part in p.values() if hasattr(part, h)]
                                            for h in HOOKS}

    def hook(self, name: str, *args: Any) -> None:
        """Tell every part that has hook ``name`` (see ``HOOKS``)."""
        for fn in self.hooks[name]:
            fn(self, *args)

    # ================================================================== the queue
    def head(self) -> Step:
        """The step the game is at: the first pending item, or the turn's own step."""
        return self.queue[0] if self.queue else STEPS[self.phase]

    def pending(self, name: str) -> Pending | None:
        """The pending item of kind ``name`` (``removals``, ``roll_six``, ...), if any."""
        for item in self.queue:
            if item.name == name:
                return item
        return None

    # ================================================================== queries
    @property
    def players(self) -> int:
        return self.config.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def is_chance(self) -> bool:
        """True when the next step is random: the turn's roll, a penalty reroll, an ability's
        reroll, or a "roll a 6" roll."""
        return self.outcome is None and self.head().chance(self)

    def bomb(self, card_id: str) -> BombCard:
        """The bomb or spark card with this id."""
        return self._cards[card_id]

    def fuse(self, card_id: str) -> FuseCard:
        """The fuse card with this id."""
        return self._fuses[card_id]

    def is_fuse(self, card_id: str) -> bool:
        return card_id in self._fuses

    def role(self, card_id: str) -> RoleCard:
        """The role card with this id."""
        return self._roles[card_id]

    def is_spark(self, card_id: str) -> bool:
        return card_id in self._sparks

    def is_bomb(self, card_id: str) -> bool:
        return card_id in self._bombs

    def card_rules(self, card_id: str) -> CompiledCard:
        """The compiled legality tables of a bomb or spark card (keyed by ``HandCard.key``)."""
        return self.compiled[card_id]

    def die_type(self, die: int) -> int:
        """The type (colour set and face) die ``die`` shows now (its real colours)."""
        return self.types[die]

    def temp_colour(self, die: int) -> int:
        """The temporary colour a role gave die ``die`` (0: none; it lasts until placed: D.9)."""
        r = self.roles
        return r.temp.get(die, 0) if r is not None else 0

    def effective_type(self, die: int) -> int:
        """The type die ``die`` counts as for placement now (a temporary colour counts)."""
        t = self.temp_colour(die)
        return self.types[die] if not t else die_type(t, self.faces[die])

    def die_label(self, die: int) -> str:
        """``Y5``: the colour and face die ``die`` shows now (``B4 as R`` with a temporary colour)."""
        t = self.temp_colour(die)
        return TYPE_LABELS[self.types[die]] + (f" as {colours_text(t)}" if t else "")

    def set_face(self, die: int, face: int) -> None:
        """Turn a die to ``face`` (a roll, or a role turning it)."""
        self.faces[die] = face
        self.types[die] = die_type(self.dice.colours[die], face)

    def unplaced(self) -> list[int]:
        """Dice of this turn's roll that are still in the middle of the table."""
        return self.free[:] if self.phase is Phase.DISTRIBUTE else []

    def hand_card(self, seat: int, card_id: str) -> HandCard | None:
        """The card ``card_id`` in front of ``seat``, if it is there."""
        for hc in self.hands[seat]:
            if hc.card == card_id:
                return hc
        return None

    def middle_has_bombs(self) -> bool:
        """Are bomb cards left in the row and deck (or the level stacks)?"""
        if self.stacks is not None:
            return self.stacks.has_bombs()
        return bool(self.row) or any(c in self._bombs for c in self.deck)

    def bombs_in_middle(self) -> int:
        """How many bomb cards are left in the row and deck (or the level stacks): the bombs a
        table must still take to empty the middle."""
        if self.stacks is not None:
            return sum(len(s) for s in self.stacks.piles.values())
        return len(self.row) + sum(1 for c in self.deck if c in self._bombs)

    def sparks_in_play(self) -> int:
        """How many spark cards lie in front of the players."""
        return sum(1 for hand in self.hands for hc in hand if hc.card in self._sparks)

    def active_ability(self) -> Ability | None:
        """The leader's role ability, if one is in use this turn."""
        return self.roles.active(self) if self.roles is not None else None

    def seat_quota(self, seat: int) -> int:
        """The most dice ``seat`` may take this turn (a Logistics leader: one more)."""
        r = self.roles
        return self.quota + (1 if r is not None and r.bonus_die and seat == self.leader else 0)

    def eligible_dice(self, seat: int, matches: Any) -> Iterator[int]:
        """Dice ``seat`` could give up to a penalty: unsafe, on an incomplete card, and
        ``matches(colours, face)``."""
        for hc in self.hands[seat]:
            if hc.complete:
                continue
            for s in self.compiled[hc.card].removable(hc.key):
                d = hc.dice[s]
                if matches(self.dice.colours[d], self.faces[d]):
                    yield d

    def dice_on_cards(self) -> int:
        """How many dice sit on players' cards."""
        return sum(1 for hand in self.hands for hc in hand for d in hc.dice if d != EMPTY)

    def colours_of(self, die: int) -> str:
        """The colour letters of die ``die`` (``K/Y`` for a split die)."""
        return colours_text(self.dice.colours[die])

    def to_act(self) -> dict[int, Decision]:
        """Which seats may act now, and what each must decide."""
        if self.outcome is not None:
            return {}
        head = self.head()
        if head.chance(self):
            return {}
        return head.decisions(self)

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """Every legal action of ``seat`` (or of every seat), stamped with the current time.

        A sequence (``len``, indexing, iteration); ``list(...)`` of it gives ``Action`` objects.
        """
        at = self.time_ms
        if self.outcome is not None:
            return LegalActions([], at, 0)
        head = self.head()
        if head.chance(self):
            return LegalActions([], at, 0)
        seats = range(self.players) if seat is None else (seat,)
        acts = head.legal(self, seats, at)
        return acts if isinstance(acts, LegalActions) else LegalActions(acts, at)

    def problems(self) -> list[validity.Problem]:
        """What makes this position one no game can reach; ``[]`` for a possible position.

        Each ``validity.Problem`` has a ``code`` (``validity.CODES``: ``die_twice``,
        ``dice_missing``, ``card_twice``, ``sparks_missing``, ``won_not_over``, ``phase``,
        ``count``, ...), its ``facts``, the scenario field it is about (``where``) and an English
        ``str()``. Checked: every die of the game's dice in exactly one place (the bag, a card's
        slot, the middle); every card in one place, of the kind its place holds, and no more fuse
        cards than the game uses; every spark of the game in the spark deck, the discards or in
        play; the step, the queue and the owed replacements; the leader, the turn, the quota and
        the dice taken and rolled; roles, temporary colours, the penalty, the stacks, the clock;
        and the ending: no position the team has already won still in play, and an outcome the
        position agrees with. Reads the state only.
        """
        return validity.problems(self)

    # ================================================================== apply
    def apply(self, action: Action, chance: bool = True) -> list[Event]:
        """Validate and apply ``action``; return the events it caused.

        Raises an ``IllegalAction`` subclass (a ``ValueError``) with a player-readable message and
        leaves the state unchanged when the action is not allowed now. An action stamped at or
        after the time limit is not performed: the game is lost on time instead.
        ``chance=False`` stops at the next chance node instead of sampling it.
        """
        if self.outcome is not None:
            raise GameOverError("game_over")
        if action.at is not None and action.at < self.time_ms:
            raise BadTime("bad_time", {"at": action.at, "now": self.time_ms})
        if not isinstance(action, Tick):
            head = self.queue[0] if self.queue else STEPS[self.phase]
            if head.chance(self):
                raise NotYourDecision("waiting_for_roll")
            if not 0 <= action.seat < self.players:
                raise NotYourDecision("no_such_seat", {"index": action.seat})
            head.check(self, action)
        return self._apply(action, chance)

    def apply_unchecked(self, action: Action, chance: bool = True) -> list[Event]:
        """Apply a legal action without validating it (for search); the caller guarantees legality."""
        return self._apply(action, chance)

    def _apply(self, a: Action, chance: bool) -> list[Event]:
        ev: list[Event] = []
        if a.at is not None and a.at > self.time_ms:
            self.time_ms = a.at
        limit = self._limit_ms
        if limit is not None and self.time_ms >= limit and ending.time_is_up(self, ev):
            return ev
        if not isinstance(a, Tick):
            (self.queue[0] if self.queue else STEPS[self.phase]).perform(self, a, ev)
        self._advance(ev, chance)
        return ev

    def _advance(self, ev: list[Event], chance: bool) -> None:
        queue = self.queue
        while self.outcome is None and (queue[0] if queue else STEPS[self.phase]).run(self, ev, chance):
            pass

    # ================================================================== chance
    def chance_outcomes(self,
                        limit: int | None = CHANCE_OUTCOME_LIMIT) -> list[tuple[tuple[int, ...], float]]:
        """The possible results of the pending chance event with their probabilities.

        For the turn's roll an outcome is a sorted tuple of die types (the dice drawn and the
        faces they show; dice of one colour set are interchangeable); for a penalty reroll or a
        "roll a 6" roll it is a 1-tuple with the face; for an Explosives Instructor's reroll, the
        new faces of the rerolled dice in order. Probabilities sum to 1.

        An event with more than ``limit`` outcomes (``CHANCE_OUTCOME_LIMIT``, a million; None: no
        limit) raises ``TooManyOutcomes`` instead of listing them (an epic roll has ~10^8): use
        ``chance_count``, ``chance_dice`` or ``sample_chance_outcome`` for those (docs/rules.md I-02).
        """
        if not self.is_chance:
            return []
        if limit is not None:
            n = self.chance_count()
            if n > limit:
                raise TooManyOutcomes(n, limit)
        return self.head().outcomes(self)

    def chance_dice(self) -> ChanceDice | None:
        """The pending chance event as its parts (dice drawn from the bag, faces rolled), or None
        when none is pending: it counts, describes one die and samples without listing outcomes."""
        if not self.is_chance:
            return None
        head = self.head()
        if isinstance(head, turn.RollStep):
            bag: dict[int, int] = {}
            for d in self.bag:
                cs = self.dice.colours[d]
                bag[cs] = bag.get(cs, 0) + 1
            return ChanceDice("roll", turn.dice_to_draw(self), bag)
        if isinstance(head, roles.Rerolling):
            return ChanceDice("faces", len(head.dice))
        return ChanceDice("faces", 1)  # a penalty reroll, "roll a 6"

    def chance_count(self) -> int:
        """How many outcomes ``chance_outcomes`` would list (0 when no chance event is pending),
        computed without listing them."""
        c = self.chance_dice()
        return 0 if c is None else c.count()

    def sample_chance_outcome(self, rng: Rng) -> tuple[int, ...]:
        """One outcome of the pending chance event, drawn with its exact probability from ``rng``
        (the caller's generator; the game's own is untouched), for ``apply_chance``."""
        c = self.chance_dice()
        if c is None:
            raise IllegalAction("no_chance")
        return c.sample(rng)

    def apply_chance(self, outcome: tuple[int, ...]) -> list[Event]:
        """Apply one chance outcome (from ``chance_outcomes``) instead of sampling it."""
        if not self.is_chance:
            raise IllegalAction("no_chance")
        ev: list[Event] = []
        self.head().settle_chance(self, outcome, ev)
        self._advance(ev, False)
        return ev

    def settle(self, chance: bool = False) -> list[Event]:
        """Run the automatic steps a freshly edited position is due (end a finished distribution,
        refill the row, start the penalty, end the turn), as ``apply`` does after every action."""
        ev: list[Event] = []
        self._advance(ev, chance)
        return ev

    def sample_chance(self) -> list[Event]:
        """Resolve the pending chance event with the game's own generator."""
        ev: list[Event] = []
        self._advance(ev, True)
        return ev

    # ================================================================== copies and data
    def clone(self) -> GameState:
        """An independent copy (cheaper than a deep copy: cards, config and tables are shared)."""
        # attribute by attribute: the compiled engine's states have no __dict__ to copy
        g = GameState()
        g.config, g.catalogue, g.dice = self.config, self.catalogue, self.dice
        g._bombs, g._sparks, g._cards, g._fuses, g._roles = (self._bombs, self._sparks, self._cards,
                                                            self._fuses, self._roles)
        g.compiled, g.steps, g._limit_ms, g.quota = self.compiled, self.steps, self._limit_ms, self.quota
        g.time_ms, g.turn, g.leader, g.phase, g.outcome = (self.time_ms, self.turn, self.leader, self.phase,
                                                           self.outcome)
        g.listening = self.listening
        g.rng = Rng(self.rng.state)
        g.faces = self.faces[:]
        g.types = self.types[:]
        g.bag = self.bag[:]
        g.hands = [[hc.copy() for hc in hand] for hand in self.hands]
        g.row, g.deck = self.row[:], self.deck[:]
        g.score_pile, g.fuses_activated = self.score_pile[:], self.fuses_activated[:]
        g.rolled, g.free, g.taken, g.done, g.unused = (self.rolled[:], self.free[:], self.taken[:],
                                                       self.done[:], self.unused[:])
        g.picks = [p.copy() for p in self.picks]
        g.queue = [item.clone() for item in self.queue]
        g.parts = {name: part.clone() for name, part in self.parts.items()}
        g._wire()
        return g

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (including the generator: keep it from players)."""
        return {
            "version": STATE_VERSION, "config": self.config.to_dict(), "dice": self.dice.text(),
            "rng": self.rng.state, "time_ms": self.time_ms, "faces": self.faces[:], "bag": self.bag[:],
            "hands": [[hc.to_json() for hc in hand] for hand in self.hands],
            "row": self.row[:], "deck": self.deck[:], "score_pile": self.score_pile[:],
            "fuses_activated": self.fuses_activated[:], "turn": self.turn, "leader": self.leader,
            "phase": self.phase.value, "rolled": self.rolled[:], "free": self.free[:],
            "taken": self.taken[:], "done": self.done[:], "unused": self.unused[:],
            "picks": [p.to_json() for p in self.picks],
            "queue": [part_to_json(item) for item in self.queue],
            "parts": {name: part.to_json() for name, part in self.parts.items()},
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        """Rebuild a state from ``to_dict`` data (``from_dict(s.to_dict()) == s``)."""
        if d.get("version") != STATE_VERSION:
            raise ValueError(f"not a game state of version {STATE_VERSION}")
        g = cls(GameConfig.from_dict(d["config"]), DiceSet.parse(d["dice"]))
        g.rng = Rng(d["rng"])
        g.time_ms, g.faces, g.bag = d["time_ms"], list(d["faces"]), list(d["bag"])
        g.hands = [[HandCard.from_json(h) for h in hand] for hand in d["hands"]]
        g.row, g.deck = list(d["row"]), list(d["deck"])
        g.score_pile, g.fuses_activated = list(d["score_pile"]), list(d["fuses_activated"])
        g.turn, g.leader, g.phase = d["turn"], d["leader"], Phase(d["phase"])
        g.rolled, g.taken, g.done = list(d["rolled"]), list(d["taken"]), list(d["done"])
        g.unused = list(d["unused"])
        g.picks = [Pick.from_json(p) for p in d["picks"]]
        g.queue = [cast(Pending, part_from_json(x)) for x in d["queue"]]
        g.parts = {name: Part.registry[name].from_json(x) for name, x in d["parts"].items()}
        g._wire()
        g.outcome = Outcome.from_dict(d["outcome"]) if d["outcome"] else None
        g.refresh_types()
        g.free = list(d["free"])  # dice of the roll on cards since defused are neither free nor placed
        return g

    def refresh_types(self) -> None:
        """Recompute the derived caches (die types; the dice left in the middle, taken to be the
        rolled dice not on a card) after editing dice, faces, cards or the roll directly."""
        self.types = [die_type(c, f) for c, f in zip(self.dice.colours, self.faces)]
        for hand in self.hands:
            for hc in hand:
                hc.types = tuple(EMPTY if x == EMPTY else self.types[x] for x in hc.dice)
                hc.key = self.compiled[hc.card].key(hc.types)
        placed = {d for hand in self.hands for hc in hand for d in hc.dice}
        self.free = [d for d in self.rolled if d not in placed] if self.phase is Phase.DISTRIBUTE else []

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:  # states are mutable; identity hash like any object
        return id(self)

    def __repr__(self) -> str:
        return f"<GameState turn {self.turn} {self.phase.value} leader P{self.leader + 1} t={self.time_ms}ms>"


# the setup lives in its own module; it is part of this module's public face
from fusegame.rules.setup import new_game  # noqa: E402

__all__ = [
    "BadTime", "Decision", "GameOverError", "GameState", "HandCard", "IllegalAction", "IllegalPlacement",
    "LegalActions", "NotYourDecision", "Phase", "Pick", "compiled", "defusal", "new_game",
]
