"""A simulation worker forgets the process's card memos past a budget, and nothing it plays changes.

The memos of compiled cards and of the planner's card models only save time: a worker that plays
thousands of games keeps its memory flat by forgetting them all at once (``fusegame.memos``), and
the games it plays after must be the games it would have played with them kept."""

from __future__ import annotations

import gc
import weakref

from fusegame.memos import bound_card_memos, card_memo_entries, forget_card_memos
from fusegame.rules.config import GameConfig
from fusegame.rules.state import new_game
from fusegame.sim import get_policy
from fusegame.sim.batch import play_games


def test_games_after_the_memos_are_forgotten_are_the_same_games() -> None:
    config = GameConfig(players=3, difficulty="standard", game="countdown")
    policy = get_policy("play")
    forget_card_memos()
    kept = play_games(config, 5, policy, None, 0, 4)
    assert card_memo_entries() > 0, "the games left nothing in the card memos"
    forgotten = []
    for i in range(4):
        forget_card_memos()  # as a worker does once past its budget, here before every game
        assert card_memo_entries() == 0
        forgotten += play_games(config, 5, get_policy("play"), None, i, i + 1)
    assert forgotten == kept


def test_the_memos_are_forgotten_only_past_the_budget() -> None:
    config = GameConfig(players=2, difficulty="standard", game="fuse")
    play_games(config, 1, get_policy("play"), None, 0, 1)
    held = card_memo_entries()
    assert held > 0
    assert not bound_card_memos(held)  # at the budget: kept
    assert card_memo_entries() == held
    assert bound_card_memos(held - 1)  # past it: forgotten
    assert card_memo_entries() == 0


def test_forgetting_the_memos_lets_go_of_finished_games_configurations() -> None:
    # a server makes each room's game from a configuration of its own: once the games have ended
    # and the memos are forgotten, nothing of theirs stays behind
    config = GameConfig(players=4, difficulty="expert", modules=("roles", "sparks"))
    game = new_game(config, 11)
    game.clone()
    gone = weakref.ref(config)
    del config, game
    gc.collect()
    assert gone() is not None, "the look-ups of a configuration games were made from are shared"
    forget_card_memos()
    gc.collect()
    assert gone() is None
