"""What makes a position impossible: ``GameState.problems()`` (docs/rules.md A.2, A.10, C.2.2, E).

A position a game can reach accounts for every die, card and spark exactly once, is at a step its
game's turn has, waits for decisions in the queue's order, has not already been won, and keeps its
counts (leader, quotas, dice taken, roles) in range. ``problems(g)`` lists what breaks these rules,
each a ``Problem``: a code (one of ``CODES``), its facts, and the field of a scenario document it
is about where there is one (``where``); ``str()`` words it in English, and a client may word it
from the code and the facts instead. A possible position has none.

The checks only read the state: they are the same for a state from ``new_game`` and ``apply``, one
read from JSON (``GameState.from_dict``) or from a scenario document (the scenario reader refuses a
document whose position has a problem).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fusegame.constraints import EMPTY
from fusegame.dice import NAMES, colours_text
from fusegame.rules import ending
from fusegame.rules.config import dice_per_turn, quota
from fusegame.rules.decisions import ORDER
from fusegame.rules.games import Phase
from fusegame.rules.outcome import Termination
from fusegame.rules.schema import Part

if TYPE_CHECKING:
    from fusegame.rules.state import GameState

#: cards the scenario reader adds to a catalogue only so that a position's configuration is valid
#: (``fusegame.scenario.cards``): never dealt, so never missing
FILLER = "scenario-padding"

#: code -> what it means (the facts each problem carries are named in its English text)
CODES: dict[str, str] = {
    "die_unknown": "a die id that is not one of the game's dice",
    "die_twice": "a die in more than one place",
    "dice_missing": "dice that are nowhere (the bag, the cards and the middle hold every die)",
    "dice_out_of_step": "dice in the middle at a step that has none there",
    "card_unknown": "a card that is not one of the game's, or not of the kind its place holds",
    "card_twice": "a card in more than one place",
    "too_many_fuses": "more fuse cards than the game uses",
    "sparks_missing": "spark cards that are nowhere (deck, discards and cards in play hold every spark)",
    "spark_complete": "a complete spark still in play where it is discarded at once",
    "won_not_over": "the ship is saved but the game goes on",
    "clock_stop": "the clock stopped without a mid-turn save, or not stopped at one",
    "wrong_outcome": "a finished game whose outcome the position contradicts",
    "duds": "hand cards turned face down (or not) against C.2.2",
    "phase": "a step this game's turn does not have, or one that disagrees with the outcome",
    "queue": "pending decisions out of the queue's order, or of a part the game does not have",
    "pick": "a replacement owed for a card that is not a complete bomb card of that player, or not owed",
    "count": "a count out of range (leader, turn, quota, dice taken, seats)",
    "too_many_rolled": "more dice rolled than A.10 allows",
    "roles": "role cards or temporary colours that do not fit the seats and the dice",
    "penalty": "the penalty's die or free return at the wrong time",
    "stacks": "the level stacks beside a row, or a card in the stack of another level",
    "time": "the game time past the time limit, or the clock stopped in the future",
}


@dataclass(frozen=True)
class Problem:
    """One thing that makes a position impossible: ``code`` (a key of ``CODES``), its facts, and
    ``where``: the field of a scenario document it is about (``bag``, ``players[0].cards[1]``), or
    "". ``str()`` is the English text."""

    code: str
    text: str = field(compare=False)
    facts: dict[str, Any] = field(default_factory=dict)
    where: str = ""

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the code, the facts, the field and the English text."""
        return {"code": self.code, "facts": dict(self.facts), "where": self.where, "text": self.text}


def _ids(items: Any) -> str:
    return ", ".join(str(x) for x in items)


class _Found:
    def __init__(self) -> None:
        self.out: list[Problem] = []

    def add(self, code: str, text: str, where: str = "", **facts: Any) -> None:
        self.out.append(Problem(code, text, facts, where))


def problems(g: GameState) -> list[Problem]:
    """Everything that makes ``g`` a position no game can reach (``[]`` for a possible one)."""
    f = _Found()
    _dice(g, f)
    _cards(g, f)
    _sparks(g, f)
    _steps(g, f)
    _counts(g, f)
    _parts(g, f)
    _ending(g, f)
    return f.out


