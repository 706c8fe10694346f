"""What one player may see: a JSON-ready view of the table without hidden information.

``observation(state, seat)`` is what a client or a bot for ``seat`` is allowed to know. In FUSE
almost everything is public: every player's cards and the dice on them, the row (or, in the stacks
setup, each stack's top card and size), the dice in the middle, the bag's contents (it holds every
die not on the table), who must decide what, the clock and the score so far. Hidden, and absent
from the view: the order of the deck (only its size is shown), which fuse cards are still in it
(only how many of the game's fuse cards have not gone off), the faces left on dice in the bag,
and the state of the game's random generator.

With Countdown's parts the view also holds each player's spark cards (among their cards, marked
``"kind": "spark"``) and the cards turned face down (``duds``), the spark deck's size (not its
order) and the face-up spark discard pile, the roles (face up or down) and the leader's active
ability, a named colour or number and the dice it lets change, the temporary colours of rolled
dice, the seats still to roll a 6, and the clock stopped by a mid-turn save.

``render_text(state)`` draws the table as plain text for a terminal.
"""

from __future__ import annotations

from typing import Any

from fusegame.cards.model import FuseEffect
from fusegame.constraints import EMPTY
from fusegame.dice import COLOURS, LETTERS, TYPE_LABELS, colours_text
from fusegame.pace import PaceLine, far_behind
from fusegame.rules.config import quota
from fusegame.rules.ending import clock_ms
from fusegame.rules.fuse_cards import RollSix
from fusegame.rules.outcome import score
from fusegame.rules.removals import NO_SPARK, Removals
from fusegame.rules.schema import Part
from fusegame.rules.sparks import SparkDraws
from fusegame.rules.state import GameState, Phase
from fusegame.rules.titles import game_title as game_title  # re-exported for the log, CLI, server
from fusegame.rules.views import card_view, die_view
from fusegame.words import cause_text

VIEW_VERSION = 3  #: 3: parts and pending decisions from their declarations; dice given up carry a cause


def _bag_counts(state: GameState) -> dict[str, int]:
    """Dice in the bag by colour (a split die is counted under its colour pair, e.g. ``K/Y``)."""
    counts: dict[str, int] = {LETTERS[c]: 0 for c in COLOURS if c in state.dice.colours}
    for d in state.bag:
        key = colours_text(state.dice.colours[d])
        counts[key] = counts.get(key, 0) + 1
    return counts


def pace_view(state: GameState) -> dict[str, Any] | None:
    """The facts the pace gauge reads (``fusegame.pace``): the bombs in the middle at the start,
    those taken from it so far, the line's time a bomb, and the step at which the gauge turns red
    at this table (``far``); ``None`` where it does not apply (an untimed game, or Insane and
    Heroic, where the hands must be cleared too)."""
    cfg = state.config
    if cfg.time_limit is None or cfg.difficulty.top:
        return None
    line = PaceLine(cfg.middle_size, cfg.time_limit * 1000)
    return {"needed": line.needed, "taken": line.needed - state.bombs_in_middle(),
            "every_ms": round(line.every_ms), "far": far_behind(cfg.game.value, cfg.players)}


def score_so_far(state: GameState) -> dict[str, int]:
    """The score as it stands (the final one once the game is over)."""
    if state.outcome is not None:
        return state.outcome.score.to_dict()
    points = sum(state.bomb(c).points for c in state.score_pile)
    sparks = len(state.sparks.defused) if state.sparks is not None else 0
    return score(False, None, points, len(state.fuses_activated), sparks).to_dict()


def _fuse_view(state: GameState, card_id: str) -> dict[str, Any]:
    """A fuse card that went off: ``{"id", "effect", "shows": ["R", "3"]}`` (symbols; none for a text
    card, whose effect says what it did)."""
    f = state.fuse(card_id)
    return {"id": f.id, "effect": f.effect.value,
            "shows": f.symbol.split() if f.effect is FuseEffect.SYMBOL else []}


def removal_cause(state: GameState) -> dict[str, Any] | None:
    """Why dice must be given up now (``{"kind": "fuse", ...}``), or None when nobody must."""
    head = state.queue[0] if state.queue else None
    if isinstance(head, Removals):
        return head.cause.to_json()
    if isinstance(head, SparkDraws) and head.owing:
        return NO_SPARK.to_json()
    return None


def _parts(state: GameState) -> list[Part]:
    """The parts and pending decisions whose declared fields a view shows: those in play, and
    the defaults of the ones every view carries (``PartInfo.shown_when_absent``)."""
    present: dict[str, Part] = {**state.parts, **{item.name: item for item in state.queue}}
    out = list(present.values())
    out += [cls() for name, cls in Part.registry.items()
            if cls.info().shown_when_absent and name not in present]
    return out


