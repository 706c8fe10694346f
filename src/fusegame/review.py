"""A finished game reviewed: where the team's time and dice went, and where its play cost it.

``review(record)`` replays a game's record and, at every roll, asks the planner the bots play with
(``bots.team``, ``PLAY_WEIGHTS``) what it would have done from the roll's position, and weighs the
team's placements against its own with its own measure (``TeamPlanner.judge``: the work saved in
expected dice, with the completions' bonuses, less the sparks drawn and the expected penalty for
the dice left). The difference is the roll's *cost*, in expected dice of work: an estimate by a
planner that wins 95% of 3-player Standard games, not a verdict. The cards the team took after a
defusal and the dice it gave up are weighed the same way; a roll that took much longer than the
game's usual roll costs the seconds beyond it.

Everything is a fact (seats, dice as views, card ids, numbers): the words are made at the edges,
from the catalogues' ``review.*`` templates (``fusegame.words.review`` in Python, the replay page
in the browser). The review is a pure function of the record (and which seats were bots): the same
game gives the same review, on any engine.

What it leaves out: a role's use (Countdown's leader abilities) and a choice a fuse card asks for
are replayed but not judged; a roll in which a die changed after the first placement (a role, a
rethrow) or a die went on a card taken during the roll is described but not judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass, field
from statistics import median
from typing import Any, Final

from fusegame.bots.team import PLAY_WEIGHTS, Move, TeamPlanner
from fusegame.record import GameRecord, replay
from fusegame.rules.actions import Action, Done, GiveUp, Place, RerollUnused, ReturnFree, TakeCard, Tick
from fusegame.rules.state import GameState
from fusegame.rules.views import die_view

VERSION: Final = 1
Facts = dict[str, Any]
#: A roll, card or die given up whose cost reaches this many expected dice is a costly moment.
COSTLY_DICE: Final = 0.5
#: A roll is slow past twice the game's median roll and this many seconds beyond it.
SLOW_EXTRA_S: Final = 10.0
#: The key moments a review names (the end screen shows the first ones).
KEY_MOMENTS: Final = 3


@dataclass(frozen=True)
class Moment:
    """One of the team's choices that cost it, or a roll that took long.

    ``kind``: ``roll`` (the placements of a roll), ``take`` (the card taken after a defusal),
    ``give_up`` (the die given up), ``slow`` (the roll's time). ``step``: the replay's step that
    shows the position (the actions applied before it). ``cost``: in ``unit`` (``dice``: expected
    dice of work; ``s``: seconds). ``did`` and ``better``: what the team did and what the planner
    would have done, as facts. ``why``: a reason code (``review.why.<code>`` in the catalogues).
    ``weight``: the cost in dice of work, the seconds counted at the game's pace (for ranking).
    """

    kind: str
    turn: int
    step: int
    seat: int | None
    cost: float
    unit: str
    why: str
    did: dict[str, Any] = field(default_factory=dict)
    better: dict[str, Any] = field(default_factory=dict)
    weight: float = 0.0


@dataclass(frozen=True)
class TurnReview:
    """One roll: when it began (``step``, ``start_ms``), how long the team took (``ms``), the dice
    rolled, placed and lost, and the planner's judgement (``cost`` in expected dice; None where the
    roll was not judged, with ``unjudged`` saying why)."""

    turn: int
    step: int
    end_step: int
    leader: int
    start_ms: int
    ms: int
    rolled: list[dict[str, Any]]
    placed: int
    lost: int
    cost: float | None
    unjudged: str = ""
    team: list[dict[str, Any]] = field(default_factory=list)
    best: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerReview:
    """One seat: dice placed, dice given up by cause, cards completed and taken, the median time
    from a roll to its first die claimed, and the cost of its choices (expected dice)."""

    seat: int
    bot: bool
    placed: int
    given_up: dict[str, int]
    completed: int
    taken: int
    claim_ms: int | None
    cost: float


@dataclass(frozen=True)
class Review:
    """A game's review (``review``): its rolls, key moments, seats and where the time went.

    ``time_ms``: the game's time by what the team was doing (``sharing`` the dice, ``taking`` cards,
    ``penalty`` choices, ``roles``, ``other``). ``lost``: dice given up by cause (``penalty``,
    ``fuse``...). ``cost``: the rolls', cards' and dice's costs summed (expected dice).
    ``judged``/``rolls``: the rolls judged and all rolls.
    """

    version: int
    game: str
    players: int
    difficulty: str
    won: bool | None
    score: int | None
    end_ms: int
    turns: list[TurnReview]
    moments: list[Moment]
    seats: list[PlayerReview]
    time_ms: dict[str, int]
    lost: dict[str, int]
    cost: float
    judged: int
    rolls: int
    costly: list[Moment] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON data (``GET /api/log/{id}/review``, ``fuse review --json``)."""
        return asdict(self)


