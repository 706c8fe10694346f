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

from fusegame.cards.model import BombCard, FuseEffect
from fusegame.constraints import EMPTY
from fusegame.dice import COLOURS, LETTERS, TYPE_LABELS, colours_text
from fusegame.rules.config import Game, GameConfig, Setup, quota
from fusegame.rules.outcome import score
from fusegame.rules.state import GameState, Phase

VIEW_VERSION = 2  #: 2: Countdown's parts (sparks, roles, temporary colours, "roll a 6", ...)


def _card(state: GameState, card_id: str) -> dict[str, Any]:
    b: BombCard = state.bomb(card_id)
    return {"id": b.id, "kind": b.kind, "points": b.points, "notation": b.notation, "name": b.name,
            "slots": b.shape.size}


def _die(state: GameState, die: int) -> dict[str, Any]:
    """A die: its label (``B4``, or ``B4 as R`` while a role's colour change lasts), colours, face,
    and ``as``: the temporary colour (``None`` when it has none)."""
    temp = state.temp.get(die)
    return {"id": die, "die": state.die_label(die), "colours": colours_text(state.dice.colours[die]),
            "face": state.faces[die], "as": colours_text(temp) if temp else None}


def game_title(cfg: GameConfig) -> str:
    """``FUSE``, ``FUSE + roles, sparks``, ``FUSE: Countdown``, ``FUSE + FUSE: Countdown (epic)``."""
    if cfg.game is Game.COUNTDOWN:
        return "FUSE: Countdown"
    if cfg.game is Game.INTEGRATED:
        return "FUSE + FUSE: Countdown (integrated)"
    if cfg.game is Game.EPIC:
        return "FUSE + FUSE: Countdown (epic)"
    return "FUSE" + (" + " + ", ".join(m.value for m in cfg.modules) if cfg.modules else "")


def _clock_ms(state: GameState) -> int:
    """The game time the clock shows: stopped at a mid-turn save (Countdown, E.2)."""
    return state.time_ms if state.clock_stop is None else state.clock_stop


