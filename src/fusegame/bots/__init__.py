"""Bots: card values (``value``), the greedy and team policies (``greedy``, ``team``) and hints for
players (``hints``: the team planner's recommended move for each seat, with a reason in words)."""

from fusegame.bots.hints import Hint, hint

__all__ = ["Hint", "hint"]