def observation(state: GameState, seat: int, *, legal_actions: bool = True) -> dict[str, Any]:
    """The view of the game that the player in ``seat`` (0-based) is entitled to, as plain data.

    Two states that differ only in hidden information (deck order, spark deck order, generator
    state, faces of dice in the bag) give equal observations. ``legal_actions=False`` leaves out
    the seat's legal actions (the only part that differs between seats), for callers that share
    one view among several players.
    """
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat!r} in a {state.players}-player game")
    cfg = state.config
    limit = cfg.time_limit
    placed = {d for hand in state.hands for hc in hand for d in hc.dice if d != EMPTY}
    picking = {p.seat: p.card for p in state.picks}
    parts = _parts(state)
    six = state.pending("roll_six")
    must_roll = set(six.seats) if isinstance(six, RollSix) else set()
    hands = []
    for s, hand in enumerate(state.hands):
        cards = []
        for hc in hand:
            c = card_view(state, hc.card)
            c["dice"] = [None if d == EMPTY else die_view(state, d) for d in hc.dice]
            c["complete"] = hc.complete
            cards.append(c)
        entry: dict[str, Any] = {"seat": s, "cards": cards, "taken": state.taken[s], "done": state.done[s],
                                 "quota": state.seat_quota(s), "must_take": picking.get(s),
                                 "sparks": sum(1 for hc in hand if state.is_spark(hc.card))}
        for part in parts:
            entry.update(part.player_view(state, s))
        entry["must_roll_six"] = s in must_roll
        hands.append(entry)
    now = clock_ms(state)
    view: dict[str, Any] = {
        "version": VIEW_VERSION,
        "seat": seat,
        "players": state.players,
        "game": cfg.game.value,
        "modules": [m.value for m in cfg.modules],
        "parts": list(state.parts),
        "difficulty": cfg.difficulty.value,
        "setup": cfg.setup.value,
        "quota": quota(state.players),
        "turn": state.turn,
        "leader": state.leader,
        "phase": state.phase.value,
        "time_ms": state.time_ms,
        "time_limit_ms": None if limit is None else limit * 1000,
        "time_left_ms": None if limit is None else max(0, limit * 1000 - now),
        "hands": hands,
        "deck_size": len(state.deck),
        "fuse_cards_in_game": cfg.fuse_count,
        "fuse_cards_not_gone_off": cfg.fuse_count - len(state.fuses_activated),
        "fuses_activated": [_fuse_view(state, f) for f in state.fuses_activated],
        "score_pile": [card_view(state, c) for c in state.score_pile],
        "bag": _bag_counts(state),
        "bag_size": len(state.bag),
        "rolled": [dict(die_view(state, d), placed=d in placed) for d in state.rolled],
        "unplaced": state.unplaced(),
        "unused": [die_view(state, d) for d in state.unused],
        "sparks_in_game": state.sparks is not None,
        "removal_cause": removal_cause(state),
        "to_act": {str(s): {"kind": dec.kind, "options": list(dec.options)}
                   for s, dec in state.to_act().items()},
        "legal_actions": [str(a) for a in state.legal_actions(seat)] if legal_actions else None,
        "score": score_so_far(state),
        "pace": pace_view(state),
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }
    for part in parts:
        view.update(part.view(state))
    if state.stacks is None:
        view["row"] = [card_view(state, c) for c in state.row]
    else:
        view["row"] = []
    return view


# ====================================================================== text
def clock(ms: int) -> str:
    """``m:ss`` for a time in milliseconds."""
    s = max(0, ms) // 1000
    return f"{s // 60}:{s % 60:02d}"


def _slots_text(state: GameState, dice: list[int]) -> str:
    return "[" + " ".join("__" if d == EMPTY else state.die_label(d) for d in dice) + "]"


def _rolled_text(state: GameState, d: int, placed: set[int]) -> str:
    """``B4(d3)``, ``B4(d3 as R)`` with a temporary colour, ``*`` once placed."""
    temp = state.temp_colour(d)
    return (f"{TYPE_LABELS[state.types[d]]}(d{d}" + (f" as {colours_text(temp)}" if temp else "") + ")"
            + ("*" if d in placed else ""))


def _fuse_text(state: GameState, card_id: str) -> str:
    f = state.fuse(card_id)
    return f.symbol if f.effect is FuseEffect.SYMBOL else f"[{f.effect.value}]"


