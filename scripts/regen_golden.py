"""Regenerate the golden files in tests/golden/ (compared line by line by tests/rules/test_golden.py).

    python scripts/regen_golden.py            # rewrite every golden file
    python scripts/regen_golden.py --check    # only say which files would change (exit 1 if any)

Two kinds of file:

* ``legal_counts.txt``: perft-style legal-action counts. For several configurations and seeds a
  seeded random walk takes k steps; at each recorded k the file lists the phase, the number of legal
  actions of every seat, and perft(2) (the number of two-action sequences from that position; chance
  is resolved by the game's own generator, so it is deterministic).
* ``playthrough_3p_standard.txt``: one whole 3-player Standard game: every action (``> ...``) and the
  events it caused, line by line, then the outcome.
* ``playthroughs_by_game.txt``: the same for one game of every row of the table of games (Countdown,
  integrated sets, an epic game, FUSE with every module), so that every part of the rules is in a
  recorded game.

Regenerate only when a change of behaviour is intended (a rules fix, a new catalogue), and say why in
the commit. The files name the card catalogue they were made with (a fingerprint of its data).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from fusegame.cards import Catalogue, builtin_catalogue, load_catalogue
from fusegame.record import catalogue_fingerprint
from fusegame.rng import Rng
from fusegame.rules import Action, Difficulty, Done, Game, GameConfig, GameState, Module, Setup, new_game
from fusegame.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CONFORMANCE_CARDS = ROOT / "tests" / "data" / "conformance_cards.toml"

#: (label, players, difficulty, setup, six-point cards, feasibility)
COUNT_CONFIGS = [
    ("1p-standard-standard", 1, Difficulty.STANDARD, Setup.STANDARD, False, True),
    ("2p-expert-single-deck", 2, Difficulty.EXPERT, Setup.SINGLE_DECK, False, True),
    ("3p-standard-standard", 3, Difficulty.STANDARD, Setup.STANDARD, False, True),
    ("3p-training-standard-strict", 3, Difficulty.TRAINING, Setup.STANDARD, False, False),
    ("4p-elite-stacks-six", 4, Difficulty.ELITE, Setup.STACKS, True, True),
    ("5p-insane-standard-six", 5, Difficulty.INSANE, Setup.STANDARD, True, True),
]
COUNT_SEEDS = (1, 2)
COUNT_STEPS = (0, 1, 2, 3, 5, 8, 13, 21, 34)
PLAYTHROUGH_SEED = 2024


def cards() -> Catalogue | None:
    """The built-in catalogue once it has bomb cards (None = built-in), else the test catalogue."""
    return None if builtin_catalogue().bombs else load_catalogue(CONFORMANCE_CARDS)


def fingerprint(config: GameConfig) -> str:
    """The catalogue's rule-relevant data, as game records name it: a card's name in either language
    is not a rule, and renaming one leaves every golden file as it was."""
    return catalogue_fingerprint(config.catalogue)


def header(title: str, config: GameConfig) -> list[str]:
    origin = "built-in" if config.cards is None else CONFORMANCE_CARDS.relative_to(ROOT).as_posix()
    return [f"# {title}",
            f"# catalogue {origin} fingerprint {fingerprint(config)}",
            "# regenerate: python scripts/regen_golden.py"]


def perft(g: GameState, depth: int) -> int:
    """Number of action sequences of length ``depth`` (fewer where the game ends first)."""
    if depth == 0 or g.is_over:
        return 1
    acts = g.legal_actions()
    if depth == 1:
        return len(acts)
    total = 0
    for a in acts:
        child = g.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def legal_counts() -> str:
    lines: list[str] = []
    for label, players, difficulty, setup, six, feasibility in COUNT_CONFIGS:
        config = GameConfig(players=players, difficulty=difficulty, setup=setup, six_point_cards=six,
                            feasibility=feasibility, cards=cards())
        if not lines:
            lines = header("legal-action counts at fixed positions (perft-style)", config)
            lines.append("# config seed step: phase turn leader | legal actions per seat | perft(2)")
        for seed in COUNT_SEEDS:
            g = new_game(config, seed)
            walk = Rng(seed + 7919)
            for step in range(max(COUNT_STEPS) + 1):
                if step in COUNT_STEPS:
                    per_seat = " ".join(f"p{s}={len(g.legal_actions(s))}" for s in range(players))
                    lines.append(f"{label} seed={seed} step={step}: {g.phase.value} turn={g.turn} "
                                 f"leader=p{g.leader} | {per_seat} | perft2={perft(g, 2)}")
                acts = g.legal_actions()
                if g.is_over or not acts:
                    break
                g.apply(acts[walk.below(len(acts))])
    lines.append("# scenario documents (tests/scenarios/*.yaml): legal actions per seat | perft(2)")
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.yaml")):
        g = load_scenario(path)
        per_seat = " ".join(f"p{s}={len(g.legal_actions(s))}" for s in range(g.players))
        lines.append(f"{path.name}: {g.phase.value} turn={g.turn} leader=p{g.leader} | {per_seat} | "
                     f"perft2={perft(g, 2)}")
    return "\n".join(lines) + "\n"


def play_3p_standard() -> tuple[GameConfig, list[Action], list[str]]:
    """The recorded game: a seeded random policy that says "done" only when it has nothing else to
    do, the clock moving ~15 s a turn."""
    config = GameConfig(players=3, difficulty=Difficulty.STANDARD, cards=cards())
    g = new_game(config, PLAYTHROUGH_SEED, chance=False)
    lines = ["# setup"]
    lines += [f"  hand p{s}: " + " ".join(hc.card for hc in hand) for s, hand in enumerate(g.hands)]
    lines.append("  row: " + " ".join(g.row))
    lines += [f"  {e}" for e in g.sample_chance()]
    policy = Rng(PLAYTHROUGH_SEED * 31 + 1)
    clock, turn = 0, g.turn
    actions: list[Action] = []
    while not g.is_over:
        if g.turn != turn:
            turn, clock = g.turn, clock + 13_000 + policy.below(4000)
        acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
        clock += policy.below(500)
        a = replace(acts[policy.below(len(acts))], at=max(clock, g.time_ms))
        actions.append(a)
        lines.append(f"> {a}")
        lines += [f"  {e}" for e in g.apply(a)]
    assert g.outcome is not None
    o = g.outcome
    lines.append(f"= {'won' if o.won else 'lost'} ({o.reason.value}) score {o.score.total} "
                 f"{json.dumps(o.score.to_dict(), sort_keys=True)} after {len(actions)} actions")
    return config, actions, lines


#: One game of every row of the table of games (and FUSE with every module): (label, config).
GAME_ROWS = [
    ("fuse-2p-expert", GameConfig(players=2, difficulty=Difficulty.EXPERT)),
    ("countdown-3p-expert", GameConfig(game=Game.COUNTDOWN, players=3, difficulty=Difficulty.EXPERT)),
    ("countdown-1p-elite", GameConfig(game=Game.COUNTDOWN, players=1, difficulty=Difficulty.ELITE)),
    ("integrated-2p-heroic", GameConfig(game=Game.INTEGRATED, players=2, difficulty=Difficulty.HEROIC)),
    ("epic-6p-expert", GameConfig(game=Game.EPIC, players=6, difficulty=Difficulty.EXPERT)),
    ("fuse-all-modules-4p-expert",
     GameConfig(players=4, difficulty=Difficulty.EXPERT, modules=tuple(Module))),
]
GAME_ROWS_SEED = 77


def play(config: GameConfig, seed: int) -> tuple[list[Action], list[str]]:
    """A whole game with a seeded random policy that says "done" only when it has nothing else to
    do, the clock moving ~15 s a turn: the actions, and every action and event as lines."""
    g = new_game(config, seed, chance=False)
    lines = ["# setup"]
    lines += [f"  hand p{s}: " + " ".join(hc.card for hc in hand) for s, hand in enumerate(g.hands)]
    lines.append("  row: " + " ".join(g.row))
    lines += [f"  {e}" for e in g.sample_chance()]
    policy = Rng(seed * 31 + 1)
    clock, turn = 0, g.turn
    actions: list[Action] = []
    while not g.is_over:
        if g.turn != turn:
            turn, clock = g.turn, clock + 13_000 + policy.below(4000)
        acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
        clock += policy.below(500)
        a = replace(acts[policy.below(len(acts))], at=max(clock, g.time_ms))
        actions.append(a)
        lines.append(f"> {a}")
        lines += [f"  {e}" for e in g.apply(a)]
    assert g.outcome is not None
    o = g.outcome
    lines.append(f"= {'won' if o.won else 'lost'} ({o.reason.value}) score {o.score.total} "
                 f"{json.dumps(o.score.to_dict(), sort_keys=True)} after {len(actions)} actions")
    return actions, lines


def playthroughs_by_game() -> str:
    lines = [f"# one recorded game of every row of the table of games, seed {GAME_ROWS_SEED}",
             "# catalogue built-in (the rows' own card sets)",
             "# regenerate: python scripts/regen_golden.py",
             "# '> action' lines are inputs; indented lines are the events each one caused"]
    for label, config in GAME_ROWS:
        lines.append(f"## {label}: {config.describe()}")
        lines += play(config, GAME_ROWS_SEED)[1]
    return "\n".join(lines) + "\n"


def playthrough() -> str:
    config, _, lines = play_3p_standard()
    head = header(f"one recorded 3-player Standard game, seed {PLAYTHROUGH_SEED}", config)
    head.append("# '> action' lines are inputs; indented lines are the events each one caused")
    return "\n".join(head + lines) + "\n"


def golden_files() -> dict[str, str]:
    """Every golden file's name and the text it should hold now."""
    return {"legal_counts.txt": legal_counts(), "playthrough_3p_standard.txt": playthrough(),
            "playthroughs_by_game.txt": playthroughs_by_game()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="report files that would change; write nothing")
    args = ap.parse_args(argv)
    changed = []
    for name, text in golden_files().items():
        path = GOLDEN / name
        old = path.read_text("utf-8") if path.exists() else None
        if old != text:
            changed.append(name)
            if not args.check:
                GOLDEN.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
    verb = "would change" if args.check else "rewritten"
    print(f"{verb}: {', '.join(changed)}" if changed else "golden files are up to date")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