# ====================================================================== dice (A.2)
def _dice(g: GameState, f: _Found) -> None:
    """Every die in exactly one place: the bag, a card's slot, or the middle (this turn's rolled dice
    still to take while they are distributed; the untaken ones until they go back in the bag)."""
    n = len(g.dice)
    places: dict[int, list[str]] = {}
    listed: list[tuple[int, str]] = [(d, "bag") for d in g.bag]
    listed += [(d, f"players[{p}].cards[{c}]") for p, hand in enumerate(g.hands) for c, hc in enumerate(hand)
               for d in hc.dice if d != EMPTY]
    middle = g.phase in (Phase.DISTRIBUTE, Phase.OVER)
    listed += [(d, "rolled") for d in (g.free if middle else [])]
    listed += [(d, "unused") for d in g.unused]
    for d, where in listed:
        if not 0 <= d < n:
            f.add("die_unknown", f"there is no die {d} (die ids run from 0 to {n - 1})", where, die=d)
            continue
        places.setdefault(d, []).append(where)
    for d, at in sorted(places.items()):
        if len(at) > 1:
            f.add("die_twice", f"die {d} is in {len(at)} places ({', '.join(at)}): a die can only be in one "
                               "place", at[-1], die=d, places=at)
    missing = [d for d in range(n) if d not in places]
    if missing:
        counts = Counter(g.dice.colours[d] for d in missing)
        what = ", ".join(f"{k} {NAMES.get(cs, colours_text(cs))}" for cs, k in sorted(counts.items()))
        f.add("dice_missing", f"{len(missing)} dice are nowhere ({what}): the bag, the cards and the middle "
                              f"must hold all {n} dice", "bag", dice=missing, total=n)
    if g.free and not middle:
        f.add("dice_out_of_step", f"dice {_ids(g.free)} wait to be taken, but the turn is at the "
                                  f"{g.phase.value} step", "rolled", dice=g.free[:], phase=g.phase.value)
    if g.unused and g.phase in (Phase.ROLL, Phase.DISTRIBUTE):
        f.add("dice_out_of_step", "unused dice only exist after the distribution (penalty, defuse or "
                                  f"sparks), not at the {g.phase.value} step", "unused", dice=g.unused[:],
              phase=g.phase.value)
    if g.rolled and g.phase is Phase.ROLL:
        f.add("dice_out_of_step", "no dice are in the middle while the next roll is awaited", "rolled",
              dice=g.rolled[:], phase=g.phase.value)
    stray = [d for d in [*g.free, *g.unused] if d not in g.rolled]
    if stray:
        f.add("dice_out_of_step", f"dice {_ids(stray)} are in the middle but were not rolled this turn",
              "rolled", dice=stray, phase=g.phase.value)


# ====================================================================== cards (A.3-A.5)
def _cards(g: GameState, f: _Found) -> None:
    """Every card in one place, each place holding cards of its kind."""
    seen: dict[str, list[str]] = {}
    spark_game = g.sparks is not None

    def put(card: str, where: str, ok: bool, kind: str) -> None:
        if not ok:
            f.add("card_unknown", f"{card!r} is not one of this game's {kind}", where, card=card, kind=kind)
        seen.setdefault(card, []).append(where)

    for p, hand in enumerate(g.hands):
        for c, hc in enumerate(hand):
            ok = g.is_bomb(hc.card) or (spark_game and g.is_spark(hc.card))
            kind = "bomb or spark cards" if spark_game else "bomb cards"
            put(hc.card, f"players[{p}].cards[{c}]", ok, kind)
    for i, card in enumerate(g.row):
        put(card, f"row[{i}]", g.is_bomb(card), "bomb cards")
    for i, card in enumerate(g.deck[::-1]):  # documents list the deck top first
        put(card, f"deck[{i}]", g.is_bomb(card) or g.is_fuse(card), "bomb or fuse cards")
    for i, card in enumerate(g.score_pile):
        put(card, f"score_pile[{i}]", g.is_bomb(card), "bomb cards")
    for i, card in enumerate(g.fuses_activated):
        put(card, f"fuses_activated[{i}]", g.is_fuse(card), "fuse cards")
    st = g.stacks
    if st is not None:
        for lv, pile in sorted(st.piles.items()):
            for i, card in enumerate(pile):
                put(card, f"stacks.{lv}[{i}]", g.is_bomb(card), "bomb cards")
        for i, card in enumerate(st.fuses[::-1]):
            put(card, f"fuse_deck[{i}]", g.is_fuse(card), "fuse cards")
    sp = g.sparks
    if sp is not None:
        for p, duds in enumerate(sp.duds):
            for i, card in enumerate(duds):
                put(card, f"players[{p}].duds[{i}]", g.is_bomb(card), "bomb cards")
        for i, card in enumerate(sp.deck[::-1]):
            put(card, f"spark_deck[{i}]", g.is_spark(card), "spark cards")
        for i, card in enumerate(sp.discard):
            put(card, f"spark_discard[{i}]", g.is_spark(card), "spark cards")
        for i, card in enumerate(sp.defused):  # a record of what was defused, not a place
            if not g.is_spark(card):
                f.add("card_unknown", f"{card!r} is not one of this game's spark cards",
                      f"sparks_defused[{i}]", card=card, kind="spark cards")
    rl = g.roles
    if rl is not None:
        for i, card in enumerate(rl.cards):
            if not card:
                continue
            try:
                g.role(card)
            except KeyError:
                f.add("card_unknown", f"{card!r} is not one of this game's role cards", f"roles[{i}]",
                      card=card, kind="role cards")
            seen.setdefault(card, []).append(f"roles[{i}]")
    for card, at in seen.items():
        if len(at) > 1:
            f.add("card_twice", f"card {card} is in {len(at)} places ({', '.join(at)}): each card is in one "
                                "place", at[-1], card=card, places=at)
    fuses = sum(1 for c in g.deck if g.is_fuse(c)) + len(g.fuses_activated) + (len(st.fuses) if st else 0)
    if fuses > g.config.fuse_count:
        f.add("too_many_fuses", f"{fuses} fuse cards, but this game uses {g.config.fuse_count}", "deck",
              fuses=fuses, want=g.config.fuse_count)


