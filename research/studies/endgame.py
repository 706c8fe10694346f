"""How the end of a game goes where every card counts (Insane and Heroic), for one or more policies
on the same deals.

    python research/studies/endgame.py --players 5 --games 100 --policy play:top_take_hardest=0,play
    python research/studies/endgame.py --game countdown --difficulty heroic --players 2 --games 200 \\
        --policy play:top_take_hardest=0,play
    python research/studies/endgame.py --players 3 --games 300 --start 1000 \\
        --policy play:top_take_hardest=0,play

Prints, per policy: the games won; in how many the middle ran out of bombs, and when; the dice of
work (``bots.value``'s expected dice) then still in front of the players, in all and on the
busiest seat; the unused-dice penalty rolls a game (FUSE), in all and after the middle emptied;
and the work left at the end on every unfinished card, in the hands, the row and the deck. Game
``i`` uses ``game_seed(2026, i)``, as research/studies/search_paired.py does; 12 s a turn + 1 s a die.
"""

from __future__ import annotations

import argparse
import statistics as st
from dataclasses import dataclass

import rollout  # noqa: F401 (registers the research policy rollout, which --policy may name)

from fusegame.bots.team import TeamPlanner
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState, new_game
from fusegame.sim import Pace, game_seed, get_policy, play_game


@dataclass
class Game:
    won: bool
    emptied_s: float | None  #: when the middle ran out of bombs (None: it never did)
    hands_work: float  #: work in front of the players then
    busiest_work: float  #: of it, on the seat with the most
    penalties: int
    penalties_after: int  #: after the middle emptied
    work_left: float  #: on every unfinished card at the end


def hand_work(planner: TeamPlanner, s: GameState) -> list[float]:
    return [sum(planner.model(s, hc.card).draws(hc.key) for hc in hand if not hc.complete)
            for hand in s.hands]


def play(config: GameConfig, seed: int, policy: str, pace: Pace, judge: TeamPlanner) -> Game:
    """One game played by ``sim.play_game``, then walked again through its record to watch it."""
    played = play_game(config, seed, get_policy(policy), pace, record=True).record
    assert played is not None
    s = new_game(config, seed)
    emptied: tuple[float, list[float]] | None = None
    penalties = after = 0
    for action in played.actions:
        for e in s.apply_unchecked(action):
            if e.kind == "penalty_rolled":
                penalties += 1
                after += emptied is not None
        if emptied is None and judge.bombs_left(s) == 0:
            emptied = (s.time_ms / 1000, hand_work(judge, s))
    left = sum(hand_work(judge, s))
    middle = list(s.row) + list(s.deck)
    left += sum(judge.model(s, c).draws(s.card_rules(c).empty) for c in middle if s.is_bomb(c))
    return Game(won=s.outcome is not None and s.outcome.won,
                emptied_s=emptied[0] if emptied else None,
                hands_work=sum(emptied[1]) if emptied else 0.0,
                busiest_work=max(emptied[1]) if emptied else 0.0,
                penalties=penalties, penalties_after=after, work_left=left)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="fuse")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--difficulty", default=None, help="default: the game's top level")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first game index")
    ap.add_argument("--policy", default="play:top_take_hardest=0,play",
                    help="policies, comma-separated; a planner's weights joined by '+' "
                         "(play:top_take_hardest=0+dud_gain=1)")
    a = ap.parse_args()
    level = a.difficulty or ("insane" if a.game == "fuse" else "heroic")
    config = GameConfig(players=a.players, difficulty=level, game=a.game)
    judge = TeamPlanner()
    for policy in a.policy.split(","):
        policy = policy.replace("+", ",")
        games = [play(config, game_seed(2026, i), policy, Pace(), judge)
                 for i in range(a.start, a.start + a.games)]
        emptied = [g for g in games if g.emptied_s is not None]
        print(f"{policy}: {a.game} {a.players} players {level}, deals {a.start}-{a.start + a.games - 1}")
        print(f"  won {sum(g.won for g in games)} of {len(games)}")
        if emptied:
            when = st.mean(g.emptied_s or 0.0 for g in emptied)
            print(f"  the middle emptied in {len(emptied)}, at {when:.0f} s;"
                  f" the players then held {st.mean(g.hands_work for g in emptied):.1f} dice of work,"
                  f" {st.mean(g.busiest_work for g in emptied):.1f} on the busiest seat")
            print(f"  penalty rolls {st.mean(g.penalties for g in games):.1f} a game,"
                  f" {st.mean(g.penalties_after for g in emptied):.1f} after the middle emptied")
        print(f"  work left at the end: {st.mean(g.work_left for g in games):.1f} dice"
              f" (median {st.median(g.work_left for g in games):.1f})")


if __name__ == "__main__":
    main()
