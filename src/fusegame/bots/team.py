"""The team planner: one mind deciding every seat's move, as a well-drilled table would.

Its currency is *work*: the expected number of dice each card still needs (``bots.value``).
A placement is worth the work it saves on its card (a completion saves all of it, plus a little
for the card's points); a die nobody takes costs what the unused-dice penalty is expected to
undo (FUSE), and a seat that falls short of its quota costs a spark's work (Countdown and the
sparks module). For a roll it chooses the whole team's assignment of dice to seats and slots:
exactly, by dynamic programming over seats and the set of dice used, when every seat takes at
most one die; by a pruned search over placement sequences when a seat may take several (1-2
players, a Logistics leader). Late in the game, when fewer bombs are left in the middle than
there are unfinished bombs in front of the players, work on the cards that will likely be left
unfinished can count for less (``Weights.dud_gain``). It also picks replacement cards (easy
ones while the middle is full, the hardest once a new card is unlikely to need finishing), gives
up the die whose loss costs least, names and uses the leader's role, and defuses early where it
may.

Only the engine's public API is used, and no randomness of its own: where it looks at the rolls
that may come next (``Weights.look_rolls``), it draws them from a generator seeded by the
position, so the same position always gets the same plan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from fusegame.bots.value import CardModel, card_model, type_weights
from fusegame.constraints import EMPTY
from fusegame.dice import BY_LETTER, LETTERS, die_type
from fusegame.rng import Rng
from fusegame.rules import defusal
from fusegame.rules.actions import (
    Action,
    Defuse,
    Done,
    GiveUp,
    Name,
    Place,
    RerollUnused,
    Rethrow,
    ReturnFree,
    RollSix,
    TakeCard,
    with_time,
)
from fusegame.rules.config import dice_per_turn
from fusegame.rules.decision_kinds import answer_declared
from fusegame.rules.decision_kinds import complete as complete_table
from fusegame.rules.games import Difficulty
from fusegame.rules.roles import VERBS as ROLE_VERBS
from fusegame.rules.state import Decision, GameState, Phase


@dataclass(frozen=True)
class Weights:
    """The planner's tunable judgement."""

    #: work units a point of a completed card is worth (winning matters more than points)
    points: float = 0.4
    #: work units one point is worth when choosing a card to take (0 in play: the game is won by
    #: emptying the middle, whatever the cards score; research/planner.md, "The card to take without its
    #: points")
    take_points: float = 0.5
    #: work units a card to take costs for each of its slots and points, below Insane and Heroic:
    #: small cards first leaves the big ones to be taken last, and the game is won once the
    #: middle is empty, whatever is then in front of the players (0: the card's expected work
    #: alone decides)
    take_size: float = 0.0
    #: what a placement on a card that will likely never need finishing is worth, as a share of
    #: its work saved, below Insane and Heroic (1: every card counts alike; see ``likely_duds``)
    dud_gain: float = 1.0
    #: at Insane and Heroic, where every card must be finished: 1 takes the hardest card in the
    #: middle, so that the cards taken last, which must be finished in the last minutes while the
    #: seats whose cards are done can no longer help, are the quick ones; 0 the easiest
    top_take_hardest: float = 0.0
    #: a role action is used only if it improves the plan by more than this much work
    role_margin: float = 0.25
    #: options kept per die in the search for seats that may take several dice
    branch: int = 3
    #: the same in games with role cards (Countdown, FUSE with the roles module): a role is tried
    #: by planning the roll again, so a wider search there would cost the in-play time budget
    role_branch: int = 3
    #: 1 weighs the penalty for a roll's unused dice on the cards as the plan leaves them: the
    #: penalty comes after the placements, so it can take a die just placed, and none from a card
    #: the plan completes (where a seat takes several dice, for the search's best few plans); 0
    #: weighs it on the cards as they were before the roll
    penalty_after_plan: float = 0.0
    #: where a seat takes several dice, how many of the dice search's best plans are weighed again
    #: with the penalty after their placements (``penalty_after_plan``); 32 was measured worse
    penalty_leaves: int = 8
    #: at Standard in FUSE where every seat takes one die (3 players or more), the chance, after
    #: each die a card is offered in its model of work (``bots.value``), that a penalty die follows
    #: and takes a matching die the card may lose: a card whose dice lie open to the penalty is
    #: further from done than its empty slots say (0: no penalty in the model). There the
    #: penalty-aware models win more games, and at Expert and Elite, or at every level, they do not
    #: (research/planner.md, "The penalty in the cards' models at Standard")
    standard_penalty_rate: float = 0.0
    #: the most states a card may have and still be solved exactly in its model of work; a card
    #: with more is estimated by roll-outs (``bots.value.EXACT_BUDGET``), whose noise can make a
    #: die look worth many dice on one state and its loss a gain on the next
    exact_states: int = 400
    #: on a card with more states than that, the states with at most this many empty slots are
    #: solved exactly, and a roll-out stops there and adds their value; a card's tail is shorter
    #: where solving it could visit more than ``exact_states`` states (``bots.value.tail_length``:
    #: three slots in FUSE, two on most Countdown cards, whose split dice make twice the classes)
    exact_tail: int = 1
    #: in FUSE, the exact tail only at tables of at least this many players (0: every table);
    #: in play 3, since at 1-2 players Elite it lost more deals than it won...
    tail_from_players: int = 0
    #: ...and in Countdown, at every table, only where this is 1 (research/planner.md, "The end of a
    #: big card solved exactly"). There it won much at Heroic and 3 players, but lost 4-player
    #: Standard deals to an empty bag until the bag was weighed (``bag_guard``)
    tail_in_countdown: int = 1
    #: in Countdown, while the bag holds fewer dice than twice the players, a die placed on a card
    #: it does not complete counts this many dice of work less: an empty bag at the start of a
    #: turn loses the game (0: the bag is not weighed)
    bag_guard: float = 0.0
    #: the next rolls sampled to judge a roll's best plans again where every seat takes at most
    #: one die (FUSE at 3 players or more): each plan is worth its work saved plus, with
    #: ``look_weight``, the mean over those rolls of the best the team could then do with them,
    #: less the penalty for the dice nobody could take. The cards' models each see one card
    #: alone; this sees whether the team's open slots, as the plan leaves them, fit the dice to
    #: come (0: the roll alone decides)
    look_rolls: int = 0
    #: how many of the roll's best plans, by their own value, are judged so
    look_plans: int = 6
    #: what the next roll's best is worth against this roll's work saved: a half was measured at
    #: least as good as the whole, and twice as much worse (research/planner.md, "The next roll")
    look_weight: float = 0.5
    #: where every seat takes one die a roll (FUSE at 3 players or more), except late in the game
    #: when the card to take is the hardest, it gains this many times the best the team could do
    #: with the next roll once it holds the card (the mean over ``look_rolls`` rolls drawn from
    #: the bag): a card that fits the dice still to come, beside the team's other cards, is worth
    #: more (0: the next roll does not count)
    take_look: float = 0.0
    #: where the card to take is judged so, what its size counts instead of ``take_size``: the
    #: next roll tells apart cards the size alone would have ranked
    take_look_size: float = 0.0
    #: late in the game below Insane and Heroic (no more bombs in the middle than players, and no
    #: spark card open), a bomb completed gains this much over its work, shared among the bombs
    #: left: a roll whose completions take the last bombs wins the game now, whatever work the
    #: other plans save (``bombs_to_win``)
    win_bonus: float = 0.0


