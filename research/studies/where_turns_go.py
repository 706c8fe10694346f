"""Where the turns go: per-game counts of a policy's FUSE games, split into won and lost.

    python research/studies/where_turns_go.py expert 150            # team planner, 3 players, Expert
    python research/studies/where_turns_go.py elite 100 rollout 3   # LEVEL GAMES [POLICY [PLAYERS]]
    python research/studies/where_turns_go.py expert 300 play:dud_gain=1   # play, every card alike

Counts, per game, the turns played, the dice rolled and placed, the dice left unused (the
penalty's rolls), the dice of a roll that no seat could take whatever the team did (``unfit``;
each seat takes at most one die, 3 players or more), the dice knocked off cards and by what, the
bombs defused, the expected dice of the cards taken from the row, the time left when the middle
ran out of bombs, and the slots and points of the cards still unfinished in front of the players
at the end, and how many bombs the lost games left in the middle. And how much the deal and the
pace of the middle game decide: the bombs taken by turns 10, 20 and 30, the deal's least work
(the expected dice from empty of its bombs less the hardest a win may leave unfinished), the
games lost by quarter of it, and in a won game the work of the cards it left unfinished against
that of the hardest it might have left. Game ``i`` uses
``game_seed(2026, i)``, as research/studies/search_paired.py does, and is played by ``sim.play_game``
at the default pace, read through a watcher (``sim.Watcher``).
"""

from __future__ import annotations

import statistics as st
import sys
from collections import defaultdict

import rollout  # noqa: F401 (registers the research policy rollout, which POLICY may name)

from fusegame.bots.team import TeamPlanner
from fusegame.rules.actions import Action, Place
from fusegame.rules.config import GameConfig
from fusegame.rules.events import Event
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game


