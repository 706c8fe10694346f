"""How many dice a win needs against how many the clock lets a table roll, whoever plays.

    python research/studies/dice_budget.py
    python research/studies/dice_budget.py --game countdown --levels elite,heroic --deals 500 --json out.json

A bomb is defused when every slot holds a die, so a won game has placed at least one die per slot
of every card it must defuse: the bombs of the deck and the row, and at Insane (FUSE) or Heroic
(Countdown) the cards in front of the players too (Countdown's deck counts its starting hands).
Under the simulator's pace (``--turn`` seconds a turn plus ``--die`` a die rolled, 12 + 1 by
default) the number of dice a table can roll before the clock runs out is fixed by the player
count: ``dice_per_turn`` a turn, one more on the turns a face-up Logistics Specialist leads (taken
as the best case: dealt, and never turned down). Placed dice can be lost again to penalties, and the
bag can run short, so these are upper bounds on what any policy can do: a deal that needs more dice
than the clock gives cannot be won at that pace, whoever plays it.

For each cell, over ``--deals`` deals (``new_game(config, game_seed(seed, i))``): the mean (and
range) of the dice the win needs, the most dice the clock lets the table roll, the share of those
dice a win must place, the deals that cannot be won at this pace, and the median over the deals of
the slowest pace (seconds a turn, plus a second a die) at which a deal could just be won with every
die rolled placed and kept.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from budget import dice_needed, dice_rollable, logistics_seat, slowest_pace

from fusegame.rules.config import ConfigError, Difficulty, GameConfig
from fusegame.rules.setup import new_game
from fusegame.sim import Pace, game_seed
from fusegame.sim.grid import parse_players


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="both", help="fuse, countdown or both (default)")
    ap.add_argument("--levels", default="", help="difficulty levels (default: Standard to the top)")
    ap.add_argument("--players", default="1-5", help="player counts, e.g. 3 or 1-5 (Countdown stops at 4)")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--turn", type=float, default=Pace().turn_seconds, help="seconds a turn")
    ap.add_argument("--die", type=float, default=Pace().die_seconds, help="seconds a die rolled")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    a = ap.parse_args()
    if a.turn < 0 or a.die <= 0:
        ap.error("--turn must be 0 or more seconds and --die more than 0")
    pace = Pace(turn_seconds=a.turn, die_seconds=a.die)
    games = ["fuse", "countdown"] if a.game == "both" else [a.game]
    out: list[dict[str, object]] = []
    print(f"dice a win needs against dice the clock allows, {a.turn:g} s a turn + {a.die:g} s a die, "
          f"{a.deals} deals a cell\n")
    print("| game | level | players | dice needed: mean (range) | most dice rolled | share to place "
          "| deals that cannot be won | slowest pace that leaves a deal winnable (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for game in games:
        levels = ([Difficulty(x) for x in a.levels.split(",")] if a.levels else
                  [Difficulty.STANDARD, Difficulty.EXPERT, Difficulty.ELITE, Difficulty.INSANE])
        for level in levels:
            for players in parse_players(a.players):
                try:
                    config = GameConfig(game=game, players=players, difficulty=level)
                except ConfigError:
                    continue  # no such table (Countdown stops at 4 players)
                limit_ms = (config.time_limit or 600) * 1000
                needs, budgets, paces = [], [], []
                for i in range(a.deals):
                    g = new_game(config, game_seed(a.seed, i))
                    bonus = logistics_seat(g)
                    needs.append(dice_needed(g))
                    budgets.append(dice_rollable(players, limit_ms, pace, bonus))
                    paces.append(slowest_pace(players, limit_ms, needs[-1], bonus, a.die))
                blocked = sum(n > b for n, b in zip(needs, budgets))
                slowest = statistics.median(paces)
                share = statistics.mean(n / b for n, b in zip(needs, budgets))
                print(f"| {game} | {config.difficulty.value} | {players} | {statistics.mean(needs):.1f} "
                      f"({min(needs)}–{max(needs)}) | {min(budgets)}–{max(budgets)} | {share:.0%} "
                      f"| {blocked / a.deals:.0%} | {slowest:.1f} s a turn |")
                out.append({"game": game, "level": config.difficulty.value, "players": players,
                            "needed_mean": statistics.mean(needs), "needed_min": min(needs),
                            "needed_max": max(needs), "rollable_min": min(budgets),
                            "rollable_max": max(budgets), "share_to_place": share,
                            "unwinnable": blocked / a.deals, "slowest_turn_seconds": slowest})
    if a.json:
        a.json.write_text(json.dumps({"turn_seconds": a.turn, "die_seconds": a.die, "deals": a.deals,
                                      "seed": a.seed, "cells": out}, indent=2))


if __name__ == "__main__":
    main()