#: The planner's judgement in play: the bots in rooms, the hints, ``--policy play``. The card to
#: take after a defusal is the smallest (slots plus points) rather than the easiest, and its points
#: earn it nothing more (the game is won by emptying the middle, whatever the cards score); late in
#: the game a die on a card that will likely never need finishing counts a quarter of its work; at
#: Insane and Heroic it is the hardest. A seat that may take several dice (1-2 players) has six
#: options a die searched instead of three, in games without role cards. The penalty for the dice
#: left is weighed on the cards as the roll's placements leave them. Cards of up to 3,000 states
#: are solved exactly rather than estimated by roll-outs, and the last slots of bigger cards, where
#: a roll-out stops (in FUSE at 3 players or more); in Countdown a die that does not complete its
#: card counts a die less while the bag runs low. Where every seat takes one die (FUSE at 3 players
#: or more), the roll's best plans are judged again by 32 sampled next rolls, and so is the card to
#: take, whose size then counts 4 dice of work a slot or point rather than 10. Late in the game a
#: roll that can take the last bombs from the middle takes them. At Standard in FUSE, where every
#: seat takes one die, a card's model of work counts the penalty that may take its dice. Measured
#: on the same deals, it wins more often at every table where the planner loses games
#: (research/planner.md, "The smallest card first", "Finish what can still win", "The hard cards
#: first where every card counts", "The penalty after the placements", "Cards solved exactly", "The
#: next roll", "The card the next roll fits", "The roll that wins", "The card to take without its
#: points" and "The penalty in the cards' models at Standard").
PLAY_WEIGHTS = Weights(take_size=10.0, dud_gain=0.25, top_take_hardest=1.0, branch=6,
                       penalty_after_plan=1.0, exact_states=3000, exact_tail=3,
                       tail_from_players=3, tail_in_countdown=1, bag_guard=1.0, look_rolls=32,
                       take_look=10.0, take_look_size=4.0, win_bonus=100.0, take_points=0.0,
                       standard_penalty_rate=0.1)

#: The planner in play given the analysis budget (``--policy search``, up to about a second a
#: roll): the same judgement, with 128 next rolls rather than 32 judging 12 of the roll's plans
#: rather than 6, and cards of up to 20,000 states solved exactly rather than 3,000. Measured on
#: fresh deals and at every table where the planner in play loses games, it won as often, within
#: the noise (research/past_the_roll.md, "The analysis budget"); a roll costs it about three times
#: as long, over the in-play budget.
SEARCH_WEIGHTS = replace(PLAY_WEIGHTS, look_rolls=128, look_plans=12, exact_states=20000)


#: The most placements of a die on a card state (and half as many role decisions) a planner keeps:
#: a room's planner and a simulation worker's stay within a few tens of megabytes (200,000 before,
#: which a worker reached only after thousands of games, its memory growing all the while).
OPTION_MEMO = 50_000

_NONE: frozenset[tuple[int, str]] = frozenset()


def card_size(state: GameState, card: str) -> int:
    """A card's size as ``Weights.take_size`` weighs it: its slots plus its points."""
    return len(state.card_rules(card).empty) + state.bomb(card).points


@dataclass(frozen=True)
class Move:
    """One placement the plan makes, and what it is worth."""

    action: Action
    gain: float  #: work saved (negative: the card gets harder; a completion that wins: more)
    completes: bool
    before: float  #: expected dice the card needed before the placement
    after: float


@dataclass
class Plan:
    """The team's move for the dice now in the middle."""

    moves: list[Move] = field(default_factory=list)
    done: list[int] = field(default_factory=list)  #: seats that should take no (more) dice
    unused: list[int] = field(default_factory=list)  #: dice left for the penalty / sparks
    value: float = 0.0  #: work saved, net of the expected penalty or spark cost
    #: the penalty's expected cost of each unused die, on the cards as the plan's placements leave
    #: them, where the planner weighed it so (``Weights.penalty_after_plan``); else empty
    penalty: dict[int, float] = field(default_factory=dict)
    #: where the next rolls changed the plan (``Weights.look_rolls``): the moves the roll alone
    #: would have made, and how much more work the team's next roll is expected to do after this
    #: plan than after those (in dice, more than none; else None and 0)
    alone: list[Move] | None = None
    ahead: float = 0.0
    #: where a seat takes several dice: the placements after each card's first, planned now but
    #: made only once the first has landed (the plan is made afresh then)
    rest: list[Move] = field(default_factory=list)

    def first(self, state: GameState) -> Action:
        if self.moves:
            return max(self.moves, key=lambda m: (m.completes, m.gain)).action
        return Done(self.done[0], state.time_ms)


class CardOption(NamedTuple):
    """One legal slot for a die on a card, and what putting it there does."""

    gain: float  #: work saved (plus the card's points, weighted, when it completes)
    slot: int
    key: tuple[int, ...]  #: the card's key afterwards
    completes: bool


class Option(NamedTuple):
    """One legal placement for a seat: a die on a slot of one of its cards."""

    gain: float
    die: int
    card: str
    slot: int
    key: tuple[int, ...]  #: the card's key afterwards
    completes: bool



class _Step(NamedTuple):
    """A queued action of a roll's plan, and what it was planned for: the card's key and the die's
    type and temporary colour (a role may turn or recolour a die after the plan was made)."""

    action: Action
    key: tuple[int, ...] | None
    die: tuple[int, int] | None