# ====================================================================== sparks (A.4, C.2 Step 4)
def game_sparks(g: GameState) -> list[str]:
    """The spark cards of this game: each is in the spark deck, the discards or in play."""
    if g.sparks is None:
        return []
    return [s.id for s in g.config.playable.sparks if s.source != FILLER]


def _sparks(g: GameState, f: _Found) -> None:
    sp = g.sparks
    if sp is None:
        return
    found = set(sp.deck) | set(sp.discard)
    found |= {hc.card for hand in g.hands for hc in hand if g.is_spark(hc.card)}
    want = game_sparks(g)
    missing = [s for s in want if s not in found]
    if missing:
        f.add("sparks_missing", f"{len(missing)} spark cards are nowhere ({_ids(missing)}): the spark "
                                f"deck, the discards and the players' cards must hold all {len(want)}",
              "spark_deck", cards=missing, total=len(want))
    if g.outcome is None and g.step3 is None:  # A.4: FUSE discards a complete spark at once
        for p, hand in enumerate(g.hands):
            for hc in hand:
                if hc.complete and g.is_spark(hc.card):
                    f.add("spark_complete", f"{hc.card} is complete: a spark card is discarded the moment it "
                                            "is complete", f"players[{p}]", seat=p, card=hc.card)


# ====================================================================== the turn's steps and the queue
def _steps(g: GameState, f: _Found) -> None:
    steps = g.config.turn_steps
    over = g.outcome is not None
    if over != (g.phase is Phase.OVER):
        f.add("phase", "a finished game is at the over step, and only a finished one" if over else
              "the game is at the over step but has no outcome", "phase", phase=g.phase.value, over=over)
    elif not over and g.phase not in steps:
        f.add("phase", f"this game's turn has no {g.phase.value} step (it has "
                       f"{', '.join(s.value for s in steps)})", "phase", phase=g.phase.value,
              steps=[s.value for s in steps])
    names = [item.name for item in g.queue]
    if any(n not in ORDER for n in names) or names != sorted(names, key=ORDER.index):
        f.add("queue", f"the pending decisions {names} are not in the queue's order ({', '.join(ORDER)})",
              "", queue=names)
    for item in g.queue:
        needs = type(item).info().needs if isinstance(item, Part) else ""
        if needs and needs not in g.parts:
            f.add("queue", f"a pending {item.name} needs the {needs} of the rules, which this game does not "
                           "have", "", queue=names, item=item.name)
    if over:
        return
    for i, pick in enumerate(g.picks):
        hc = g.hand_card(pick.seat, pick.card) if 0 <= pick.seat < g.players else None
        if hc is None or not hc.complete or g.is_spark(pick.card):
            f.add("pick", f"{pick.card!r} is not a complete bomb card of player {pick.seat}", f"picks[{i}]",
                  seat=pick.seat, card=pick.card)
    if g.picks and g.phase not in (Phase.DISTRIBUTE, Phase.DEFUSE):
        f.add("pick", "replacements are taken only during the distribution and Step 3, not at the "
                      f"{g.phase.value} step", "picks", phase=g.phase.value)
    if g.picks and not g.middle_has_bombs():
        p = g.picks[0]
        f.add("pick", f"{p.card} is complete but the middle is empty: with nothing to take, a complete card "
                      "is defused at once", f"players[{p.seat}]", seat=p.seat, card=p.card)
    if g.step3 is None or g.phase is Phase.DEFUSE:  # FUSE: at once; Countdown: in Step 3
        picked = {(p.seat, p.card) for p in g.picks}
        for seat, hand in enumerate(g.hands):
            for hc in hand:
                if hc.complete and g.is_bomb(hc.card) and (seat, hc.card) not in picked:
                    f.add("pick", f"player {seat}'s complete card {hc.card} needs a pick", "picks", seat=seat,
                          card=hc.card)


