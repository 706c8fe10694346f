"""What one player may see: a JSON-ready view of the table without hidden information.

``observation(state, seat)`` is what a client or a bot for ``seat`` is allowed to know. In FUSE
almost everything is public: every player's cards and the dice on them, the row (or, in the stacks
setup, each stack's top card and size), the dice in the middle, the bag's contents (it holds every
die not on the table), who must decide what, the clock and the score so far. Hidden, and absent
from the view: the order of the deck (only its size is shown), which fuse cards are still in it
(only how many of the game's fuse cards have not gone off), the faces left on dice in the bag,
and the state of the game's random generator.

``render_text(state)`` draws the table as plain text for a terminal.
"""

from __future__ import annotations

from typing import Any

from fusegame.cards.model import BombCard
from fusegame.constraints import EMPTY
from fusegame.dice import COLOURS, LETTERS, colours_text
from fusegame.rules.config import Setup, quota
from fusegame.rules.outcome import score
from fusegame.rules.state import GameState

VIEW_VERSION = 1


def _card(state: GameState, card_id: str) -> dict[str, Any]:
    b: BombCard = state.bomb(card_id)
    return {"id": b.id, "points": b.points, "notation": b.notation, "name": b.name, "slots": b.shape.size}


def _die(state: GameState, die: int) -> dict[str, Any]:
    return {"id": die, "die": state.die_label(die), "colours": colours_text(state.dice.colours[die]),
            "face": state.faces[die]}


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
    return score(False, None, points, len(state.fuses_activated)).to_dict()


def observation(state: GameState, seat: int) -> dict[str, Any]:
    """The view of the game that the player in ``seat`` (0-based) is entitled to, as plain data.

    Two states that differ only in hidden information (deck order, generator state, faces of
    dice in the bag) give equal observations.
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
                      "must_take": picking.get(s)})
    view: dict[str, Any] = {
        "version": VIEW_VERSION,
        "seat": seat,
        "players": state.players,
        "difficulty": cfg.difficulty.value,
        "setup": cfg.setup.value,
        "quota": quota(state.players),
        "turn": state.turn,
        "leader": state.leader,
        "phase": state.phase.value,
        "time_ms": state.time_ms,
        "time_limit_ms": None if limit is None else limit * 1000,
        "time_left_ms": None if limit is None else max(0, limit * 1000 - state.time_ms),
        "hands": hands,
        "deck_size": len(state.deck),
        "fuse_cards_in_game": cfg.fuse_count,
        "fuse_cards_not_gone_off": cfg.fuse_count - len(state.fuses_activated),
        "fuses_activated": [{"id": f, "shows": state.fuse(f).symbol} for f in state.fuses_activated],
        "score_pile": [_card(state, c) for c in state.score_pile],
        "bag": _bag_counts(state),
        "bag_size": len(state.bag),
        "rolled": [dict(_die(state, d), placed=d in placed) for d in state.rolled],
        "unplaced": state.unplaced(),
        "unused": [_die(state, d) for d in state.unused],
        "penalty_die": None if state.penalty_die == EMPTY else _die(state, state.penalty_die),
        "removal_reason": state.removal_reason if state.removals else None,
        "to_act": {str(s): {"kind": dec.kind, "options": list(dec.options)}
                   for s, dec in state.to_act().items()},
        "legal_actions": [str(a) for a in state.legal_actions(seat)],
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


def render_text(state: GameState) -> str:
    """A readable multi-line picture of the table (public information only)."""
    cfg = state.config
    lines: list[str] = []
    limit = cfg.time_limit
    when = (f"{clock(limit * 1000 - state.time_ms)} left" if limit is not None
            else f"{clock(state.time_ms)} played (untimed)")
    lines.append(f"FUSE · {state.players} players · {cfg.difficulty.value} · turn {state.turn} · "
                 f"P{state.leader + 1} holds the bag · {state.phase.value} · {when}")
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
    bag = " ".join(f"{k}{v}" for k, v in _bag_counts(state).items())
    lines.append(f"Bag: {len(state.bag)} dice ({bag})")
    if state.rolled:
        placed = {d for hand in state.hands for hc in hand for d in hc.dice}
        lines.append("Rolled: " + " ".join(f"{state.die_label(d)}(d{d})" + ("*" if d in placed else "")
                                           for d in state.rolled) + "   (* placed)")
    if state.unused:
        lines.append("Unused, to be rerolled: "
                     + " ".join(f"{state.die_label(d)}(d{d})" for d in state.unused))
    picking = {p[0]: p[1] for p in state.picks}
    for s, hand in enumerate(state.hands):
        mark = "*" if s == state.leader else " "
        status = []
        if state.done[s]:
            status.append("done")
        if s in picking:
            status.append(f"completed {picking[s]}: must take a card")
        lines.append(f"{mark}P{s + 1}: took {state.taken[s]}" + (f" ({'; '.join(status)})" if status else ""))
        for hc in hand:
            b = state.bomb(hc.card)
            done = "  complete" if hc.complete else ""
            lines.append(f"    {b.id} ({b.points} pt) {b.notation:<28} {_slots_text(state, hc.dice)}{done}")
    acts = state.to_act()
    if acts:
        lines.append("To act: " + ", ".join(f"P{s + 1} {d.kind}" for s, d in acts.items())
                     + (f" ({state.removal_reason})" if state.removals else ""))
    sc = score_so_far(state)
    fuses = " ".join(state.fuse(f).symbol for f in state.fuses_activated) or "none"
    lines.append(f"Defused: {len(state.score_pile)} cards, {sc['bomb_points']} points · "
                 f"fuse cards gone off: {fuses} · score {sc['total']}")
    if state.outcome:
        o = state.outcome
        lines.append(f"Game over: {'WON' if o.won else 'lost'} ({o.reason.value}) · score {o.score.total}")
    return "\n".join(lines)