class TeamPlanner:
    """The ``team`` policy: ``planner(state, rng)`` returns the team's next action."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.w = weights or Weights()
        self._weights: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._last_dice: object = None
        self._last_weights: tuple[float, ...] = ()
        self._role_seen: dict[tuple[object, ...], Action | None] = {}
        self._costs: dict[tuple[object, ...], float] = {}
        self._last_spark: tuple[object, float] = (None, 0.0)
        #: tuples, not lists: once the collector has seen that they hold only numbers it stops
        #: tracking them, so a large memo costs its full passes nothing
        self._opt_memo: dict[tuple[object, ...], tuple[CardOption, ...]] = {}
        #: the card tables whose ids key the memo, held so that no other tables can take their
        #: address while an entry names it (a process may load one catalogue after another)
        self._memo_rules: dict[int, object] = {}
        self._pending: tuple[GameState, int, list[_Step]] | None = None
        self._duds: tuple[tuple[object, ...], frozenset[tuple[int, str]]] = ((), _NONE)
        #: the position being planned, its likely duds and a bomb completion's share of the win
        self._planning: tuple[GameState, frozenset[tuple[int, str]], float] | None = None

    # ================================================================== policy
    def __call__(self, state: GameState, rng: Rng | None = None) -> Action:
        return self.act(state)

    def act(self, state: GameState) -> Action:
        """The next action for the team (of any seat that may act now)."""
        decisions = state.to_act()
        if not decisions:
            raise RuntimeError(f"no seat may act: {state!r}")
        at = state.time_ms
        # a decision answered at once (the steps give none of these beside another but "take")
        for seat, dec in decisions.items():
            if dec.kind not in _AT_ONCE:  # a kind the rules declare where they give it
                declared = answer_declared(state, seat, dec.kind)
                if declared is not None:
                    return declared
                continue
            answer = _AT_ONCE[dec.kind]
            if answer is not None:
                return answer(self, state, seat, dec)
        if state.config.countdown_rules and state.players <= 2:
            # early defusal (1-2 players) frees the dice and brings a new card: always worth it
            for seat in decisions:
                for a in state.legal_actions(seat):
                    if isinstance(a, Defuse):
                        return a
        role = self.choose_role(state)
        if role is not None:
            return role
        pending = self._next_pending(state, decisions)
        if pending is not None:
            return pending
        plan = self.plan(state)
        if not plan.moves and not plan.done:
            # only the leader's role decision is open, and it declines: end its part of the turn
            seat = next(iter(decisions))
            return Done(seat, at)
        self._queue(state, plan)
        return self._next_pending(state, decisions) or plan.first(state)

    def _queue(self, state: GameState, plan: Plan) -> None:
        """Keep the rest of a roll's plan: it stays the best plan while the roll goes as planned,
        so the next actions need no new search."""
        moves = sorted(plan.moves, key=lambda m: (not m.completes, -m.gain, str(m.action)))
        steps: list[_Step] = []
        for m in moves:
            a = m.action
            hc = state.hand_card(a.seat, a.card) if isinstance(a, Place) else None
            die = (state.types[a.die], state.temp_colour(a.die)) if isinstance(a, Place) else None
            steps.append(_Step(a, hc.key if hc is not None else None, die))
        # No "done" is queued: once the placements are made the roll is looked at afresh, since a
        # role (a rethrow, say) may yet turn the dice left over into useful ones. A seat that may
        # take several dice is searched one placement at a time (its later
        # placements depend on the earlier ones): plan afresh after each of them
        if any(state.seat_quota(s) - state.taken[s] > 1 for s in state.to_act()):
            self._pending = None
            return
        self._pending = (state, state.turn, steps)

    def _next_pending(self, state: GameState, decisions: dict[int, Decision]) -> Action | None:
        if self._pending is None:
            return None
        game, turn, steps = self._pending
        if game is not state or turn != state.turn:
            self._pending = None
            return None
        free = state.unplaced()
        while steps:
            action, key, die = steps[0]
            dec = decisions.get(action.seat)
            if dec is None or dec.kind != "distribute":
                steps.pop(0)
                continue
            if isinstance(action, Place):
                hc = state.hand_card(action.seat, action.card)
                now = (state.types[action.die], state.temp_colour(action.die))
                if action.die not in free or hc is None or hc.key != key or now != die:
                    break  # the roll went otherwise (a die taken, a card changed, a die turned): plan afresh
                steps.pop(0)
                return Place(action.seat, state.time_ms, action.die, action.card, action.slot)
            steps.pop(0)
            return Done(action.seat, state.time_ms)
        self._pending = None
        return None

    # ================================================================== the roll
    def plan(self, state: GameState) -> Plan:
        """The best assignment of the dice in the middle to seats and slots."""
        decisions = state.to_act()
        seats = [s for s, d in decisions.items() if d.kind == "distribute"]
        free = state.unplaced()
        if not seats or not free:
            return Plan(done=seats)
        caps = {s: state.seat_quota(s) - state.taken[s] for s in seats}
        if len(self._opt_memo) > OPTION_MEMO:  # bounded: long simulations share one planner
            self._opt_memo.clear()
            self._memo_rules.clear()
        # the position stands still while it is planned: its likely duds are found once
        self._planning = (state, self.likely_duds(state), self._win_share(state))
        try:
            if all(c == 1 for c in caps.values()):
                return self._match(state, seats, free)
            return self._search(state, seats, caps, free)
        finally:
            self._planning = None

    def weights(self, state: GameState) -> tuple[float, ...]:
        """The chance of each die type in this game's dice (the card models' weights)."""
        dice = state.dice
        # on the hot path: find a game's dice by identity before hashing their colours
        if self._last_dice is dice:
            w = self._last_weights
        else:
            found = self._weights.get(dice.colours)
            if found is None:
                found = self._weights[dice.colours] = tuple(type_weights(dice))
            self._last_dice, self._last_weights = dice, found
            w = found
        return w

    def model(self, state: GameState, card: str) -> CardModel:
        # on the hot path: the game's rules are asked only where a penalty may be weighed
        rate = 0.0
        if self.w.standard_penalty_rate > 0 and self._standard_one_die(state):
            rate = self.w.standard_penalty_rate
        penalty = rate if rate > 0 and not state.config.uses_sparks else 0.0
        return card_model(card, state.card_rules(card), self.weights(state), self.w.exact_states,
                          penalty=penalty, tail=self.tail(state))

    def entries(self) -> int:
        """The entries this planner's memos hold (placements worked out, penalty costs, role
        decisions): what a long-lived owner watches to bound its memory."""
        return len(self._opt_memo) + len(self._costs) + len(self._role_seen)

    def prepare(self, state: GameState) -> int:
        """Build the model of every card this game can meet (its bombs and sparks), so that no
        decision of the game pays for a card's first meeting (a model of a loose card with the
        penalty takes up to about 100 ms to build on the plain engine; the models are pure and
        shared by the process, so the plans are the same with or without this). Returns how many
        cards it looked at."""
        cards = [*state.config.playable.bombs, *state.config.playable.sparks]
        for card in cards:
            self.model(state, card.id)
        return len(cards)

    @staticmethod
    def _standard_one_die(state: GameState) -> bool:
        """FUSE at Standard where every seat takes one die a roll (``standard_penalty_rate``)."""
        config = state.config
        return (config.difficulty is Difficulty.STANDARD and state.quota == 1
                and not config.countdown_rules)

    def tail(self, state: GameState) -> int:
        """The most empty slots of a big card's states solved exactly at this table."""
        w = self.w
        if w.exact_tail <= 1:
            return 1
        if state.config.countdown_rules:
            return w.exact_tail if w.tail_in_countdown else 1
        return w.exact_tail if state.players >= w.tail_from_players else 1

    def _options(self, state: GameState, seat: int, keys: dict[str, tuple[int, ...]],
                 dice: Sequence[int]) -> list[Option]:
        """Every legal placement of ``dice`` on ``seat``'s cards whose keys are ``keys``."""
        out: list[Option] = []
        planned = self._planning
        if planned is not None and planned[0] is state:
            duds, bonus = planned[1], planned[2]
        else:
            duds, bonus = self.likely_duds(state), self._win_share(state)
        guard = self.w.bag_guard
        if guard > 0 and not (state.config.countdown_rules and len(state.bag) < 2 * state.players):
            guard = 0.0
        for hc in state.hands[seat]:
            key = keys.get(hc.card, hc.key)
            if EMPTY not in key:
                continue
            share = self.w.dud_gain if (seat, hc.card) in duds else 1.0
            for d in dice:
                for gain, j, nk, complete in self._card_options(state, hc.card, key, d):
                    # a completion counts whatever the card: it takes a bomb from the middle
                    if complete and bonus and not state.is_spark(hc.card):
                        gain += bonus
                    out.append(Option(gain if complete else gain * share - guard, d, hc.card, j, nk,
                                      complete))
        return out

    def _win_share(self, state: GameState) -> float:
        """What a bomb completed now gains beyond its work (``Weights.win_bonus``): its share of
        the win, late in the game (no more bombs to win than players)."""
        if self.w.win_bonus <= 0:
            return 0.0
        left = self.bombs_to_win(state)
        return self.w.win_bonus / left if 0 < left <= state.players else 0.0

    def bombs_to_win(self, state: GameState) -> int:
        """How many bombs completed now would win the game, one taken from the middle for each:
        the bombs left there, below Insane and Heroic while no spark card is open (0 where
        completions alone cannot win: every card in front of the players must be finished, or a
        spark cleared)."""
        if state.config.difficulty.top:
            return 0
        if any(not hc.complete and state.is_spark(hc.card) for hand in state.hands for hc in hand):
            return 0
        return self.bombs_left(state)

    def _card_options(self, state: GameState, card: str, key: tuple[int, ...],
                      d: int) -> tuple[CardOption, ...]:
        """Die ``d`` on ``card`` in state ``key``: (gain, slot, new key, completes) per legal slot.
        Remembered by what the answer depends on (the card's tables, the dice weights, how much
        of a big card's end is solved exactly at this table, the state, the die's type and any
        temporary colour), so rolls, role trials and games share it."""
        temp = state.temp_colour(d)
        return self._type_options(state, card, key, state.types[d],
                                  die_type(temp, state.faces[d]) if temp else None)

    def _type_options(self, state: GameState, card: str, key: tuple[int, ...], t: int,
                      as_type: int | None = None) -> tuple[CardOption, ...]:
        """``_card_options`` for a die of type ``t`` (that may also count as type ``as_type``,
        a colour it was given for the turn): a die still in the bag has a type but no face yet."""
        rules = state.card_rules(card)
        pts = state.bomb(card).points
        memo_key = (id(rules), id(self.weights(state)), self.tail(state), pts, key, t, as_type)
        hit = self._opt_memo.get(memo_key)
        if hit is not None:
            return hit
        m = self.model(state, card)
        canon = rules.canon
        if as_type is not None:
            slots = rules.legal_slots(key, canon[t], canon[as_type])
        else:
            slots = rules.legal_slots(key, canon[t])
        out: list[CardOption] = []
        if slots:
            before = m.draws(key)
            for j in slots:
                nk = key[:j] + (canon[t],) + key[j + 1:]
                complete = EMPTY not in nk
                gain = before - m.draws(nk) + (self.w.points * pts if complete else 0.0)
                out.append(CardOption(gain, j, nk, complete))
        self._memo_rules[id(rules)] = rules
        found = self._opt_memo[memo_key] = tuple(out)
        return found

    def _shortfall_cost(self, state: GameState, seat: int, taken: int) -> float:
        """Work added by the sparks a seat draws for taking ``taken`` dice this turn."""
        if not state.config.uses_sparks or not (state.hands[seat]):
            return 0.0
        return self.spark_cost(state) * max(0, state.quota - taken)

    def spark_cost(self, state: GameState) -> float:
        # every leaf of the dice search asks: find the game's configuration by identity before
        # hashing it (the pair holds the configuration, so its identity cannot be reused)
        last_config, last_cost = self._last_spark
        if last_config is state.config:
            return last_cost
        key: tuple[object, ...] = ("spark", state.config, id(self.weights(state)))
        hit = self._costs.get(key)
        if hit is not None:
            self._last_spark = (state.config, hit)
            return hit
        ids = [c.id for c in state.config.playable.sparks]
        w = self.weights(state)
        cost = (sum(card_model(c, state.card_rules(c), w, self.w.exact_states,
                               tail=self.tail(state)).draws(
            state.card_rules(c).empty) for c in ids)
                / len(ids)) if ids else 5.0
        cost -= self.w.points * 2  # a defused spark scores 2
        self._costs[key] = cost
        self._last_spark = (state.config, cost)
        return cost

    def penalty_cost(self, state: GameState, die: int) -> float:
        """Expected work the unused-dice penalty undoes when ``die`` is rerolled (FUSE)."""
        if state.config.uses_sparks:
            return 0.0
        return self._penalty_cost(state, die, tuple(
            tuple((hc.card, hc.key, tuple(hc.dice)) for hc in hand if not hc.complete)
            for hand in state.hands))

    def penalty_cost_after(self, state: GameState, die: int, placed: Sequence[tuple[int, Option]]) -> float:
        """``penalty_cost`` on the cards as they will be once the placements ``placed`` (seat and
        option, in order) are made: the penalty comes after them."""
        if state.config.uses_sparks:
            return 0.0
        after: dict[tuple[int, str], tuple[tuple[int, ...], list[int], bool]] = {}
        for seat, o in placed:
            hc = state.hand_card(seat, o.card)
            if hc is None:
                continue
            prev = after.get((seat, o.card))
            dice = prev[1] if prev is not None else list(hc.dice)
            dice[o.slot] = o.die
            after[(seat, o.card)] = (o.key, dice, o.completes or (prev is not None and prev[2]))
        hands: list[tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]] = []
        for seat, hand in enumerate(state.hands):
            cards: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = []
            for hc in hand:
                change = after.get((seat, hc.card))
                if hc.complete or (change is not None and change[2]):
                    continue  # a complete card's dice are safe
                if change is not None:
                    cards.append((hc.card, change[0], tuple(change[1])))
                else:
                    cards.append((hc.card, hc.key, tuple(hc.dice)))
            hands.append(tuple(cards))
        return self._penalty_cost(state, die, tuple(hands))

    def _penalty_cost(self, state: GameState, die: int,
                      hands: tuple[tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...], ...]) -> float:
        """The penalty's cost for ``die`` over each seat's unfinished cards, ``(card, key, dice)``."""
        colours = state.dice.colours[die]
        # the cost depends on each card, each seat's cards apart, and the colour and face of every
        # die on them (a card's key only names the classes of dice the card tells apart): all of it
        # goes in the key, or what a planner met before would change its choices
        dc, faces = state.dice.colours, state.faces
        duds = self.likely_duds(state)
        memo_key = ("penalty", colours, duds, id(self.weights(state)), self.tail(state), tuple(
            tuple((card, key, tuple((dc[d], faces[d]) if d != EMPTY else None for d in dice))
                  for card, key, dice in hand)
            for hand in hands))
        hit = self._costs.get(memo_key)
        if hit is not None:
            return hit
        cost = _over_faces([self._seat_penalty(state, colours, seat, hands[seat], duds)
                            for seat in range(state.players)])
        if len(self._costs) > 50_000:  # bounded: long simulations share one planner
            self._costs.clear()
        self._costs[memo_key] = cost
        return cost

    def _seat_penalty(self, state: GameState, colours: int, seat: int,
                      hand: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...],
                      duds: frozenset[tuple[int, str]]) -> tuple[float | None, ...]:
        """For each face a rerolled die of ``colours`` may show, the least work the penalty can
        take from ``seat``'s unfinished cards ``(card, key, dice)``; None where it takes none."""
        dc, faces = state.dice.colours, state.faces
        out: list[float | None] = []
        for face in range(1, 7):
            best: float | None = None
            for card, key, dice in hand:
                rules = state.card_rules(card)
                m = self.model(state, card)
                before = m.draws(key)
                share = self.w.dud_gain if (seat, card) in duds else 1.0
                for j in rules.removable(key):
                    d = dice[j]
                    if dc[d] & colours or faces[d] == face:
                        c = (m.draws(m.without(key, j)) - before) * share
                        if best is None or c < best:
                            best = c
            out.append(best)
        return tuple(out)

    def _remember(self, key: tuple[object, ...], value: Action | None) -> None:
        if len(self._role_seen) > OPTION_MEMO // 2:
            self._role_seen.clear()
        self._role_seen[key] = value

    def _match(self, state: GameState, seats: list[int], free: list[int]) -> Plan:
        """Every seat takes at most one die: exact DP over seats and the set of dice used."""
        index = {d: i for i, d in enumerate(free)}
        best_opt: list[dict[int, Option]] = []
        for s in seats:
            per_die: dict[int, Option] = {}
            found = self._options(state, s, {}, free)
            for o in found:
                prev = per_die.get(o.die)
                if prev is None or o.gain > prev.gain:
                    per_die[o.die] = o
            best_opt.append(per_die)
        # table: mask of dice used -> (value, choices per seat so far)
        table: dict[int, tuple[float, tuple[Option | None, ...]]] = {0: (0.0, ())}
        for i, s in enumerate(seats):
            nxt: dict[int, tuple[float, tuple[Option | None, ...]]] = {}
            idle = -self._shortfall_cost(state, s, state.taken[s])
            took = -self._shortfall_cost(state, s, state.taken[s] + 1)
            for mask, (v, ch) in table.items():
                cand = [(v + idle, mask, ch + (None,))]
                for d, o in best_opt[i].items():
                    bit = 1 << index[d]
                    if not mask & bit:
                        cand.append((v + o.gain + took, mask | bit, ch + (o,)))
                for nv, nm, nch in cand:
                    kept = nxt.get(nm)
                    if kept is None or nv > kept[0]:
                        nxt[nm] = (nv, nch)
            table = nxt
        # the penalty's cost for each die left: on the cards as each assignment leaves them, or as
        # they are now (the same for every assignment, so counted once)
        after = self.w.penalty_after_plan > 0 and not state.config.uses_sparks
        pen = ({d: self.penalty_cost(state, d) for d in free}
               if not state.config.uses_sparks and not after else {})
        # each seat's share of the penalty depends only on its own cards, so it is worked out once
        # for each seat, die and choice of that seat (``penalty_cost_after``, summed as it sums)
        faces = _SeatFaces(self, state, seats) if after else None
        final: tuple[float, int, tuple[Option | None, ...], dict[int, float]] | None = None
        for mask, (v, ch) in sorted(table.items()):
            unused = [d for d in free if not mask >> index[d] & 1]
            costs: dict[int, float] = {}
            if faces is not None:
                costs = {d: faces.cost(d, ch) for d in unused}
                total = v - sum(costs.values())
            else:
                total = v - sum(pen.get(d, 0.0) for d in unused)
            if final is None or total > final[0] + 1e-9:
                final = (total, mask, ch, costs)
        assert final is not None
        value, mask, choices, costs = final
        alone: list[Move] | None = None
        ahead = 0.0
        # only where every seat takes one die a roll (3 players or more): the next roll's best
        # is then the same kind of assignment as this one's
        # (not where a seat that takes no die draws a spark: Countdown at 3 and 4 players, FUSE
        # with the sparks module)
        if (self.w.look_rolls > 0 and not state.config.uses_sparks
                and state.quota == 1 and len(seats) > 1 and state.bag):
            # each seat's best option for each die
            per_seat = [list(per_die.values()) for per_die in best_opt]
            looked = _LookAhead(self, state, seats, free, per_seat, faces, pen)
            own, chosen, ahead = looked.best(choices)
            if [_choice_id(o) for o in chosen] != [_choice_id(o) for o in choices]:
                # the plan says the next roll changed it only where the next roll gains: a plan
                # better by its own value alone (one the roll's programme missed) needs no word
                if ahead > 0:
                    alone = [self._move(state, s, o) for s, o in zip(seats, choices) if o is not None]
                value, choices = own, chosen
                mask = sum(1 << index[o.die] for o in choices if o is not None)
                if faces is not None:
                    costs = {d: faces.cost(d, choices) for d in free if not mask >> index[d] & 1}
            if alone is None:
                ahead = 0.0
        plan = Plan(value=value, unused=[d for d in free if not mask >> index[d] & 1], penalty=costs,
                    alone=alone, ahead=ahead)
        for s, choice in zip(seats, choices):
            if choice is None:
                plan.done.append(s)
            else:
                plan.moves.append(self._move(state, s, choice))
        return plan

    def _move(self, state: GameState, seat: int, o: Option) -> Move:
        gain, die, card, slot, nk, complete = o
        m = self.model(state, card)
        hc = state.hand_card(seat, card)
        before = m.draws(hc.key) if hc is not None else 0.0
        return Move(Place(seat, state.time_ms, die, card, slot), gain, complete, before, m.draws(nk))

    def _search(self, state: GameState, seats: list[int], caps: dict[int, int], free: list[int]) -> Plan:
        """Some seat may take several dice: search placement sequences, die by die."""
        pen = {d: self.penalty_cost(state, d) for d in free} if not state.config.uses_sparks else {}
        search = _DiceSearch(self, state, seats, free, pen)
        search.go(0, {s: {} for s in seats}, dict(caps), {s: 0 for s in seats}, 0.0, [])
        choices, value = search.best_choices, search.best_value
        costs: dict[int, float] = {}
        if self.w.penalty_after_plan > 0 and pen:
            # the few best placements by the penalty as the cards are now, weighed again with the
            # penalty on the cards as each leaves them (every leaf would cost too much time)
            best: tuple[float, list[tuple[int, Option]], dict[int, float]] | None = None
            for before, chosen in sorted(search.leaves, key=lambda x: -x[0]):
                taken = {o.die for _, o in chosen}
                total: float = before
                leaf: dict[int, float] = {}
                for d in free:
                    if d not in taken:
                        leaf[d] = self.penalty_cost_after(state, d, chosen)
                        total += pen[d] - leaf[d]
                if best is None or total > best[0] + 1e-9:
                    best = (total, chosen, leaf)
            if best is not None:
                value, choices, costs = best
        plan = Plan(value=value, penalty=costs)
        used = set()
        placing = set()
        for s, o in choices:
            used.add(o.die)
            placing.add(s)
        # only the first placement of each card is certain to be legal now; the rest are
        # re-planned after it lands
        seen_cards: set[str] = set()
        for s, o in choices:
            if o.card not in seen_cards:
                seen_cards.add(o.card)
                plan.moves.append(self._move(state, s, o))
            else:
                plan.rest.append(self._move(state, s, o))
        plan.done = [s for s in seats if s not in placing]
        plan.unused = [d for d in free if d not in used]
        return plan

    # ================================================================== other decisions
    def choose_card(self, state: GameState, seat: int, look: bool = True,
                    ahead: dict[str, float] | None = None) -> str:
        """The row card (or stack top) ``seat`` should take (``look``: judged by the next roll
        too, where ``Weights.take_look`` says so; ``ahead``: ``take_ahead`` for this position,
        where the caller has it already)."""
        options = defusal.options(state)
        if len(options) == 1:
            return options[0]
        hardest = self.takes_hardest(state)
        # at Insane and Heroic every card must be finished: no big card can wait to be a dud
        take_size = 0.0 if state.config.difficulty.top else self.w.take_size

        if not look:
            ahead = {}
        elif ahead is None:
            ahead = self.take_ahead(state, seat)
        if ahead:
            take_size = self.w.take_look_size

        def score(c: str) -> tuple[float, str]:
            e = self.model(state, c).draws(state.card_rules(c).empty)
            pts = state.bomb(c).points
            v = e if hardest else -e + self.w.take_points * pts - take_size * card_size(state, c)
            if ahead:
                v += self.w.take_look * ahead[c]
            return (v, c)

        return max(options, key=score)

    def take_ahead(self, state: GameState, seat: int) -> dict[str, float]:
        """For each card ``seat`` may take, the best the team is expected to do with the next roll
        once it holds it (``Weights.take_look``; work saved less the penalty for the dice left),
        where the next roll counts: every seat takes one die a roll, no spark is drawn, and the
        card to take is not the hardest (``takes_hardest``: late in the game, a likely dud);
        else empty."""
        options = defusal.options(state)
        if (self.w.take_look <= 0 or len(options) < 2 or state.quota != 1
                or state.config.uses_sparks or self.takes_hardest(state)):
            return {}
        return _take_ahead(self, state, seat, options)

    def likely_duds(self, state: GameState) -> frozenset[tuple[int, str]]:
        """The (seat, card) pairs in front of the players that will likely never need finishing.

        The game is won once the bombs left in the middle have been taken, one for each bomb
        completed; when fewer remain than there are unfinished bombs in front of the players,
        some of those will be left unfinished (below Insane and Heroic; spark cards must always
        be cleared). Each seat works through its bombs easiest first, so its j-th bomb is done
        after the work of its j easiest: the bombs with the smallest such totals, as many as the
        bombs left, are worth finishing, and so is each seat's easiest (the seats race to the
        last completions). The rest are the likely duds; ``Weights.dud_gain`` says what
        progress on them is worth."""
        if self.w.dud_gain >= 1.0 or state.config.difficulty.top:
            return _NONE
        left = self.bombs_left(state)
        hands = tuple(tuple((hc.card, hc.key) for hc in hand
                            if not hc.complete and not state.is_spark(hc.card))
                      for hand in state.hands)
        # a card's work depends on the game's dice too: their weights are kept, so their id holds
        memo_key: tuple[object, ...] = (left, id(self.weights(state)), hands)
        if self._duds[0] == memo_key:
            return self._duds[1]
        found = _NONE
        if 0 < left < sum(len(h) for h in hands):
            totals: list[tuple[float, int, str]] = []
            keep: set[tuple[int, str]] = set()
            for seat, hand in enumerate(hands):
                work = sorted((self.model(state, card).draws(key), card) for card, key in hand)
                t = 0.0
                for j, (e, card) in enumerate(work):
                    t += e
                    totals.append((t, seat, card))
                    if j == 0:
                        keep.add((seat, card))
            totals.sort()
            keep.update((seat, card) for _, seat, card in totals[:left])
            found = frozenset((seat, card) for _, seat, card in totals if (seat, card) not in keep)
        self._duds = (memo_key, found)
        return found

    def bombs_left(self, state: GameState) -> int:
        """The bombs still to be taken from the middle (the row and the deck, or the stacks)."""
        if state.stacks is not None:
            return sum(len(s) for s in state.stacks.piles.values())
        fuses = {f.id for f in state.config.catalogue.fuses}
        return len(state.row) + sum(1 for c in state.deck if c not in fuses)

    def takes_hardest(self, state: GameState) -> bool:
        """Whether the card to take now is the hardest in the middle: late in the game below
        Insane and Heroic (``late_in_game``), and throughout at Insane and Heroic with
        ``Weights.top_take_hardest``. There every card must be finished, and the cards taken last
        must be finished at the end, when the seats whose cards are done can no longer help (in
        FUSE their dice are rerolled against the cards still open): those should be the quick
        ones."""
        if state.config.difficulty.top:
            return self.w.top_take_hardest > 0
        return self.late_in_game(state)

    def late_in_game(self, state: GameState) -> bool:
        """Whether a card taken now will likely never need finishing: the middle holds no more
        bombs than there are players (below Insane and Heroic, where every card counts). Then
        the planner takes the hardest card, a dud at the end, and leaves the easy ones for the
        seats that can still win."""
        if state.config.difficulty.top:
            return False
        return self.bombs_left(state) <= state.players

    def choose_give_up(self, state: GameState, seat: int, options: Sequence[int]) -> int:
        """The eligible die whose loss costs the least work."""
        return min(options, key=lambda d: (self.give_up_cost(state, seat, d), d))

    def give_up_cost(self, state: GameState, seat: int, die: int) -> float:
        """The work ``seat`` loses by giving up ``die`` from its cards (expected dice; a likely dud's
        work counted as ``Weights.dud_gain`` says)."""
        for hc in state.hands[seat]:
            if die in hc.dice:
                m = self.model(state, hc.card)
                j = hc.dice.index(die)
                share = self.w.dud_gain if (seat, hc.card) in self.likely_duds(state) else 1.0
                return (m.draws(m.without(hc.key, j)) - m.draws(hc.key)) * share
        return 0.0

    def judge(self, state: GameState, placements: Sequence[Place], win_bonus: bool = True) -> float:
        """The planner's own measure of a roll's placements made from ``state`` (the roll before
        any of them): the work they save, with the completions' bonuses, less the sparks drawn for
        dice not taken and the expected penalty of the dice left, as its plans weigh them without
        the next roll (``win_bonus=False``: without ``Weights.win_bonus``, in dice of work alone).
        Placements of a seat not distributing, of a die not in the middle or on no legal slot are
        passed over. ``judge`` of a plan's moves and rest against that of the
        team's placements is what a review calls the team's cost."""
        seats = [s for s, d in state.to_act().items() if d.kind == "distribute"]
        free = state.unplaced()
        keys: dict[int, dict[str, tuple[int, ...]]] = {s: {} for s in seats}
        taken = dict.fromkeys(seats, 0)
        chosen: list[tuple[int, Option]] = []
        used: set[int] = set()
        value = 0.0
        self._planning = (state, self.likely_duds(state), self._win_share(state) if win_bonus else 0.0)
        try:
            for p in placements:
                if p.seat not in keys or p.die not in free or p.die in used:
                    continue
                found = [o for o in self._options(state, p.seat, keys[p.seat], [p.die])
                         if o.card == p.card and o.slot == p.slot]
                if not found:
                    continue
                o = found[0]
                value += o.gain
                keys[p.seat][p.card] = o.key
                taken[p.seat] += 1
                used.add(p.die)
                chosen.append((p.seat, o))
            for s in seats:
                value -= self._shortfall_cost(state, s, state.taken[s] + taken[s])
            unused = [d for d in free if d not in used]
            if not state.config.uses_sparks:
                if self.w.penalty_after_plan > 0:
                    value -= sum(self.penalty_cost_after(state, d, chosen) for d in unused)
                else:
                    value -= sum(self.penalty_cost(state, d) for d in unused)
        finally:
            self._planning = None
        return value

    def choose_penalty(self, state: GameState, seat: int, options: Sequence[int]) -> Action:
        """Logistics: return free the die whose penalty would hurt most; else reroll in order."""
        at = state.time_ms
        if state.penalty is not None and state.penalty.free_return:
            worst = max(options, key=lambda d: (self.penalty_cost(state, d), -d))
            return ReturnFree(seat, at, worst)
        safest = min(options, key=lambda d: (self.penalty_cost(state, d), d))
        return RerollUnused(seat, at, safest)

    def choose_name(self, state: GameState, options: Sequence[str]) -> str:
        """Cutter: the colour the bag holds most of; Operations Engineer: the number that the
        open slots ask for least (any face is as likely, and the named dice become wild)."""
        if options and options[0] in LETTERS.values():
            def in_bag(letter: str) -> tuple[int, str]:
                bit = BY_LETTER[letter]
                return (sum(1 for d in state.bag if state.dice.colours[d] & bit), letter)
            return max(options, key=in_bag)
        return options[0]

    def choose_role(self, state: GameState) -> Action | None:
        """A role action that improves the team's plan enough, or None."""
        if state.phase is not Phase.DISTRIBUTE or not state.unplaced() or state.active_ability() is None:
            return None
        acts = [a for a in state.legal_actions(state.leader) if a.verb in ROLE_VERBS and a.verb != "name"]
        if not acts:
            return None
        roles = state.roles
        assert roles is not None  # an active ability means roles are in play
        # the whole position the plans read: the roll, the cards with their dice and the dice
        # left in the bag (a planner shared by many games must not take one game's turn for
        # another's with the same roll)
        hands = tuple(tuple((hc.card, hc.types) for hc in hand) for hand in state.hands)
        memo_key = (state.turn, tuple(state.free), tuple(state.types[d] for d in state.free),
                    tuple(roles.temp.items()), roles.uses, tuple(state.taken), hands,
                    self.bombs_left(state), len(state.bag))
        if memo_key in self._role_seen:
            seen = self._role_seen[memo_key]
            # the same position may come back later in real time (a person acted in between):
            # the decision stands, the time it carries must be now's
            return None if seen is None else with_time(seen, state.time_ms)
        base = self.plan(state)
        choice: Action | None = None
        if not base.unused and all(m.gain >= 1.0 for m in base.moves):
            self._remember(memo_key, None)  # every die already does good work
            return None
        best = base.value + self.w.role_margin
        # a role can only help with dice the plan leaves idle or uses worst: try only those
        weak = set(base.unused)
        if base.moves:
            worst = min(base.moves, key=lambda m: (m.gain, str(m.action))).action
            if isinstance(worst, Place):
                weak.add(worst.die)
        for a in acts:
            if isinstance(a, Rethrow):
                # reroll exactly the dice the plan cannot use: whatever they show next is no worse
                if base.unused and set(a.dice) == set(base.unused) and choice is None:
                    choice = a
                continue
            if getattr(a, "die", None) not in weak:  # an ability that changes one die
                continue
            trial = state.clone()
            trial.apply_unchecked(a)
            v = self.plan(trial).value
            if v > best:
                best, choice = v, a
        self._remember(memo_key, choice)
        return choice