def render_text(state: GameState) -> str:
    """A readable multi-line picture of the table (public information only)."""
    cfg = state.config
    lines: list[str] = []
    limit = cfg.time_limit
    now = clock_ms(state)
    stopped = state.step3 is not None and state.step3.clock_stop is not None
    when = (f"{clock(limit * 1000 - now)} left" if limit is not None
            else f"{clock(now)} played (untimed)")
    if stopped:
        when += " (clock stopped: the ship is saved)"
    lines.append(f"{game_title(cfg)} · {state.players} players · {cfg.difficulty.value} · "
                 f"turn {state.turn} · P{state.leader + 1} holds the bag · {state.phase.value} · {when}")
    if state.stacks is not None:
        tops = []
        for lv, cards in sorted(state.stacks.piles.items()):
            tops.append(f"L{lv}: {cards[-1]} x{len(cards)}" if cards else f"L{lv}: empty")
        lines.append("Stacks: " + "  ".join(tops) + f"  · fuse cards face down: {len(state.stacks.fuses)}")
        for cards in state.stacks.piles.values():
            if cards:
                b = state.bomb(cards[-1])
                lines.append(f"  {b.id} ({b.points} pt) {b.notation}")
    else:
        lines.append(f"Row ({len(state.row)}) · deck: {len(state.deck)} cards")
        for c in state.row:
            b = state.bomb(c)
            lines.append(f"  {b.id} ({b.points} pt) {b.notation}")
    sp = state.sparks
    if sp is not None:
        top = f" (top {sp.discard[-1]})" if sp.discard else ""
        lines.append(f"Sparks: deck {len(sp.deck)} · discard {len(sp.discard)}{top} · "
                     f"in play {state.sparks_in_play()} · defused {len(sp.defused)}")
    ro = state.roles
    if ro is not None and any(ro.cards):
        ability = state.active_ability()
        roles = "  ".join(f"P{s + 1} {state.role(r).name if r else '-'}"
                          + ("" if not r or ro.up[s] else " (face down)")
                          for s, r in enumerate(ro.cards))
        lines.append(f"Roles: {roles}")
        if ability is not None:
            name = state.role(ro.cards[state.leader]).name
            active = f"Leader P{state.leader + 1}: {name} active"
            if ro.named:
                eligible = " ".join(f"d{d}" for d in ro.eligible) or "none"
                active += f" · named {ro.named} (may change: {eligible})"
            if ro.uses:
                active += f" · used {ro.uses}x this turn"
            if ro.bonus_die:
                active += " · one extra die (take it, or leave one untaken without penalty)"
            lines.append(active)
        else:
            lines.append(f"Leader P{state.leader + 1}: no role ability this turn (role face down)")
    bag = " ".join(f"{k}{v}" for k, v in _bag_counts(state).items())
    lines.append(f"Bag: {len(state.bag)} dice ({bag})")
    placed = {d for hand in state.hands for hc in hand for d in hc.dice}
    if state.rolled:
        temp = ro.temp if ro is not None else {}
        marks = "   (* placed" + (", 'as': a role's temporary colour)" if temp else ")")
        lines.append("Rolled: " + " ".join(_rolled_text(state, d, placed) for d in state.rolled) + marks)
    rethrow = state.pending("rethrow")
    if rethrow is not None:
        lines.append("Being rerolled: " + " ".join(f"d{d}" for d in rethrow.dice))  # type: ignore[attr-defined]
    if state.unused:
        what = ("Unused, to be rerolled: " if state.phase is Phase.PENALTY
                else "Not taken, back to the bag at the end of the turn: ")
        lines.append(what + " ".join(f"{state.die_label(d)}(d{d})" for d in state.unused))
    six = state.pending("roll_six")
    if isinstance(six, RollSix):
        lines.append("Everyone waits: " + ", ".join(f"P{s + 1}" for s in six.seats) + " must roll a 6"
                     + (f" (P{six.rolling + 1} is rolling)" if six.rolling != EMPTY else ""))
    picking = {p.seat: p.card for p in state.picks}
    for s, hand in enumerate(state.hands):
        mark = "*" if s == state.leader else " "
        status = []
        if state.done[s]:
            status.append("done")
        if s in picking:
            status.append(f"completed {picking[s]}: must take a card")
        if isinstance(six, RollSix) and s in six.seats:
            status.append("must roll a 6")
        if state.seat_quota(s) != state.quota:
            status.append(f"may take {state.seat_quota(s)}")
        lines.append(f"{mark}P{s + 1}: took {state.taken[s]}" + (f" ({'; '.join(status)})" if status else ""))
        for hc in hand:
            b = state.bomb(hc.card)
            done = "  complete" if hc.complete else ""
            what = "spark" if state.is_spark(hc.card) else f"{b.points} pt"
            lines.append(f"    {b.id} ({what}) {b.notation:<28} {_slots_text(state, hc.dice)}{done}")
        if sp is not None and sp.duds[s]:
            lines.append(f"    face down (need not be defused): {' '.join(sp.duds[s])}")
    acts = state.to_act()
    if acts:
        cause = removal_cause(state)
        lines.append("To act: " + ", ".join(f"P{s + 1} {d.kind}" for s, d in acts.items())
                     + (f" ({cause_text(cause)})" if cause else ""))
    sc = score_so_far(state)
    fuses = " ".join(_fuse_text(state, f) for f in state.fuses_activated) or "none"
    sparks = f" · sparks defused: {len(sp.defused)}" if sp is not None else ""
    lines.append(f"Defused: {len(state.score_pile)} cards, {sc['bomb_points']} points{sparks} · "
                 f"fuse cards gone off: {fuses} · score {sc['total']}")
    if state.outcome:
        o = state.outcome
        lines.append(f"Game over: {'WON' if o.won else 'lost'} ({o.reason.value}) · score {o.score.total}")
    return "\n".join(lines)
