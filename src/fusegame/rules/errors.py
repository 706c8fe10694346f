"""The typed errors ``GameState.apply`` raises for actions the rules do not allow now."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is meant for the player."""


class GameOverError(IllegalAction):
    """The game has ended: no action is accepted."""


class NotYourDecision(IllegalAction):
    """This seat cannot make this kind of decision now."""


class IllegalPlacement(IllegalAction):
    """The die cannot go on that slot."""


class BadTime(IllegalAction):
    """The action's time is before the game's current time."""


__all__ = ["BadTime", "GameOverError", "IllegalAction", "IllegalPlacement", "NotYourDecision"]