# ====================================================================== the decisions answered at once
def _take(p: TeamPlanner, state: GameState, seat: int, dec: Decision) -> Action:
    return TakeCard(seat, state.time_ms, p.choose_card(state, seat))


def _give_up(p: TeamPlanner, state: GameState, seat: int, dec: Decision) -> Action:
    return GiveUp(seat, state.time_ms, p.choose_give_up(state, seat, dec.options))


def _roll_six(p: TeamPlanner, state: GameState, seat: int, dec: Decision) -> Action:
    return RollSix(seat, state.time_ms)


def _name(p: TeamPlanner, state: GameState, seat: int, dec: Decision) -> Action:
    return Name(seat, state.time_ms, p.choose_name(state, dec.options))


def _penalty(p: TeamPlanner, state: GameState, seat: int, dec: Decision) -> Action:
    return p.choose_penalty(state, seat, dec.options)


#: decision kind -> the planner's answer, made at once (None: the roll's plan answers it)
_AT_ONCE: dict[str, Callable[[TeamPlanner, GameState, int, Decision], Action] | None] = complete_table({
    "distribute": None, "take": _take, "give_up": _give_up, "reroll": _penalty, "name": _name,
    "roll_six": _roll_six, "role": None, "return": _penalty,
}, "bots.team")