# ====================================================================== counts (A.10)
def _counts(g: GameState, f: _Found) -> None:
    n = g.players
    if not 0 <= g.leader < n:
        f.add("count", f"leader {g.leader} is out of range (0 to {n - 1})", "leader", leader=g.leader)
    if g.turn < 1:
        f.add("count", f"turn {g.turn} is out of range (1 or more)", "turn", turn=g.turn)
    for what, seq in (("hands", g.hands), ("taken", g.taken), ("done", g.done)):
        if len(seq) != n:
            f.add("count", f"{len(seq)} entries of {what} for {n} players", "players", field=what, n=len(seq))
    want = quota(n)
    if g.quota != want:
        f.add("count", f"the quota is {g.quota}, but {n} players take at most {want} dice a turn", "config",
              quota=g.quota, want=want)
    if len(g.taken) != n or not 0 <= g.leader < n:
        return
    rl = g.roles
    bonus = rl is not None and rl.bonus_die
    after_roll = g.phase in (Phase.DISTRIBUTE, Phase.PENALTY, Phase.DEFUSE, Phase.SPARKS)
    for seat, k in enumerate(g.taken):
        # before the roll (and once over) the counts are the last turn's, a Logistics leader's extra die too
        most = g.seat_quota(seat) if after_roll else g.quota + (1 if rl is not None and rl.cards else 0)
        if not 0 <= k <= most:
            f.add("count", f"{k} is out of range (0 to {most})", f"players[{seat}].taken", seat=seat, taken=k,
                  most=most)
    if g.phase is not Phase.OVER:
        most = dice_per_turn(n) + (1 if bonus else 0)
        if len(g.rolled) > most:
            f.add("too_many_rolled", f"{len(g.rolled)} dice rolled, but {n} players roll at most {most}",
                  "rolled", rolled=len(g.rolled), most=most)


# ====================================================================== the parts' own state
def _parts(g: GameState, f: _Found) -> None:
    config = g.config
    if set(g.parts) != set(config.parts):
        f.add("phase", f"the parts of the rules {sorted(g.parts)} are not this game's "
                       f"({sorted(config.parts)})", "config", parts=sorted(g.parts),
              want=sorted(config.parts))
    placed = {d for hand in g.hands for hc in hand for d in hc.dice if d != EMPTY}
    rl = g.roles
    if rl is not None:
        if len(rl.up) != len(rl.cards) or len(rl.cards) not in (0, g.players):  # none: a position without
            f.add("roles", f"{len(rl.cards)} role cards and {len(rl.up)} face-up flags for {g.players} "
                           "players (one of each per player)", "roles", cards=len(rl.cards), up=len(rl.up))
        in_middle = set(g.free) if g.phase is Phase.DISTRIBUTE else set()
        for d in sorted(rl.temp):
            if d in placed or (g.outcome is None and d not in in_middle):
                f.add("roles", f"die {d} has a temporary colour but is not in the middle (a changed colour "
                               "reverts once the die is placed)", "rolled", die=d)
    pen = g.penalty
    if pen is not None and g.outcome is None:
        if pen.die != EMPTY and (g.phase is not Phase.PENALTY or pen.die not in g.unused):
            f.add("penalty", f"die {pen.die} is to be rerolled but is not an unused die of the penalty step",
                  "penalty_die", die=pen.die)
        if pen.free_return and (g.phase is not Phase.PENALTY or rl is None or not rl.bonus_die):
            f.add("penalty", "only in the penalty phase may the Logistics Specialist send an unused die back "
                             "free", "free_return")
    st = g.stacks
    if st is not None:
        if g.row or g.deck:
            f.add("stacks", "the stacks setup has no row or deck (use stacks and fuse_deck)", "row")
        for lv, pile in sorted(st.piles.items()):
            wrong = [c for c in pile if g.is_bomb(c) and g.bomb(c).points != lv]
            if wrong or lv not in config.levels:
                f.add("stacks", f"the stack of level {lv} holds {_ids(wrong or pile)}, not cards of one of "
                                f"the game's levels ({_ids(config.levels)}) worth {lv}", f"stacks.{lv}",
                      level=lv, cards=wrong or pile)
    limit = config.time_limit
    stop = g.step3.clock_stop if g.step3 is not None else None
    if stop is not None and stop > g.time_ms:
        f.add("time", f"the clock cannot stop ({stop} ms) after the game time ({g.time_ms} ms)", "clock_stop",
              clock_stop=stop, time_ms=g.time_ms)
    if limit is not None and g.time_ms > limit * 1000 and stop is None:
        f.add("time", f"{g.time_ms} ms is past the time limit ({limit} s)", "time_ms", time_ms=g.time_ms,
              limit_s=limit)