def _roles(state: GameState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s, rid in enumerate(state.roles):
        if not rid:
            out.append({"seat": s, "id": None, "name": None, "ability": None, "face_up": False,
                        "text": None})
            continue
        r = state.role(rid)
        out.append({"seat": s, "id": r.id, "name": r.name, "ability": r.ability.value,
                    "face_up": state.roles_up[s], "text": r.text})
    return out


def _bag_counts(state: GameState) -> dict[str, int]:
    """Dice in the bag by colour (a split die is counted under its colour pair, e.g. ``K/Y``)."""
    counts: dict[str, int] = {LETTERS[c]: 0 for c in COLOURS if c in state.dice.colours}
    for d in state.bag:
        key = colours_text(state.dice.colours[d])
        counts[key] = counts.get(key, 0) + 1
    return counts


def score_so_far(state: GameState) -> dict[str, int]:
    """The score as it stands (the final one once the game is over)."""
    if state.outcome is not None:
        return state.outcome.score.to_dict()
    points = sum(state.bomb(c).points for c in state.score_pile)
    return score(False, None, points, len(state.fuses_activated), len(state.sparks_defused)).to_dict()


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
    picking = {p[0]: p[1] for p in state.picks}
    hands = []
    for s, hand in enumerate(state.hands):
        cards = []
        for hc in hand:
            c = _card(state, hc.card)
            c["dice"] = [None if d == EMPTY else _die(state, d) for d in hc.dice]
            c["complete"] = hc.complete
            cards.append(c)
        hands.append({"seat": s, "cards": cards, "taken": state.taken[s], "done": state.done[s],
                      "quota": state.seat_quota(s), "must_take": picking.get(s),
                      "sparks": sum(1 for hc in hand if state.is_spark(hc.card)),
                      "duds": list(state.duds[s]), "must_roll_six": s in state.six})
    ability = state.active_ability()
    now = _clock_ms(state)
    view: dict[str, Any] = {
        "version": VIEW_VERSION,
        "seat": seat,
        "players": state.players,
        "game": cfg.game.value,
        "modules": [m.value for m in cfg.modules],
        "difficulty": cfg.difficulty.value,
        "setup": cfg.setup.value,
        "quota": quota(state.players),
        "turn": state.turn,
        "leader": state.leader,
        "phase": state.phase.value,
        "time_ms": state.time_ms,
        "time_limit_ms": None if limit is None else limit * 1000,
        "time_left_ms": None if limit is None else max(0, limit * 1000 - now),
        "clock_stopped_ms": state.clock_stop,
        "hands": hands,
        "deck_size": len(state.deck),
        "fuse_cards_in_game": cfg.fuse_count,
        "fuse_cards_not_gone_off": cfg.fuse_count - len(state.fuses_activated),
        "fuses_activated": [{"id": f, "shows": state.fuse(f).symbol, "effect": state.fuse(f).effect.value}
                            for f in state.fuses_activated],
        "score_pile": [_card(state, c) for c in state.score_pile],
        "bag": _bag_counts(state),
        "bag_size": len(state.bag),
        "rolled": [dict(_die(state, d), placed=d in placed) for d in state.rolled],
        "unplaced": state.unplaced(),
        "unused": [_die(state, d) for d in state.unused],
        "sparks_in_game": cfg.uses_sparks,
        "spark_deck_size": len(state.spark_deck),
        "spark_discard": [_card(state, c) for c in state.spark_discard],
        "sparks_defused": len(state.sparks_defused),
        "roles": _roles(state),
        "active_ability": None if ability is None else ability.value,
        "named": state.named or None,
        "role_eligible": list(state.role_eligible),
        "role_dice": list(state.role_dice),
        "role_uses": state.role_uses,
        "bonus_die": state.bonus_die,
        "free_return": state.free_return,
        "rerolling": list(state.rethrow),
        "must_roll_six": list(state.six),
        "penalty_die": None if state.penalty_die == EMPTY else _die(state, state.penalty_die),
        "removal_reason": state.removal_reason if state.removals else None,
        "to_act": {str(s): {"kind": dec.kind, "options": list(dec.options)}
                   for s, dec in state.to_act().items()},
        "legal_actions": [str(a) for a in state.legal_actions(seat)] if legal_actions else None,
        "score": score_so_far(state),
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }
    if cfg.setup is Setup.STACKS:
        view["row"] = []
        view["stacks"] = [{"level": lv, "size": len(cards), "top": _card(state, cards[-1]) if cards else None}
                          for lv, cards in sorted(state.stacks.items())]
        view["fuse_deck_size"] = len(state.fuse_deck)
    else:
        view["row"] = [_card(state, c) for c in state.row]
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
    temp = state.temp.get(d)
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
    now = _clock_ms(state)
    when = (f"{clock(limit * 1000 - now)} left" if limit is not None
            else f"{clock(now)} played (untimed)")
    if state.clock_stop is not None:
        when += " (clock stopped: the ship is saved)"
    lines.append(f"{game_title(cfg)} · {state.players} players · {cfg.difficulty.value} · "
                 f"turn {state.turn} · P{state.leader + 1} holds the bag · {state.phase.value} · {when}")
    if cfg.setup is Setup.STACKS:
        tops = []
        for lv, cards in sorted(state.stacks.items()):
            tops.append(f"L{lv}: {cards[-1]} x{len(cards)}" if cards else f"L{lv}: empty")
        lines.append("Stacks: " + "  ".join(tops) + f"  · fuse cards face down: {len(state.fuse_deck)}")
        for cards in state.stacks.values():
            if cards:
                b = state.bomb(cards[-1])
                lines.append(f"  {b.id} ({b.points} pt) {b.notation}")
    else:
        lines.append(f"Row ({len(state.row)}) · deck: {len(state.deck)} cards")
        for c in state.row:
            b = state.bomb(c)
            lines.append(f"  {b.id} ({b.points} pt) {b.notation}")
    if cfg.uses_sparks:
        top = f" (top {state.spark_discard[-1]})" if state.spark_discard else ""
        lines.append(f"Sparks: deck {len(state.spark_deck)} · discard {len(state.spark_discard)}{top} · "
                     f"in play {state.sparks_in_play()} · defused {len(state.sparks_defused)}")
    if state.roles:
        ability = state.active_ability()
        roles = "  ".join(f"P{s + 1} {state.role(r).name if r else '-'}"
                          + ("" if not r or state.roles_up[s] else " (face down)")
                          for s, r in enumerate(state.roles))
        lines.append(f"Roles: {roles}")
        if ability is not None:
            name = state.role(state.roles[state.leader]).name
            active = f"Leader P{state.leader + 1}: {name} active"
            if state.named:
                eligible = " ".join(f"d{d}" for d in state.role_eligible) or "none"
                active += f" · named {state.named} (may change: {eligible})"
            if state.role_uses:
                active += f" · used {state.role_uses}x this turn"
            if state.bonus_die:
                active += " · one extra die (take it, or leave one untaken without penalty)"
            lines.append(active)
        else:
            lines.append(f"Leader P{state.leader + 1}: no role ability this turn (role face down)")
    bag = " ".join(f"{k}{v}" for k, v in _bag_counts(state).items())
    lines.append(f"Bag: {len(state.bag)} dice ({bag})")
    placed = {d for hand in state.hands for hc in hand for d in hc.dice}
    if state.rolled:
        marks = "   (* placed" + (", 'as': a role's temporary colour)" if state.temp else ")")
        lines.append("Rolled: " + " ".join(_rolled_text(state, d, placed) for d in state.rolled) + marks)
    if state.rethrow:
        lines.append("Being rerolled: " + " ".join(f"d{d}" for d in state.rethrow))
    if state.unused:
        what = ("Unused, to be rerolled: " if state.phase is Phase.PENALTY
                else "Not taken, back to the bag at the end of the turn: ")
        lines.append(what + " ".join(f"{state.die_label(d)}(d{d})" for d in state.unused))
    if state.six:
        lines.append("Everyone waits: " + ", ".join(f"P{s + 1}" for s in state.six) + " must roll a 6"
                     + (f" (P{state.six_pending + 1} is rolling)" if state.six_pending != EMPTY else ""))
    picking = {p[0]: p[1] for p in state.picks}
    for s, hand in enumerate(state.hands):
        mark = "*" if s == state.leader else " "
        status = []
        if state.done[s]:
            status.append("done")
        if s in picking:
            status.append(f"completed {picking[s]}: must take a card")
        if s in state.six:
            status.append("must roll a 6")
        if state.seat_quota(s) != state.quota:
            status.append(f"may take {state.seat_quota(s)}")
        lines.append(f"{mark}P{s + 1}: took {state.taken[s]}" + (f" ({'; '.join(status)})" if status else ""))
        for hc in hand:
            b = state.bomb(hc.card)
            done = "  complete" if hc.complete else ""
            what = "spark" if state.is_spark(hc.card) else f"{b.points} pt"
            lines.append(f"    {b.id} ({what}) {b.notation:<28} {_slots_text(state, hc.dice)}{done}")
        if state.duds[s]:
            lines.append(f"    face down (need not be defused): {' '.join(state.duds[s])}")
    acts = state.to_act()
    if acts:
        lines.append("To act: " + ", ".join(f"P{s + 1} {d.kind}" for s, d in acts.items())
                     + (f" ({state.removal_reason})" if state.removals else ""))
    sc = score_so_far(state)
    fuses = " ".join(_fuse_text(state, f) for f in state.fuses_activated) or "none"
    sparks = f" · sparks defused: {len(state.sparks_defused)}" if cfg.uses_sparks else ""
    lines.append(f"Defused: {len(state.score_pile)} cards, {sc['bomb_points']} points{sparks} · "
                 f"fuse cards gone off: {fuses} · score {sc['total']}")
    if state.outcome:
        o = state.outcome
        lines.append(f"Game over: {'WON' if o.won else 'lost'} ({o.reason.value}) · score {o.score.total}")
    return "\n".join(lines)