def _over_faces(by_seat: list[tuple[float | None, ...]]) -> float:
    """The penalty's expected cost from each seat's least loss for each face (None: no loss),
    summed face by face and seat by seat: every caller adds in this one order, so the same
    position gives the same cost to the last bit whichever way it was found."""
    total = 0.0
    for face in range(6):
        for seat_faces in by_seat:
            best = seat_faces[face]
            if best is not None:
                total += best
    return total / 6


class _SeatFaces:
    """``TeamPlanner.penalty_cost_after`` for the plans of ``TeamPlanner._match``, where each seat
    places at most one die: each seat's share is worked out once per die and choice of that seat
    and summed in the order ``_penalty_cost`` sums it, so the costs are the same to the last bit."""

    def __init__(self, planner: TeamPlanner, state: GameState, seats: list[int]) -> None:
        self.planner = planner
        self.state = state
        self.duds = planner.likely_duds(state)
        self.now = [tuple((hc.card, hc.key, tuple(hc.dice)) for hc in hand if not hc.complete)
                    for hand in state.hands]
        self.column = {s: i for i, s in enumerate(seats)}
        self.shares: dict[tuple[int, int, tuple[int, str, int] | None], tuple[float | None, ...]] = {}

    def share(self, seat: int, colours: int, o: Option | None) -> tuple[float | None, ...]:
        # keyed by the die's colours, not the die: the share does not depend on its face
        key = (seat, colours, None if o is None else (o.die, o.card, o.slot))
        hit = self.shares.get(key)
        if hit is not None:
            return hit
        hand = self.now[seat]
        if o is not None:
            cards: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = []
            for card, k, dice in hand:
                if card != o.card:
                    cards.append((card, k, dice))
                elif not o.completes:  # a complete card's dice are safe
                    placed = list(dice)
                    placed[o.slot] = o.die
                    cards.append((card, o.key, tuple(placed)))
            hand = tuple(cards)
        found = self.planner._seat_penalty(self.state, colours, seat, hand, self.duds)
        self.shares[key] = found
        return found

    def cost(self, die: int, choices: tuple[Option | None, ...]) -> float:
        """The penalty's cost for ``die`` once each seat of the plan makes its choice."""
        colours = self.state.dice.colours[die]
        return _over_faces([self.share(seat, colours,
                                       choices[self.column[seat]] if seat in self.column else None)
                            for seat in range(self.state.players)])