def most_placed(s: GameState) -> int:
    """The most of the roll's dice the team could place, each seat taking at most one (3 players
    or more): the rest are left for the penalty whatever the team does."""
    fits = [{d for d in s.rolled if any(isinstance(a, Place) and a.die == d for a in s.legal_actions(seat))}
            for seat in range(s.players)]
    best = 0

    def go(seat: int, used: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        if seat < len(fits):
            go(seat + 1, used)
            for d in fits[seat] - used:
                go(seat + 1, used | {d})
    go(0, frozenset())
    return best


class Counts:
    """One game's counts, read as ``play_game`` plays it."""

    def __init__(self) -> None:
        self.c: defaultdict[str, float] = defaultdict(float)
        self.placed_this = -1  # no turn yet
        self.deck_empty_at: int | None = None
        self.last: GameState | None = None
        # the deal's, set at the first turn (``deal_work``)
        self.bombs_at_start = 0
        self.work: dict[str, float] = {}
        self.hardest = 0.0

    def turn(self, s: GameState) -> None:
        c = self.c
        if self.placed_this == -1:
            self.deal_work(s)
        if s.turn in TAKEN_BY and not s.is_over:
            c[f"taken_by_turn_{s.turn}"] = self.bombs_at_start - TP.bombs_left(s)
        if self.placed_this == 0:
            c["zero_turns"] += 1
        self.placed_this = 0
        c["turns"] += 1
        c["rolled"] += len(s.rolled)
        if not s.is_over and s.quota == 1 and s.rolled:
            c["unfit"] += len(s.rolled) - most_placed(s)

    def deal_work(self, s: GameState) -> None:
        """The deal's work: the expected dice from empty of every bomb, and of all but the
        hardest cards a win may leave unfinished (two a player, four solo; none at Insane): the
        least work a win must do."""
        self.bombs_at_start = TP.bombs_left(s)
        fuses = {f.id for f in s.config.catalogue.fuses}
        cards = [x for x in [*s.deck, *s.row] if x not in fuses]
        cards += [hc.card for hand in s.hands for hc in hand]
        self.work = {x: TP.model(s, x).draws(s.card_rules(x).empty) for x in cards}
        duds = 0 if s.config.difficulty.top else (4 if s.players == 1 else 2 * s.players)
        ranked = sorted(self.work.values())
        self.c["deal_least_work"] = sum(ranked[:len(ranked) - duds])
        self.hardest = sum(ranked[len(ranked) - duds:])

    def acted(self, s: GameState, action: Action, events: list[Event]) -> None:
        c = self.c
        for e in events:
            k = e.kind
            if k == "die_placed":
                c["placed"] += 1
                self.placed_this += 1
            elif k == "penalty_rolled":
                c["unused"] += 1
            elif k == "die_returned":
                c["ret_" + e.data["cause"]["kind"]] += 1
            elif k == "bomb_defused":
                c["defused"] += 1
            elif k == "fuse_activated":
                c["fuses"] += 1
            elif k == "card_taken":
                m = TP.model(s, e.data["card"])
                c["take_e"] += m.draws(s.card_rules(e.data["card"]).empty)
                c["takes"] += 1
        if self.deck_empty_at is None and not s.deck and not [r for r in s.row if s.is_bomb(r)]:
            self.deck_empty_at = s.time_ms

    def over(self, s: GameState) -> None:
        self.last = s
        for t in TAKEN_BY:  # a game over before turn t had taken then what it took in the end
            self.c.setdefault(f"taken_by_turn_{t}", self.bombs_at_start - TP.bombs_left(s))
        if s.outcome is not None and s.outcome.won:
            # the cards a won game left unfinished, against the hardest it might have left
            self.c["won_duds_work"] = sum(self.work[hc.card] for h in s.hands for hc in h if not hc.complete)
            self.c["won_hardest_work"] = self.hardest


#: the planner whose card models measure the work of the cards (the team planner's judgement)
TP = TeamPlanner()
#: the turns at which the bombs taken from the middle so far are counted
TAKEN_BY = (10, 20, 30)


def run(level: str, n: int, policy_name: str = "team", players: int = 3) -> None:
    cfg = GameConfig(players=players, difficulty=level, game="fuse")
    pol = get_policy(policy_name)
    tp = TP
    rows = []
    for i in range(n):
        counts = Counts()
        play_game(cfg, game_seed(2026, i), pol, Pace(), watch=counts)
        s, c, deck_empty_at = counts.last, counts.c, counts.deck_empty_at
        assert s is not None
        won = s.outcome is not None and s.outcome.won
        togo = sum(tp.model(s, hc.card).draws(hc.key) for h in s.hands for hc in h if not hc.complete)
        togo += sum(tp.model(s, r).draws(s.card_rules(r).empty) for r in s.row if s.is_bomb(r))
        left = len([r for r in s.row if s.is_bomb(r)]) + len([d for d in s.deck if s.is_bomb(d)])
        c["togo"] = togo
        # the cards still unfinished in front of the players at the end (a won game's duds)
        c["dud_slots"] = sum(len(hc.dice) for h in s.hands for hc in h if not hc.complete)
        c["dud_points"] = sum(s.bomb(hc.card).points for h in s.hands for hc in h if not hc.complete)
        c["bombs_left"] = left
        c["deck_empty_left_s"] = (600_000 - deck_empty_at) / 1000 if deck_empty_at is not None else -1
        c["reason"] = 1.0 if (s.outcome and s.outcome.reason.value == "time-up") else 0.0
        rows.append((won, c))
    for label, sel in (("won", True), ("lost", False)):
        g = [c for w, c in rows if w == sel]
        if not g:
            continue
        keys = sorted({k for c in g for k in c})
        print(f"{level} {label}: {len(g)} games")
        for k in keys:
            vals = [c.get(k, 0.0) for c in g]
            print(f"  {k:18s} mean {st.mean(vals):7.2f}  median {st.median(vals):7.2f}")
    lost = sorted(int(c["bombs_left"]) for w, c in rows if not w)
    if lost:
        counts = {k: lost.count(k) for k in sorted(set(lost))}
        print("bombs left in the middle at the end of a lost game (bombs: games):", counts)
    print("win rate", sum(w for w, _ in rows) / n)
    # how much the deal decides: the games lost by quarter of the deals' least work
    ranked = sorted(rows, key=lambda r: r[1]["deal_least_work"])
    quarter = [ranked[k * n // 4:(k + 1) * n // 4] for k in range(4)]
    print("games lost by quarter of the deal's least work (easiest first):",
          ", ".join(f"{sum(not w for w, _ in q)} of {len(q)} ({q[0][1]['deal_least_work']:.0f}-"
                    f"{q[-1][1]['deal_least_work']:.0f} dice)" for q in quarter if q))
    turn = TAKEN_BY[1]
    behind = [r for r in rows if f"taken_by_turn_{turn}" in r[1]]
    if behind:
        mid = st.median(r[1][f"taken_by_turn_{turn}"] for r in behind)
        key = f"taken_by_turn_{turn}"
        for label, low in ((f"at most {mid:g}", True), (f"more than {mid:g}", False)):
            part = [w for w, c in behind if (c[key] <= mid) == low]
            print(f"games with {label} bombs taken by turn {turn}: {len(part)}, "
                  f"lost {sum(not w for w in part)}")


if __name__ == "__main__":
    run(
        sys.argv[1],
        int(sys.argv[2]),
        sys.argv[3] if len(sys.argv) > 3 else "team",
        int(sys.argv[4]) if len(sys.argv) > 4 else 3,
    )
