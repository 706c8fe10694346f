"""Rolls late in the game that could have won on the spot, and whether the policy won them.

    python bench/missed_wins.py                               # the planner in play, 3p Standard, deals 0-299
    python bench/missed_wins.py --policy play:win_bonus=0     # before it counted the win
    python bench/missed_wins.py --level expert --games 500 --players 4

Plays FUSE games at the default pace. At every roll where each seat takes at most one die and no
more bombs are left in the middle than there are players (below Insane, where the cards in front
of the players need not be finished), it counts the most bombs the roll's dice could complete,
each seat taking one die at most (no more than the bombs left), and the bombs the policy did
complete before the next roll.
Prints the rolls counted, those where the policy completed fewer than it could, and those where
the bombs the roll could complete were all the bombs left (a win there and then), each with its
deal, turn and whether the game was won in the end. Game ``i`` uses ``game_seed(2026, i)``, as
bench/search_paired.py does.
"""

from __future__ import annotations

import argparse
from itertools import product

from fusegame.bots.team import TeamPlanner
from fusegame.rng import Rng
from fusegame.rules.actions import Place, Tick
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState, new_game
from fusegame.sim import Pace, game_seed, get_policy
from fusegame.sim.game import POLICY_SALT


def most_completions(s: GameState) -> int:
    """The most bombs the roll's dice could complete now, each seat taking at most one die (the
    engine, on a copy of the position, says which placements complete a card)."""
    dice: list[list[int | None]] = []
    for seat in range(s.players):
        fits: set[int] = set()
        for a in s.legal_actions(seat):
            if (isinstance(a, Place) and a.die not in fits and not s.is_spark(a.card)
                    and any(e.kind == "card_completed" for e in s.clone().apply_unchecked(a))):
                fits.add(a.die)
        dice.append([*sorted(fits), None])
    best = 0
    for pick in product(*dice):
        used = [d for d in pick if d is not None]
        if len(used) == len(set(used)):
            best = max(best, len(used))
    return best


def run(level: str, games: int, start: int, policy: str, players: int) -> None:
    cfg = GameConfig(players=players, difficulty=level, game="fuse")
    pol = get_policy(policy)
    tp = TeamPlanner()
    pace = Pace()
    counted = fewer = 0
    missed: list[tuple[int, int, bool]] = []
    for i in range(start, start + games):
        seed = game_seed(2026, i)
        s = new_game(cfg, seed)
        rng = Rng(seed).fork(POLICY_SALT)
        turn, at = -1, 0
        could, did, left, mine = 0, 0, 0, []
        while not s.is_over:
            if s.turn != turn:
                turn = s.turn
                at += pace.turn_of(s)
                s.apply_unchecked(Tick(-1, at))
                if s.is_over:
                    break
                could, did = 0, 0
                left = tp.bombs_to_win(s)
                if 0 < left <= players and s.rolled and s.quota == 1:
                    # the game ends with the last bomb taken: more completions count for nothing
                    could = min(left, most_completions(s))
                    counted += 1
            for e in s.apply_unchecked(pol(s, rng)):
                if e.kind == "bomb_defused" and could:
                    did += 1
            if could and (s.turn != turn or s.is_over) and did < could:
                fewer += 1
                if could >= left:
                    mine.append(turn)
                could = 0
        won = s.outcome is not None and s.outcome.won
        missed += [(i, t, won) for t in mine]
        mine = []
    print(f"{policy}, FUSE {players} players {level}, deals {start}-{start + games - 1}")
    print(f"late rolls counted: {counted}")
    print(f"rolls that completed fewer bombs than they could: {fewer}")
    games = {i for i, _, _ in missed}
    lost = {i for i, _, won in missed if not won}
    print(f"rolls that could have won on the spot and did not: {len(missed)}"
          f" (in {len(games)} games, {len(lost)} of them lost)")
    for i, t, won in missed:
        print(f"  deal {i} turn {t}: {'won later' if won else 'lost'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="standard")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--policy", default="play")
    ap.add_argument("--players", type=int, default=3)
    a = ap.parse_args()
    run(a.level, a.games, a.start, a.policy, a.players)


if __name__ == "__main__":
    main()