class _LookAhead:
    """``Weights.look_rolls``: the roll's best plans (each seat at most one die) judged again by
    the rolls that may come next. Each plan leaves the team's cards in some state; for each of a
    few sampled next rolls, the best the team could then do (each seat at most one die, work
    saved less the penalty for the dice left) is added to the plan's own value, weighted by
    ``Weights.look_weight``. The rolls are drawn from the dice in the bag, with random faces, by a
    generator seeded from the position, so the same position always gets the same plan; every
    plan meets the same rolls."""

    def __init__(self, planner: TeamPlanner, state: GameState, seats: list[int], free: list[int],
                 options: list[list[Option]], faces: _SeatFaces | None,
                 pen: dict[int, float]) -> None:
        self.planner = planner
        self.state = state
        self.seats = seats
        self.free = free
        self.options = options
        self.faces = faces
        self.pen = pen
        self.plans: list[tuple[float, tuple[Option | None, ...]]] = []
        self.duds = planner.likely_duds(state)
        #: per seat and choice of that seat (``_choice_id``), its best gain by die type
        self.gains: dict[tuple[int, tuple[int, str, int]], dict[int, float | None]] = {}
        self.cards: dict[tuple[int, tuple[int, str, int]], list[tuple[str, tuple[int, ...], float]]] = {}
        self._pick: str | None = None
        self._pen_next: dict[int, float] = {}

    def best(self, chosen: tuple[Option | None, ...]) -> tuple[float, tuple[Option | None, ...], float]:
        """The best plan among the ``look_plans`` best by their own value: its own value, its
        choices, and how much more work the next roll is expected to do after it than after
        ``chosen``, the best by its own value (which keeps ties)."""
        w = self.planner.w
        self._enumerate(0, 0, ())
        self.plans.sort(key=lambda p: (-p[0], [_choice_id(o) for o in p[1]]))
        top = self.plans[:max(1, w.look_plans)]
        rolls = self._rolls()
        first = [_choice_id(o) for o in chosen]
        # the roll alone's choice first, so that it keeps ties
        ordered = sorted(top, key=lambda p: [_choice_id(o) for o in p[1]] != first)
        if [_choice_id(o) for o in ordered[0][1]] != first:
            ordered.insert(0, (self._own(chosen), chosen))
        best: tuple[float, float, tuple[Option | None, ...], float] | None = None
        alone = 0.0
        for i, (own, choices) in enumerate(ordered):
            ahead = self._next(choices, rolls)
            if i == 0:
                alone = ahead
            score = own + w.look_weight * ahead
            if best is None or score > best[0] + 1e-9:
                best = (score, own, choices, ahead)
        assert best is not None
        return best[1], best[2], best[3] - alone

    def _own(self, ch: tuple[Option | None, ...]) -> float:
        """A plan's own value: its work saved, less the penalty for the dice it leaves."""
        used = {o.die for o in ch if o is not None}
        v = sum(o.gain for o in ch if o is not None)
        for seat, o in zip(self.seats, ch):  # the sparks a seat draws for a die it does not take
            v -= self.planner._shortfall_cost(self.state, seat, self.state.taken[seat] + (o is not None))
        for d in self.free:
            if d not in used:
                v -= self.faces.cost(d, ch) if self.faces is not None else self.pen.get(d, 0.0)
        return v

    def _enumerate(self, i: int, used: int, ch: tuple[Option | None, ...]) -> None:
        """Every assignment of the roll's dice, each seat one of its options or none."""
        if i == len(self.seats):
            self.plans.append((self._own(ch), ch))
            return
        self._enumerate(i + 1, used, ch + (None,))
        for o in self.options[i]:
            bit = 1 << self.free.index(o.die)
            if not used & bit:
                self._enumerate(i + 1, used | bit, ch + (o,))

    def _rolls(self) -> list[list[tuple[int, int]]]:
        """The sampled next rolls: (die, type) for as many dice as the table rolls."""
        return _sample_rolls(self.state, self.state.bag, self.planner.w.look_rolls,
                             [self.state.types[d] for d in self.free])

    def _seat_cards(self, seat: int, o: Option | None) -> list[tuple[str, tuple[int, ...], float]]:
        """A seat's unfinished cards once it makes choice ``o``: (card, key, share of work)."""
        state, planner = self.state, self.planner
        cards: list[tuple[str, tuple[int, ...], float]] = []
        for hc in state.hands[seat]:
            if hc.complete:
                continue
            key = hc.key
            if o is not None and o.card == hc.card:
                if o.completes:
                    # the seat takes a new card: the one the planner would take now
                    if self._pick is None:
                        self._pick = (planner.choose_card(state, seat, look=False)
                                      if defusal.options(state) else "")
                    if self._pick:
                        cards.append((self._pick, state.card_rules(self._pick).empty, 1.0))
                    continue
                key = o.key
            if EMPTY in key:
                share = planner.w.dud_gain if (seat, hc.card) in self.duds else 1.0
                cards.append((hc.card, key, share))
        return cards

    def _gain(self, seat: int, o: Option | None, t: int) -> float | None:
        """The best a die of type ``t`` does for ``seat`` once it makes choice ``o``."""
        cid = _choice_id(o)
        by_type = self.gains.get((seat, cid))
        if by_type is None:
            by_type = self.gains[(seat, cid)] = {}
            self.cards[(seat, cid)] = self._seat_cards(seat, o)
        if t not in by_type:
            by_type[t] = _best_gain(self.planner, self.state, self.cards[(seat, cid)], t)
        return by_type[t]

    def _next(self, choices: tuple[Option | None, ...], rolls: list[list[tuple[int, int]]]) -> float:
        """The mean over ``rolls`` of the best the team does with them after ``choices``."""
        state = self.state
        column = {s: i for i, s in enumerate(self.seats)}
        seat_choice = [choices[column[s]] if s in column else None for s in range(state.players)]
        # a seat that takes no die of the next roll draws a spark (Countdown, the sparks module)
        idles = [self.planner._shortfall_cost(state, seat, 0) for seat in range(state.players)]
        total = 0.0
        for roll in rolls:
            gains = [[self._gain(seat, seat_choice[seat], t) for _, t in roll]
                     for seat in range(state.players)]
            total += _roll_value(gains, idles, [self._penalty(d) for d, _ in roll])
        return total / len(rolls)

    def _penalty(self, die: int) -> float:
        """The penalty's cost for a die of the next roll nobody takes, on the cards as they are
        now (on the cards as the plan leaves them was measured no better)."""
        hit = self._pen_next.get(die)
        if hit is None:
            hit = self._pen_next[die] = self.planner.penalty_cost(self.state, die)
        return hit


