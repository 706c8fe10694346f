"""Rolls late in the game that could have won on the spot, and whether the policy won them.

    python research/studies/missed_wins.py                            # play, 3p Standard, deals 0-299
    python research/studies/missed_wins.py --policy play:win_bonus=0  # before it counted the win
    python research/studies/missed_wins.py --level expert --games 500 --players 4

Plays FUSE games at the default pace. At every roll where each seat takes at most one die and no
more bombs are left in the middle than there are players (below Insane, where the cards in front
of the players need not be finished), it counts the most bombs the roll's dice could complete,
each seat taking one die at most (no more than the bombs left), and the bombs the policy did
complete before the next roll.
Prints the rolls counted, those where the policy completed fewer than it could, and those where
the bombs the roll could complete were all the bombs left (a win there and then), each with its
deal, turn and whether the game was won in the end. Game ``i`` uses ``game_seed(2026, i)``, as
research/studies/search_paired.py does, and is played by ``sim.play_game``, read through a watcher
(``sim.Watcher``).
"""

from __future__ import annotations

import argparse
from itertools import product

import rollout  # noqa: F401 (registers the research policy rollout, which --policy may name)

from fusegame.bots.team import TeamPlanner
from fusegame.rules.actions import Action, Place
from fusegame.rules.config import GameConfig
from fusegame.rules.events import Event
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game


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


class LateRolls:
    """The late rolls of one game, read as ``play_game`` plays it: at each, the most bombs the
    roll could complete and those the policy completed before the next roll."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.counted = self.fewer = 0
        self.could = self.did = self.left = 0
        self.at_turn = -1
        self.missed: list[int] = []  # the turns whose roll could have won on the spot

    def turn(self, s: GameState) -> None:
        self.could = self.did = 0
        self.at_turn = s.turn
        if s.is_over:
            return
        self.left = TP.bombs_to_win(s)
        if 0 < self.left <= self.players and s.rolled and s.quota == 1:
            # the game ends with the last bomb taken: more completions count for nothing
            self.could = min(self.left, most_completions(s))
            self.counted += 1

    def acted(self, s: GameState, action: Action, events: list[Event]) -> None:
        if not self.could:
            return
        self.did += sum(1 for e in events if e.kind == "bomb_defused")
        if (s.turn != self.at_turn or s.is_over) and self.did < self.could:
            self.fewer += 1
            if self.could >= self.left:
                self.missed.append(self.at_turn)
            self.could = 0

    def over(self, s: GameState) -> None:
        pass


#: the planner that says how many bombs are left to win
TP = TeamPlanner()


def run(level: str, games: int, start: int, policy: str, players: int) -> None:
    cfg = GameConfig(players=players, difficulty=level, game="fuse")
    pol = get_policy(policy)
    counted = fewer = 0
    missed: list[tuple[int, int, bool]] = []
    for i in range(start, start + games):
        late = LateRolls(players)
        won = play_game(cfg, game_seed(2026, i), pol, Pace(), watch=late).won
        counted += late.counted
        fewer += late.fewer
        missed += [(i, t, won) for t in late.missed]
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
