"""A value of whole positions, learned from the planner in play's own games: what predicts a win.

    python research/studies/position_value.py collect expert 2000 --start 20000 --out expert.jsonl --workers 2
    python research/studies/position_value.py fit expert.jsonl [standard.jsonl ...]
    python research/studies/position_value.py paired expert expert.jsonl --games 1000 --start 5000 --workers 2
    python research/studies/position_value.py standing expert.jsonl [standard.jsonl ...]

``collect`` plays FUSE games with ``--policy play`` (3 players by default, deals ``game_seed(2026,
i)`` for ``i`` from ``--start``, the default pace) and writes, at the start of every turn, what
the players can see of the position: the time left, the bombs left in the middle, and the work
of every unfinished card in front of the players and in the row (the expected dice to finish it,
``bots.value`` as the planner in play models it), with whether the game was won in the end. It
writes the work of the face-down deck's bombs too, which the players do not see: the fit may
use it as a covariate, the deal's luck, which no choice of the team changes.

``fit`` fits a logistic model of the chance to win on these positions (three quarters of the
games; the rest held out; ``--features`` chooses from ``NAMES``) and prints each feature's
weight on the logit, and how well the model predicts the held-out games (log loss and Brier
score against the base rate alone).

``paired`` fits the model on a level's positions and plays, at FUSE 3 players, the planner in
play against the planner in play whose card to take after a defusal is the one the model values most (the
position once the seat holds it and the row has lost it; late in the game, where the planner
takes the hardest card, it is left alone), on the same deals: the value put to use.

``standing`` prints the games won by the bombs defused (taken from the middle) after 3, 5 and 7
minutes of play: how a table can tell, by counting its score pile, how it stands.
"""

from __future__ import annotations

import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from gamefiles import read_games, write_games

from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.rules import defusal
from fusegame.rules.actions import Action, TakeCard
from fusegame.rules.config import GameConfig
from fusegame.rules.events import Event
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game
from fusegame.sim.stats import paired_difference

#: the planner whose card models measure a card's work (the planner in play's)
TP = TeamPlanner(PLAY_WEIGHTS)


def position(s: GameState) -> dict[str, object]:
    """What the players see of ``s`` that the model reads: time and bombs left, the work of the
    unfinished cards in each seat's hand and in the row; and the work of the deck's bombs, which
    they do not see."""
    limit = (s.config.time_limit or 600) * 1000
    hands = [sorted(round(TP.model(s, hc.card).draws(hc.key), 2) for hc in hand if not hc.complete)
             for hand in s.hands]
    row = sorted(round(TP.model(s, r).draws(s.card_rules(r).empty), 2) for r in s.row if s.is_bomb(r))
    # face down, unseen by the players: only a covariate of the fit, the same for every choice
    deck = sorted(round(TP.model(s, d).draws(s.card_rules(d).empty), 2) for d in s.deck if s.is_bomb(d))
    return {"turn": s.turn, "left_s": round((limit - s.time_ms) / 1000, 1), "bombs": TP.bombs_left(s),
            "hands": hands, "row": row, "deck": deck, "bag": len(s.bag)}