def _sample_rolls(state: GameState, bag: Sequence[int], count: int,
                  salt: Sequence[int]) -> list[list[tuple[int, int]]]:
    """``count`` rolls of the table's dice drawn from ``bag``, with random faces, by a generator
    seeded from the position (the turn, the bag's colours and ``salt``): (die, type) each."""
    dice = sorted(bag)
    colours = state.dice.colours
    n = min(len(dice), dice_per_turn(state.players))
    h = 0xCBF29CE484222325
    for v in [state.turn, len(dice), *(colours[d] for d in dice), *salt]:
        h = ((h ^ v) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    rng = Rng(h)
    out: list[list[tuple[int, int]]] = []
    for _ in range(count):
        pool = dice[:]
        roll: list[tuple[int, int]] = []
        for _k in range(n):
            d = pool.pop(rng.below(len(pool)))
            roll.append((d, die_type(colours[d], 1 + rng.below(6))))
        out.append(roll)
    return out


def _best_gain(planner: TeamPlanner, state: GameState, cards: list[tuple[str, tuple[int, ...], float]],
               t: int) -> float | None:
    """The most work a die of type ``t`` saves on one of ``cards`` ``(card, key, share of work)``
    (a completion counts whole); None where it fits none of them."""
    best: float | None = None
    for card, key, share in cards:
        for c in planner._type_options(state, card, key, t):
            g = c.gain if c.completes else c.gain * share
            if best is None or g > best:
                best = g
    return best


def _roll_value(gains: list[list[float | None]], idles: Sequence[float], penalties: Sequence[float]) -> float:
    """The best the team does with one roll, each seat taking at most one die: seat ``i`` saves
    ``gains[i][k]`` with die ``k`` (None: the die fits none of its cards) or draws sparks worth
    ``idles[i]`` taking none; each die nobody takes costs ``penalties[k]``."""
    table: dict[int, float] = {0: 0.0}
    for row, idle in zip(gains, idles):
        takes = [(1 << k, g) for k, g in enumerate(row) if g is not None and g > -idle]
        nxt = {mask: v - idle for mask, v in table.items()}
        for mask, v in table.items():
            for bit, g in takes:
                if not mask & bit:
                    nv = v + g
                    if nv > nxt.get(mask | bit, -1e18):
                        nxt[mask | bit] = nv
        table = nxt
    best = -1e18
    for mask, v in table.items():
        v -= sum([p for k, p in enumerate(penalties) if not mask >> k & 1])
        if v > best:
            best = v
    return best


def _take_ahead(planner: TeamPlanner, state: GameState, seat: int, options: list[str]) -> dict[str, float]:
    """``Weights.take_look``: for each card ``seat`` may take, the mean over the sampled next rolls
    of the best the team could do with them (each seat one die, work saved less the penalty for
    the dice left) once it holds the card."""
    duds = planner.likely_duds(state)
    # the dice of the cards being defused go back to the bag before the next roll
    bag = list(state.bag) + [d for hand in state.hands for hc in hand if hc.complete
                             for d in hc.dice if d != EMPTY]
    rolls = _sample_rolls(state, bag, max(1, planner.w.look_rolls), [seat])
    hands = [[(hc.card, hc.key, planner.w.dud_gain if (s, hc.card) in duds else 1.0)
              for hc in hand if not hc.complete and EMPTY in hc.key]
             for s, hand in enumerate(state.hands)]
    types = sorted({t for roll in rolls for _, t in roll})
    # the other seats' cards are the same whichever card is taken
    others = {s: {t: _best_gain(planner, state, hands[s], t) for t in types}
              for s in range(state.players) if s != seat}
    pen = {d: planner.penalty_cost(state, d) for d in sorted({d for roll in rolls for d, _ in roll})}
    idles = [0.0] * state.players
    out: dict[str, float] = {}
    for c in options:
        mine = hands[seat] + [(c, state.card_rules(c).empty, 1.0)]
        by_type = {s: others[s] if s != seat else {t: _best_gain(planner, state, mine, t) for t in types}
                   for s in range(state.players)}
        total = 0.0
        for roll in rolls:
            total += _roll_value([[by_type[s][t] for _, t in roll] for s in range(state.players)],
                                 idles, [pen[d] for d, _ in roll])
        out[c] = total / len(rolls)
    return out


def _choice_id(o: Option | None) -> tuple[int, str, int]:
    """A choice as a sortable key (no die: ``(-1, "", -1)``)."""
    return (-1, "", -1) if o is None else (o.die, o.card, o.slot)


class _DiceSearch:
    """The depth-first search of ``TeamPlanner._search``: every die, in order, left in the middle
    or given to one of the best few options of a seat that may still take one. (A class, not a
    nested function: a nested function that calls itself is a reference cycle, which only the
    collector frees, and simulations keep the collector out of their way.)"""

    def __init__(self, planner: TeamPlanner, state: GameState, seats: list[int], free: list[int],
                 pen: dict[int, float]) -> None:
        self.planner = planner
        self.state = state
        self.seats = seats
        self.free = free
        self.pen = pen
        self.branch = planner.w.role_branch if state.config.uses_roles else planner.w.branch
        self.best_choices: list[tuple[int, Option]] = []
        self.best_value = -1e18
        #: the best few leaves (value, placements), best last, when the penalty is weighed again
        #: after the placements (``Weights.penalty_after_plan``)
        self.keep = planner.w.penalty_leaves if planner.w.penalty_after_plan > 0 and pen else 0
        self.leaves: list[tuple[float, list[tuple[int, Option]]]] = []

    def go(self, i: int, keys: dict[int, dict[str, tuple[int, ...]]], caps: dict[int, int],
           took: dict[int, int], v: float, chosen: list[tuple[int, Option]]) -> None:
        planner, state, seats, free = self.planner, self.state, self.seats, self.free
        if i == len(free):
            total = v - sum(planner._shortfall_cost(state, s, state.taken[s] + took[s]) for s in seats)
            if total > self.best_value + 1e-9:
                self.best_choices[:] = chosen
                self.best_value = total
            if self.keep and (len(self.leaves) < self.keep or total > self.leaves[0][0]):
                # a short list kept sorted, worst first: it holds a handful of leaves
                self.leaves.append((total, list(chosen)))
                self.leaves.sort(key=lambda x: x[0])
                if len(self.leaves) > self.keep:
                    del self.leaves[0]
            return
        d = free[i]
        opts: list[tuple[float, int, Option]] = []
        for s in seats:
            if caps[s] > 0:
                for o in planner._options(state, s, keys[s], (d,)):
                    opts.append((o.gain, s, o))
        opts.sort(key=lambda x: -x[0])
        self.go(i + 1, keys, caps, took, v - self.pen.get(d, 0.0), chosen)
        for gain, s, o in opts[:self.branch]:
            nkeys = dict(keys)
            nkeys[s] = {**keys[s], o.card: o.key}
            ncaps = {**caps, s: caps[s] - 1}
            ntook = {**took, s: took[s] + 1}
            chosen.append((s, o))
            self.go(i + 1, nkeys, ncaps, ntook, v + gain, chosen)
            chosen.pop()