def _place_facts(state: GameState, m: Place, before: float | None = None, after: float | None = None,
                 completes: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": m.seat, "die": die_view(state, m.die), "card": m.card, "slot": m.slot + 1}
    if before is not None and after is not None:
        out.update(before=round(before, 2), after=round(after, 2), completes=completes)
    return out


def _move_facts(state: GameState, m: Move) -> dict[str, Any]:
    assert isinstance(m.action, Place)
    return _place_facts(state, m.action, m.before, m.after, m.completes)


class _Part:
    """Part of a roll judged from one position: the table before its first die placed and the
    team's placements from it, up to the roll's end or a card taken or die given up (which the
    planner would plan afresh after: the team is judged on what it knew)."""

    def __init__(self, position: GameState, step: int) -> None:
        self.position = position
        self.step = step
        self.places: list[Place] = []
        self.cut = False  #: ended by a card taken or a die given up, not by the roll's end
        #: each placement with the table just before it (step, table)
        self.before: list[tuple[int, GameState]] = []


class _Roll:
    """A roll being replayed: its parts, and whether they can still be judged."""

    def __init__(self, turn: int, step: int, leader: int, start_ms: int,
                 rolled: list[dict[str, Any]]) -> None:
        self.turn = turn
        self.step = step
        self.leader = leader
        self.start_ms = start_ms
        self.rolled = rolled
        self.parts: list[_Part] = []
        self.open = False  #: the last part still takes placements
        self.unjudged = ""
        self.placed = 0
        self.lost = 0
        self.last_ms = start_ms
        self.first_claim: dict[int, int] = {}


class Reviewer:
    """Reviews records with one planner (its memos shared by the games it reviews)."""

    def __init__(self, planner: TeamPlanner | None = None) -> None:
        self.planner = planner or TeamPlanner(PLAY_WEIGHTS)

    def review(self, record: GameRecord, bots: Collection[int] = (),
               progress: Callable[[int, int], None] | None = None) -> Review:
        """The review of ``record`` (``bots``: the seats bots played). ``progress(done, total)``
        is called as the actions are gone through. Raises ``RecordError`` if the record does not
        replay."""
        p = self.planner
        start = record.initial_state()
        p.prepare(start)
        config = record.config
        actions = record.actions
        total = len(actions)
        turns: list[TurnReview] = []
        moments: list[Moment] = []
        time_ms: Counter[str] = Counter()
        lost: Counter[str] = Counter()
        placed: Counter[int] = Counter()
        given: dict[int, Counter[str]] = {s: Counter() for s in range(config.players)}
        completed: Counter[int] = Counter()
        taken: Counter[int] = Counter()
        claims: dict[int, list[int]] = {s: [] for s in range(config.players)}
        seat_cost: dict[int, float] = dict.fromkeys(range(config.players), 0.0)
        roll = _Roll(start.turn, 0, start.leader, 0, [die_view(start, d) for d in start.unplaced()])
        before = start.clone()
        last_ms = 0
        waited = 0

        def close(r: _Roll, end_step: int, over: GameState | None) -> None:
            team: list[dict[str, Any]] = []
            best: list[dict[str, Any]] = []
            cost: float | None = None
            why = r.unjudged or ("" if r.parts else "no_placement")
            if over is not None and over.outcome is not None:
                why = why or "game_over"  # the roll was cut short by the game's end
            if not why:
                # three readings of what the team knew: the roll judged in parts (afresh after
                # each card taken, as the planner may plan), placement by placement (as it plans
                # where a seat takes several dice) and, where every placement can be judged from
                # the roll's start, as one whole (as it keeps to its plan); the team is charged
                # the least cost
                readings = [[self._judge(part) for part in r.parts]]
                whole = self._whole(r.parts)
                if whole is not None:
                    readings.append([self._judge(whole)])
                singles = self._singles(r.parts)
                if len(singles) > len(r.parts):
                    readings.append([self._judge(part) for part in singles])
                judged = min(readings, key=lambda rd: sum(c for c, _, _, _ in rd))
                cost = 0.0
                for k, (c, did, better, part) in enumerate(judged):
                    team += [self._team_facts(part.position, x) for x in part.places]
                    if k == 0:
                        best = better["all"]
                    cost += c
                    # the part's cost is shared by the seats that placed otherwise than the planner
                    differ = {x["seat"] for x in did + better["places"]}
                    for seat in differ:
                        seat_cost[seat] += c / len(differ)
                    if c >= COSTLY_DICE:
                        free = len(part.position.unplaced())
                        reason = _roll_why(did, better["places"], free - len(part.places),
                                           free - len(better["all"]))
                        moments.append(Moment("roll", r.turn, part.step, None, round(c, 2), "dice", reason,
                                              {"places": did}, {"places": better["places"]}, c))
            turns.append(TurnReview(r.turn, r.step, end_step, r.leader, r.start_ms, r.last_ms - r.start_ms,
                                    r.rolled, r.placed, r.lost, None if cost is None else round(cost, 2),
                                    why if cost is None else "", team, best))
            for seat, at in r.first_claim.items():
                claims[seat].append(at - r.start_ms)

        for i, (action, events, state) in enumerate(replay(record, start=start), start=1):
            at = action.at if action.at is not None else last_ms
            # the clock's ticks go to what the team was doing: the next action's activity
            waited += max(0, at - last_ms)
            if not isinstance(action, Tick):
                time_ms[_activity(action)] += waited
                waited = 0
            last_ms = max(last_ms, at)
            roll.last_ms = last_ms
            # the choices judged from the position before the action
            if isinstance(action, Place):
                roll.first_claim.setdefault(action.seat, at)
                if not roll.unjudged:
                    if not roll.open:
                        roll.parts.append(_Part(before.clone(), i - 1))
                        roll.open = True
                    pos = roll.parts[-1].position
                    if pos.hand_card(action.seat, action.card) is None:
                        roll.unjudged = "new_card"
                    elif action.die not in pos.unplaced() or (
                            (pos.types[action.die], pos.temp_colour(action.die))
                            != (before.types[action.die], before.temp_colour(action.die))):
                        roll.unjudged = "die_changed"
                    else:
                        roll.parts[-1].places.append(action)
                        roll.parts[-1].before.append((i - 1, before))
            elif isinstance(action, (TakeCard, GiveUp)):
                m = (self._take_moment(before, action, roll.turn, i - 1) if isinstance(action, TakeCard)
                     else self._give_up_moment(before, action, roll.turn, i - 1))
                if m is not None:
                    moments.append(m)
                    seat_cost[action.seat] += m.cost
                if roll.open:  # the planner plans afresh from here
                    roll.parts[-1].cut = True
                    roll.open = False
            elif action.verb in _DIE_CHANGING and roll.parts:
                roll.unjudged = roll.unjudged or "role"  # the dice changed after the first placement
            new_roll: _Roll | None = None
            for e in events:
                k = e.kind
                d = e.data
                if k == "die_placed":
                    placed[d["seat"]] += 1
                    roll.placed += 1
                elif k in ("die_returned", "die_lost"):
                    cause = (d.get("cause") or {}).get("kind", "other")
                    lost[cause] += 1
                    roll.lost += 1
                    if "seat" in d:
                        given[d["seat"]][cause] += 1
                elif k == "card_completed":
                    completed[d["seat"]] += 1
                elif k == "card_taken":
                    taken[d["seat"]] += 1
                elif k == "dice_rolled":
                    new_roll = _Roll(state.turn, i, d.get("leader", state.leader), at,
                                     list(d.get("dice", [])))
            if new_roll is not None:
                close(roll, i, None)
                roll = new_roll
            before = state.clone() if i < total and _judged_next(actions[i]) else state
            if progress is not None:
                progress(i, total)
        if waited:
            time_ms["sharing"] += waited  # the clock ran out while the team was sharing dice
        final = before if total else start
        close(roll, total, final)  # the last roll, cut short or not by the game's end
        # slow rolls: past twice the median roll and SLOW_EXTRA_S beyond it
        played = [t.ms for t in turns if t.ms > 0]
        usual = median(played) if played else 0
        dice_placed = sum(placed.values())
        ms_per_die = (last_ms / dice_placed) if dice_placed else 0.0
        for t in turns:
            extra = (t.ms - usual) / 1000
            if played and t.ms > 2 * usual and extra >= SLOW_EXTRA_S:
                weight = extra * 1000 / ms_per_die if ms_per_die else 0.0
                moments.append(Moment("slow", t.turn, t.step, None, round(extra, 1), "s", "slow",
                                      {"ms": t.ms}, {"ms": int(usual)}, weight))
        costly = sorted(moments, key=lambda m: (-m.weight, m.step, m.kind))
        outcome = final.outcome
        seats = [PlayerReview(s, s in bots, placed[s], dict(given[s]), completed[s], taken[s],
                              int(median(claims[s])) if claims[s] else None, round(seat_cost[s], 2))
                 for s in range(config.players)]
        return Review(
            version=VERSION, game=config.game.value, players=config.players,
            difficulty=config.difficulty.value,
            won=None if outcome is None else outcome.won,
            score=None if outcome is None else outcome.score.total,
            end_ms=last_ms, turns=turns, moments=[_rounded(m) for m in costly[:KEY_MOMENTS]],
            seats=seats, time_ms=dict(time_ms), lost=dict(lost),
            cost=round(sum(m.cost for m in moments if m.unit == "dice"), 2),
            judged=sum(1 for t in turns if t.cost is not None), rolls=len(turns),
            costly=[_rounded(m) for m in costly])

    @staticmethod
    def _whole(parts: list[_Part]) -> _Part | None:
        """A roll of several parts as one, judged from its start: None where a placement cannot be
        judged from there (a die on a card taken during the roll) or the roll has one part."""
        if len(parts) < 2:
            return None
        first = parts[0].position
        whole = _Part(first, parts[0].step)
        for part in parts:
            for x in part.places:
                if first.hand_card(x.seat, x.card) is None or x.die not in first.unplaced():
                    return None
                whole.places.append(x)
        return whole

    @staticmethod
    def _singles(parts: list[_Part]) -> list[_Part]:
        """A roll's placements one by one, each judged from the table just before it as if the
        planner's other placements followed it (but the roll's last: the team stopped there)."""
        out: list[_Part] = []
        for part in parts:
            for x, (step, table) in zip(part.places, part.before):
                single = _Part(table, step)
                single.places.append(x)
                single.cut = True
                out.append(single)
        if out:
            out[-1].cut = parts[-1].cut
        return out

    def _judge(self, part: _Part) -> tuple[float, list[Facts], dict[str, list[Facts]], _Part]:
        """A part's cost (expected dice), the team's placements the planner would not have made and
        the planner's the team did not (``places``; ``all``: the planner's whole plan)."""
        p = self.planner
        pos = part.position
        plan = p.plan(pos)
        mine = [m for m in [*plan.moves, *plan.rest] if isinstance(m.action, Place)]
        value = p.judge(pos, [m.action for m in mine if isinstance(m.action, Place)], False)
        theirs = p.judge(pos, part.places, False)
        if part.cut:
            # a card was taken (or a die given up) before the roll's end: the rest of the roll is
            # judged from there, and this part as if the planner went on from it, either with
            # its plan or planning afresh (the team is charged the lesser cost)
            theirs = max(p.judge(pos, part.places + self._planned_rest(pos, part, mine), False),
                         p.judge(pos, part.places + self._replanned_rest(pos, part), False))
        cost = max(0.0, value - theirs)
        best = [_move_facts(pos, m) for m in mine]
        team = [self._team_facts(pos, x) for x in part.places]
        return cost, [t for t in team if t not in best], {"places": [b for b in best if b not in team],
                                                           "all": best}, part

    @staticmethod
    def _planned_rest(pos: GameState, part: _Part, mine: list[Move]) -> list[Place]:
        """The planner's placements that can follow the part's: those on dice and seats the team's
        placements left free, and on cards they did not change otherwise than the plan."""
        dice = {x.die for x in part.places}
        planned = {(m.action.seat, m.action.die, m.action.card, m.action.slot) for m in mine
                   if isinstance(m.action, Place)}
        cards = {(x.seat, x.card) for x in part.places if (x.seat, x.die, x.card, x.slot) not in planned}
        room = {s: pos.seat_quota(s) - pos.taken[s] - sum(1 for x in part.places if x.seat == s)
                for s in pos.to_act()}
        out: list[Place] = []
        for m in mine:
            a = m.action
            if isinstance(a, Place) and a.die not in dice and (a.seat, a.card) not in cards \
                    and room.get(a.seat, 0) > 0:
                out.append(a)
                dice.add(a.die)
                room[a.seat] -= 1
        return out

    def _replanned_rest(self, pos: GameState, part: _Part) -> list[Place]:
        """The planner's plan once the part's placements are made (the cards they complete taken
        as it would take them), on the cards there were before them."""
        p = self.planner
        after = pos.clone()
        for x in part.places:
            after.apply(x)
        for _ in range(len(part.places)):
            takes = [(s, d) for s, d in after.to_act().items() if d.kind == "take"]
            if not takes:
                break
            s = takes[0][0]
            after.apply(TakeCard(s, after.time_ms, p.choose_card(after, s)))
        plan = p.plan(after)
        return [m.action for m in [*plan.moves, *plan.rest]
                if isinstance(m.action, Place) and pos.hand_card(m.action.seat, m.action.card) is not None]

    def _team_facts(self, pos: GameState, a: Place) -> dict[str, Any]:
        p = self.planner
        hc = pos.hand_card(a.seat, a.card)
        if hc is None:
            return _place_facts(pos, a)
        m = p.model(pos, a.card)
        rules = pos.card_rules(a.card)
        key = hc.key
        after = key[:a.slot] + (rules.canon[pos.types[a.die]],) + key[a.slot + 1:]
        return _place_facts(pos, a, m.draws(key), m.draws(after), -1 not in after)

    def _take_moment(self, state: GameState, action: TakeCard, turn: int, step: int) -> Moment | None:
        p = self.planner
        best = p.choose_card(state, action.seat)
        if best == action.card:
            return None

        def work(card: str) -> float:
            return p.model(state, card).draws(state.card_rules(card).empty)

        mine, theirs = work(best), work(action.card)
        if p.takes_hardest(state):
            return None  # late in the game the planner takes the hardest card, a likely dud: no cost in work
        cost = theirs - mine
        if cost < COSTLY_DICE:
            return None
        return Moment("take", turn, step, action.seat, round(cost, 2), "dice", "bigger_card",
                      {"card": action.card, "dice": round(theirs, 1)}, {"card": best, "dice": round(mine, 1)},
                      cost)

    def _give_up_moment(self, state: GameState, action: GiveUp, turn: int, step: int) -> Moment | None:
        p = self.planner
        dec = state.to_act().get(action.seat)
        if dec is None or dec.kind != "give_up":
            return None
        best = p.choose_give_up(state, action.seat, dec.options)
        if best == action.die:
            return None
        mine = p.give_up_cost(state, action.seat, best)
        theirs = p.give_up_cost(state, action.seat, action.die)
        cost = theirs - mine
        if cost < COSTLY_DICE:
            return None
        return Moment("give_up", turn, step, action.seat, round(cost, 2), "dice", "costlier_die",
                      {"die": die_view(state, action.die), "card": _card_of(state, action.seat, action.die)},
                      {"die": die_view(state, best), "card": _card_of(state, action.seat, best)}, cost)


def review(record: GameRecord, bots: Collection[int] = (),
           progress: Callable[[int, int], None] | None = None) -> Review:
    """The review of a finished (or stopped) game's record: see the module docstring."""
    return Reviewer().review(record, bots, progress)


def _rounded(m: Moment) -> Moment:
    return Moment(m.kind, m.turn, m.step, m.seat, m.cost, m.unit, m.why, m.did, m.better, round(m.weight, 2))


def _card_of(state: GameState, seat: int, die: int) -> str | None:
    for hc in state.hands[seat]:
        if die in hc.dice:
            return hc.card
    return None


def _activity(action: Action) -> str:
    """What the team was doing in the time before ``action``."""
    if isinstance(action, (Place, Done)):
        return "sharing"
    if isinstance(action, TakeCard):
        return "taking"
    if isinstance(action, (GiveUp, RerollUnused, ReturnFree)):
        return "penalty"
    if action.verb in ("flip", "recolour", "renumber", "rethrow", "name", "roll_six"):
        return "roles"
    return "other"


#: the verbs that change a die in the middle (a role's ability, a rethrow, a die rolled to six)
_DIE_CHANGING: Final = frozenset({"flip", "recolour", "renumber", "rethrow", "roll_six"})


def _judged_next(action: Action) -> bool:
    """Whether the position before ``action`` is kept for a judgement (a copy of the table)."""
    return isinstance(action, (Place, TakeCard, GiveUp))


def _roll_why(did: list[Facts], better: list[Facts], unused: int, planner_unused: int) -> str:
    """The reason code of a costly roll, from what differed."""
    if any(b.get("completes") for b in better) and not any(d.get("completes") for d in did):
        return "complete"
    if any(d.get("after", 0) > d.get("before", 0) for d in did):
        return "harder"
    if unused > planner_unused:
        return "idle"
    return "less"


__all__ = ["COSTLY_DICE", "KEY_MOMENTS", "Moment", "PlayerReview", "Review", "Reviewer", "TurnReview",
           "review"]