class Positions:
    """A game's positions at the start of each turn (``sim.Watcher``)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, object]] = []
        self.won = False

    def turn(self, s: GameState) -> None:
        if not s.is_over:
            self.rows.append(position(s))

    def acted(self, s: GameState, action: Action, events: list[Event]) -> None:
        pass

    def over(self, s: GameState) -> None:
        self.won = s.outcome is not None and s.outcome.won


def one_game(args: tuple[str, int, int]) -> dict[str, object]:
    level, players, i = args
    cfg = GameConfig(players=players, difficulty=level, game="fuse")
    w = Positions()
    play_game(cfg, game_seed(2026, i), get_policy("play"), Pace(), watch=w)
    return {"deal": i, "level": level, "players": players, "won": w.won, "positions": w.rows}


def collect(level: str, games: int, start: int, players: int, out: str, workers: int) -> None:
    GameConfig(players=players, difficulty=level, game="fuse")  # a bad level fails before the file is written
    jobs = [(level, players, i) for i in range(start, start + games)]
    write_games(one_game, jobs, out, workers, chunksize=4)


# --- the model -------------------------------------------------------------------------------

#: the features, each a function of one position (``position``); see ``features``
NAMES = ("bias", "bombs", "work_needed", "bombs_per_min", "work_per_min", "hand_work",
         "race_work", "row_least", "luck", "luck_per_min")


def features(p: dict[str, object]) -> list[float]:
    """The model's inputs for one position: the bombs left, and the least work the team must
    still do to take them (each bomb left in the middle needs a completion: the smallest of the
    unfinished cards, in hand or in the row), each also per minute left; the work in the hands,
    the work of the cards nearest to done (as many as the bombs left), and the row's least. And
    ``luck``, the same least work counting the face-down deck too, also per minute left: how
    hard the cards still to come are, which no choice of the team changes (taking a card moves
    it from the row to a hand), so that the other features are read with the deal held fixed."""
    left_min = max(float(p["left_s"]), 1.0) / 60  # type: ignore[arg-type]
    bombs = float(p["bombs"])  # type: ignore[arg-type]
    hands = [w for h in p["hands"] for w in h]  # type: ignore[attr-defined]
    row = list(p["row"])  # type: ignore[call-overload]
    cards = sorted(hands + row)
    need = sum(cards[: int(bombs)])
    race = sum(sorted(hands)[: int(bombs)])
    luck = sum(sorted(cards + list(p.get("deck", [])))[: int(bombs)])  # type: ignore[call-overload]
    return [1.0, bombs, need / 10, bombs / left_min, need / 10 / left_min, sum(hands) / 10,
            race / 10, (min(row) if row else 0.0) / 10, luck / 10, luck / 10 / left_min]


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Newton's method on the mean log loss, with a small ridge (the bias unpenalised)."""
    beta = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], ridge)
    pen[0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (p - y) / len(y) + pen * beta
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + np.diag(pen)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return beta


def scores(beta: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()), float(((p - y) ** 2).mean())


def fit(paths: list[str], names: tuple[str, ...] = NAMES) -> np.ndarray:
    games = list(read_games(*paths))
    cols = [NAMES.index(n) for n in names]
    train_x: list[list[float]] = []
    train_y: list[float] = []
    test_x: list[list[float]] = []
    test_y: list[float] = []
    for g in games:
        held = int(g["deal"]) % 4 == 3  # type: ignore[call-overload]
        for p in g["positions"]:  # type: ignore[attr-defined]
            f = features(p)
            (test_x if held else train_x).append([f[c] for c in cols])
            (test_y if held else train_y).append(float(bool(g["won"])))
    if len(set(train_y)) < 2 or not test_y:
        raise ValueError("the games fitted must include both wins and losses, and a quarter held out: "
                         "collect more games")
    x, y = np.array(train_x), np.array(train_y)
    tx, ty = np.array(test_x), np.array(test_y)
    beta = fit_logistic(x, y)
    base = float(y.mean())
    base_b = np.array([math.log(base / (1 - base))] + [0.0] * (len(cols) - 1))
    won = sum(bool(g["won"]) for g in games)
    print(f"{len(games)} games ({won} won), {len(x)} positions to fit, {len(tx)} held out")
    for n, b in zip(names, beta):
        print(f"  {n:14s} {b:+.4f}")
    ll, br = scores(beta, tx, ty)
    ll0, br0 = scores(base_b, tx, ty)
    print(f"held out: log loss {ll:.4f} (base rate {ll0:.4f}), Brier {br:.4f} (base rate {br0:.4f})")
    return beta


class ValuedCards:
    """The planner in play, but the card to take is the one the fitted model values most."""

    def __init__(self, beta: list[float]) -> None:
        self.beta = np.array(beta)
        self.planner = get_policy("play")
        self.changed = 0
        self.choices = 0

    def __call__(self, state: GameState, rng: object = None) -> Action:
        for seat, dec in state.to_act().items():
            if dec.kind == "take" and not TP.takes_hardest(state):
                options = defusal.options(state)
                if len(options) > 1:
                    return TakeCard(seat, state.time_ms, self.choose(state, seat, options))
        return self.planner(state, rng)  # type: ignore[arg-type]

    def choose(self, state: GameState, seat: int, options: list[str]) -> str:
        p = position(state)
        work = {c: TP.model(state, c).draws(state.card_rules(c).empty) for c in options}

        def value(c: str) -> float:
            q = dict(p)
            hands = [list(h) for h in p["hands"]]  # type: ignore[attr-defined]
            hands[seat].append(work[c])
            row = list(p["row"])  # type: ignore[call-overload]
            if round(work[c], 2) in row:
                row.remove(round(work[c], 2))
            q["hands"], q["row"] = hands, row
            return float(np.array(features(q)) @ self.beta)

        best = max(options, key=lambda c: (value(c), c))
        mine = TP.choose_card(state, seat)
        self.choices += 1
        self.changed += best != mine
        return best


def one_pair(args: tuple[str, int, list[float]]) -> tuple[int, bool, bool, int, int]:
    level, i, beta = args
    cfg = GameConfig(players=3, difficulty=level, game="fuse")
    base = play_game(cfg, game_seed(2026, i), get_policy("play"), Pace())
    pol = ValuedCards(beta)
    new = play_game(cfg, game_seed(2026, i), pol, Pace())
    return i, bool(base.won), bool(new.won), pol.changed, pol.choices


def paired(level: str, paths: list[str], games: int, start: int, workers: int,
           names: tuple[str, ...]) -> None:
    fitted = fit(paths, names)
    beta = [0.0] * len(NAMES)
    for name, weight in zip(names, fitted):
        beta[NAMES.index(name)] = float(weight)
    jobs = [(level, i, beta) for i in range(start, start + games)]
    a = b = only_a = only_b = changed = choices = 0
    with ProcessPoolExecutor(workers) as pool:
        for k, (_, wa, wb, ch, n) in enumerate(pool.map(one_pair, jobs, chunksize=4), 1):
            a += wa
            b += wb
            only_a += wa and not wb
            only_b += wb and not wa
            changed += ch
            choices += n
            if k % 50 == 0:
                print(f"\r{k}/{games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    d, lo, hi = paired_difference(only_b, only_a, games)
    print(f"3 players {level}, deals {start}-{start + games - 1}: play {100 * a / games:.1f}%, "
          f"cards by the value {100 * b / games:.1f}% (paired {100 * d:+.1f} [{100 * lo:+.1f}, "
          f"{100 * hi:+.1f}]; only play won {only_a}, only the value won {only_b}); "
          f"{changed} of {choices} card choices changed")


def standing(paths: list[str]) -> None:
    for path in paths:
        games = list(read_games(path))
        clock = 600  # `collect` plays at the rulebook's ten minutes
        won = sum(bool(g["won"]) for g in games)
        print(f"{path}: {len(games)} games, {won} won")
        for played in (3, 5, 7):
            by: dict[int, list[int]] = {}
            over = [0, 0]
            for g in games:
                at = [p for p in g["positions"]
                      if float(p["left_s"]) <= clock - played * 60]
                first = int(g["positions"][0]["bombs"])
                cell = by.setdefault(first - int(at[0]["bombs"]), [0, 0]) if at else over
                cell[0] += 1
                cell[1] += bool(g["won"])
            cells = ", ".join(f"{b}: {w}/{n}" for b, (n, w) in sorted(by.items()))
            print(f"  after {played} min, bombs defused: games won/played: {cells}"
                  + (f"; over by then: {over[1]}/{over[0]}" if over[0] else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("level")
    c.add_argument("games", type=int)
    c.add_argument("--start", type=int, default=20000)
    c.add_argument("--players", type=int, default=3)
    c.add_argument("--out", required=True)
    c.add_argument("--workers", type=int, default=2)
    f = sub.add_parser("fit")
    f.add_argument("paths", nargs="+")
    f.add_argument("--features", default=",".join(NAMES[1:8]))
    p = sub.add_parser("paired")
    p.add_argument("level")
    p.add_argument("paths", nargs="+")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--start", type=int, default=5000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--features", default=",".join(NAMES[1:8]))
    t = sub.add_parser("standing")
    t.add_argument("paths", nargs="+")
    a = ap.parse_args()
    names = ("bias", *getattr(a, "features", "").split(","))
    unknown = [n for n in names if n not in NAMES]
    if a.cmd in ("fit", "paired") and unknown:
        ap.error(f"unknown feature {', '.join(unknown)}; known: {', '.join(NAMES[1:])}")
    try:
        if a.cmd == "collect":
            collect(a.level, a.games, a.start, a.players, a.out, a.workers)
        elif a.cmd == "fit":
            fit(a.paths, names)
        elif a.cmd == "paired":
            paired(a.level, a.paths, a.games, a.start, a.workers, names)
        else:
            standing(a.paths)
    except (OSError, ValueError) as e:  # a missing file, a bad level
        ap.exit(2, f"position_value.py: {e}\n")
    except KeyError as e:
        ap.exit(2, f"position_value.py: not a file `collect` wrote (it has no {e} field)\n")


if __name__ == "__main__":
    main()