# ====================================================================== the ending (C.2.2, E)
def _ending(g: GameState, f: _Found) -> None:
    cfg = g.config
    sp = g.sparks
    middle = g.middle_has_bombs()
    o = g.outcome
    duds = sp.duds if sp is not None else []
    if sp is not None and len(duds) != g.players:
        f.add("duds", f"{len(duds)} piles of face-down cards for {g.players} players", "duds")
    if middle or cfg.difficulty.top:
        for p, down in enumerate(duds):
            if down:
                why = ("at Insane and Heroic no card is turned face down" if cfg.difficulty.top else
                       "hand cards are turned face down only once no bomb card is left in the middle")
                f.add("duds", why, f"players[{p}].duds", seat=p, cards=down[:])
    elif o is None and g.sparks_in_play():
        for p, hand in enumerate(g.hands):
            for c, hc in enumerate(hand):
                if g.is_bomb(hc.card) and not hc.complete:
                    f.add("duds", f"with no bomb card left in the middle and sparks in play, {hc.card} is "
                                  f"face down: list it under players[{p}].duds (docs/rules.md C.2.2)",
                          f"players[{p}].cards[{c}]", seat=p, card=hc.card)
    saved = ending.saved(g)
    step = g.step3
    stop = step.clock_stop if step is not None else None
    if o is None:
        # E.2: with one or two players the clock stops and the turn's dice may still be placed, which
        # needs a card in front of someone that still takes dice
        stoppable = (step is not None and g.players <= 2 and g.phase is Phase.DISTRIBUTE
                     and any(not hc.complete for hand in g.hands for hc in hand))
        if saved and not stoppable:
            why = " and no spark card is in play" if cfg.uses_sparks else ""
            if cfg.difficulty.top:
                why += " (and no bomb card in front of the players)"
            f.add("won_not_over", f"the middle (row and deck) has no bomb cards{why}: this game would "
                                  "already be won", "row")
        elif saved and stop is None:
            f.add("clock_stop", "the ship is saved mid-turn: the clock stops (docs/rules.md E.2)",
                  "clock_stop")
        if stop is not None and not saved:
            f.add("clock_stop", ("the clock stops mid-turn only in a 1-2 player Countdown game once no bomb "
                                 "is left in the middle and no spark in play"), "clock_stop", clock_stop=stop)
        return
    if o.won != (o.reason is Termination.BOMBS_DEFUSED):
        f.add("wrong_outcome", f"a game {'won' if o.won else 'lost'} ends with {o.reason.value}", "outcome",
              won=o.won, reason=o.reason.value)
    if o.won and not saved:
        f.add("wrong_outcome", "the game is won but bomb cards are left in the middle"
                               f"{', sparks in play' if cfg.uses_sparks else ''} or (Insane/Heroic) in front "
                               "of the players", "outcome", won=True)
    if not o.won and stop is not None:
        f.add("wrong_outcome", "the clock stopped at a save, but the game is lost", "outcome", won=False,
              clock_stop=stop)
    if o.reason is Termination.BAG_EMPTY and g.bag:
        f.add("wrong_outcome", f"the game is lost for an empty bag, but the bag holds {len(g.bag)} dice",
              "outcome", bag=len(g.bag))


__all__ = ["CODES", "FILLER", "Problem", "game_sparks", "problems"]
