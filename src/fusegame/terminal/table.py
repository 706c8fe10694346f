"""What the frames have said about the table, and what the player has picked on it.

``Table`` reads every frame the server sends (``welcome``, ``room``, ``state``, ``over``, ``chat``,
``signal``, ``error``; docs/protocol.md) and keeps the latest of each. It also holds the player's
selection: a die of the roll (numbered 1, 2, 3... in the order of the roll, as on the screen), the
slot it would go to among the slots the server says it may (``moves.place``), and the highlighted
choice among the other moves (take a card, give up a die, name a colour...). Nothing here draws or
sends: ``confirm`` returns the action text to send, and the app sends it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

#: The ship's log keeps this many lines (the screen shows the newest that fit).
MAX_LOG = 200


@dataclass(frozen=True)
class Why:
    """Why a selection cannot be made: a key of the screen's words and the facts it names."""

    key: str
    facts: dict[str, Any]


@dataclass(frozen=True)
class Target:
    """A slot the selected die may go to, and the action that puts it there."""

    card: str
    slot: int
    action: str


def action_of_hint(h: dict[str, Any]) -> str | None:
    """The text a client sends for a hint's action (``place d3 F12 s1``), or None when the hint
    advises waiting."""
    text = h.get("action")
    if not isinstance(text, str) or not text:
        return None
    text = text.split(" @", 1)[0]
    return text.split(" ", 1)[1] if text.startswith("p") else text


class Table:
    """The table as the frames tell it (see the module docstring)."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.room: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.moves: dict[str, Any] = {"place": [], "actions": []}
        self.hints: list[dict[str, Any]] | None = None
        self.choices: dict[str, int] = {}
        self.clock_left_ms: int | None = None
        self.clock_running = False
        self.clock_at = 0.0  #: when the last clock reading came (``time.monotonic``)
        self.outcome: dict[str, Any] | None = None
        self.log_id: int | None = None
        self.stored = False  #: the over frame came: the game is in the log (``log_id``) or could not be
        self.log: list[dict[str, Any]] = []
        self.error: str | None = None
        self.refused: dict[str, Any] | None = None  #: the error frame behind ``error``, to word it
        self.restarting = False  #: the server said it is restarting, and is not back yet
        #: the link to the room: ``open``, ``connecting`` (lost, trying again: ``attempt`` says how
        #: often) or ``closed`` (given up); a local game is always open
        self.connection = "open"
        self.attempt = 0
        self.seq = 0
        #: seats a bot played at some moment of the game (a bot's seat, or a person's seat in
        #: autoplay): such a game is unranked
        self.bot_seats: set[int] = set()
        self.seeded: bool | None = None  #: the deal was chosen (``--seed``); None: not known here
        self.entry: dict[str, Any] | None = None  #: the game's BDT Log entry, when the link read it
        # the selection
        self.die: int | None = None
        self.cursor = 0  #: index into ``targets()`` while a die is selected
        #: index into ``choice_moves()``; -1: none highlighted (the moves a seat may make beside
        #: placing, such as a role ability, are highlighted only once the player moves to them)
        self.choice = -1
        self._choice_list: tuple[str, ...] = ()  #: the moves ``choice`` indexes into
        self.hint: dict[str, Any] | None = None  #: the hint shown, until the next change
        #: ``h`` was pressed while the planner was still thinking: the hint shows when it comes
        self.hint_wanted = False
        self.intro: str | None = None  #: a word for the start of the game, until the player acts

    # ------------------------------------------------------------------ frames
    def feed(self, frame: dict[str, Any]) -> None:
        """Take in one frame from the server."""
        kind = frame.get("type")
        if kind == "welcome":
            self.seat = frame.get("seat")
            self.room = frame.get("room")
            self._note_bots()
        elif kind == "room":
            self.room = frame.get("room")
            if self.room is not None and self.room.get("log_id") is not None:
                self.log_id = self.room["log_id"]
            self._note_bots()
        elif kind == "state":
            self._on_state(frame)
        elif kind == "over":
            self.outcome = frame.get("outcome")
            self.log_id = frame.get("log_id")
            self.stored = True
            self.die = None
        elif kind == "chat":
            self.log.append({"chat": frame})
        elif kind == "signal":
            self.log.append({"signal": frame})
        elif kind == "error":
            self.error = str(frame.get("message") or frame.get("code") or "error")
            self.refused = frame
        elif kind == "restarting":
            self.restarting = True
            self.hold_clock()
        del self.log[:-MAX_LOG]

    def _note_bots(self) -> None:
        room = self.room or {}
        if room.get("status") == "lobby":
            return
        for s in room.get("seats") or []:
            if s.get("kind") == "bot" or s.get("autoplay"):
                self.bot_seats.add(int(s.get("seat", 0)))

    def hold_clock(self, now: float | None = None) -> None:
        """Stop counting down where the clock is now (the server stopped, or the link to it is
        lost: the server's clock is held until a player is back, and the next state frame says
        where it stands)."""
        if self.clock_running:
            self.clock_left_ms = self.clock_ms(now)
            self.clock_running = False
            self.clock_at = time.monotonic() if now is None else now

    def lost(self, attempt: int) -> None:
        """The link to the room is lost; it is being opened again (``attempt``: the how-manyth try)."""
        self.connection, self.attempt = "connecting", attempt
        self.hold_clock()

    def back(self) -> None:
        """The link to the room is open again (its frames follow)."""
        self.connection, self.attempt = "open", 0

    def _on_state(self, frame: dict[str, Any]) -> None:
        self.restarting = False
        if frame.get("seat") is not None or self.seat is None:
            self.seat = frame.get("seat")
        changed = int(frame.get("seq") or 0) != self.seq  # else the same table with its hints
        aimed = self.target()  # the slot under the cursor stays under it while it may be aimed at
        self.seq = int(frame.get("seq") or 0)
        self.view = frame.get("view")
        self.moves = frame.get("moves") or {"place": [], "actions": []}
        self.hints = frame.get("hints")
        self.choices = frame.get("choices") or {}
        clock = frame.get("clock") or {}
        self.clock_left_ms = clock.get("left_ms")
        self.clock_running = bool(clock.get("running"))
        self.clock_at = time.monotonic()
        for e in frame.get("events") or []:
            self.log.append({"event": e})
        if self.view is not None and self.view.get("outcome") is not None:
            self.outcome = self.view["outcome"]
        if self.hint is not None and not self._still_open(self.hint):
            self.hint = None
        if changed:
            self.error = None
        # a selection the new state no longer allows goes
        if self.die is not None and not self.targets() and not self._die_choices(self.die):
            self.die = None
        spots = [(t.card, t.slot) for t in self.targets()]
        if aimed is not None and (aimed.card, aimed.slot) in spots:
            self.cursor = spots.index((aimed.card, aimed.slot))
        self.cursor = min(self.cursor, max(0, len(spots) - 1))
        # a new list of choices starts without a highlight, or on its first entry when the seat
        # must choose one of them: a cursor never carries over to another list, where an Enter
        # meant for the old one could spend a role ability
        listed = tuple(str(a.get("action")) for a in self.choice_moves())
        if listed != self._choice_list:
            kept = self._choice_list[self.choice] if 0 <= self.choice < len(self._choice_list) else None
            self._choice_list = listed
            if kept is not None and kept in listed and self._must_choose():
                self.choice = listed.index(kept)  # the same list with a move less: stay on it
            else:
                self.choice = 0 if listed and self._must_choose() else -1
        if self.hint_wanted and self.hints:
            self.hint_wanted = False
            self.follow_hint()

    def _must_choose(self) -> bool:
        """Whether this seat must answer with one of the choices (a card to take, a die to give up,
        a colour to name...): not placing a die, where other moves are only offered."""
        mine = self.my_decision()
        return mine is not None and mine.get("kind") not in ("distribute", "role")

    # ------------------------------------------------------------------ reading
    @property
    def playing(self) -> bool:
        """A game is on: there is a table and no outcome yet."""
        return self.view is not None and self.outcome is None

    @property
    def names(self) -> list[str]:
        """The seats' names, as the room frame gives them."""
        seats = (self.room or {}).get("seats") or []
        return [str(s.get("name") or "") for s in seats]

    def clock_ms(self, now: float | None = None) -> int | None:
        """The time left now, counting down from the last frame while the clock runs."""
        if self.clock_left_ms is None:
            return None
        if not self.clock_running or self.outcome is not None:
            return self.clock_left_ms
        elapsed = (time.monotonic() if now is None else now) - self.clock_at
        return max(0, self.clock_left_ms - round(elapsed * 1000))

    def rolled(self) -> list[dict[str, Any]]:
        """The dice of the roll in the middle, in their screen order (die 1 first)."""
        return list((self.view or {}).get("rolled") or [])

    def my_decision(self) -> dict[str, Any] | None:
        """What this seat must decide now (``to_act``), if anything."""
        if self.view is None or self.seat is None:
            return None
        result: dict[str, Any] | None = (self.view.get("to_act") or {}).get(str(self.seat))
        return result

    def my_hint(self) -> dict[str, Any] | None:
        """The planner's hint for this seat in the latest frame (rooms with hints on)."""
        for h in self.hints or []:
            if h.get("seat") == self.seat:
                return h
        return None

    def targets(self, die: int | None = None) -> list[Target]:
        """Where ``die`` (the selected one by default) may go, card by card in the hand's order."""
        die = self.die if die is None else die
        if die is None:
            return []
        order = {c["id"]: i for i, c in enumerate(self._my_cards())}
        out: list[Target] = []
        for p in self.moves.get("place") or []:
            if p.get("die") == die:
                out += [Target(p["card"], s, a) for s, a in zip(p["slots"], p["actions"], strict=True)]
        out.sort(key=lambda t: (order.get(t.card, 99), t.slot))
        return out

    def target(self) -> Target | None:
        """The slot under the cursor."""
        ts = self.targets()
        return ts[self.cursor] if ts and 0 <= self.cursor < len(ts) else None

    def choice_moves(self) -> list[dict[str, Any]]:
        """The moves other than placing a die and being done, in the server's order."""
        return [a for a in self.moves.get("actions") or [] if a.get("kind") != "done"]

    def done_move(self) -> str | None:
        """The text of ``done`` when this seat may say it."""
        for a in self.moves.get("actions") or []:
            if a.get("kind") == "done":
                return str(a["action"])
        return None

    def _die_choices(self, die: int) -> list[int]:
        return [i for i, a in enumerate(self.choice_moves()) if a.get("die") == die]

    def _my_cards(self) -> list[dict[str, Any]]:
        if self.view is None or self.seat is None:
            return []
        for hand in self.view.get("hands") or []:
            if hand.get("seat") == self.seat:
                return list(hand.get("cards") or [])
        return []

    def _still_open(self, h: dict[str, Any]) -> bool:
        """Whether the move a shown hint advises may still be made (others acting meanwhile)."""
        text = action_of_hint(h)
        if text is None:
            return False
        if any(a.get("action") == text for a in self.moves.get("actions") or []):
            return True
        return any(text in p.get("actions", []) for p in self.moves.get("place") or [])

    # ------------------------------------------------------------------ selecting
    def pick(self, number: int) -> Why | None:
        """Select die ``number`` of the roll (1 is the first); returns why not (a key of the
        screen's words and its facts), or None."""
        dice = self.rolled()
        if not 1 <= number <= len(dice):
            self.die = None
            return Why("no_die", {"n": number})
        die = int(dice[number - 1]["id"])
        if self.targets(die):
            self.die, self.cursor = die, 0
            return None
        mine = self._die_choices(die)
        if mine:
            self.die, self.choice = None, mine[0]
            return None
        self.die = None
        return self._why_not(number, dice[number - 1])

    def _why_not(self, number: int, d: dict[str, Any]) -> Why:
        """Why die ``number`` of the roll cannot be picked now."""
        holder = self.holder(int(d["id"]))
        if d.get("placed") or holder is not None:
            if holder == self.seat:
                return Why("die_yours", {"n": number})
            return Why("die_taken", {"n": number, "seat": holder})
        hand: dict[str, Any] = next(
            (h for h in (self.view or {}).get("hands") or [] if h.get("seat") == self.seat), {})
        if hand.get("done"):
            return Why("die_done", {"n": number})
        quota = hand.get("quota")
        if quota is not None and int(hand.get("taken") or 0) >= int(quota):
            return Why("die_quota", {"n": number, "quota": quota})
        if self.my_decision() is None:
            return Why("die_not_now", {"n": number})
        return Why("no_slot", {"n": number})

    def holder(self, die: int) -> int | None:
        """The seat on whose card die ``die`` lies, if it lies on one."""
        for hand in (self.view or {}).get("hands") or []:
            for card in hand.get("cards") or []:
                if any(d is not None and d.get("id") == die for d in card.get("dice") or []):
                    return int(hand.get("seat", 0))
        return None

    def pick_id(self, die: int) -> Why | None:
        """Select a die by its id (a click)."""
        for i, d in enumerate(self.rolled()):
            if d.get("id") == die:
                return self.pick(i + 1)
        return Why("no_die", {"n": die})

    def move(self, step: int) -> None:
        """Move the slot cursor (a die selected) or the choice cursor by ``step``."""
        ts = self.targets()
        if self.die is not None and ts:
            self.cursor = (self.cursor + step) % len(ts)
            return
        cm = self.choice_moves()
        if cm:
            self.choice = (step - 1 if step > 0 else step) % len(cm) if self.choice < 0 else \
                (self.choice + step) % len(cm)

    def aim(self, card: str, slot: int) -> str | None:
        """The action that puts the selected die on ``card`` ``slot`` (a click), if it may go there."""
        for i, t in enumerate(self.targets()):
            if t.card == card and t.slot == slot:
                self.cursor = i
                return t.action
        return None

    def clear(self) -> None:
        """Put the selected die down."""
        self.die = None

    def confirm(self) -> str | None:
        """The action Enter makes: place the selected die, else the highlighted choice."""
        t = self.target()
        if self.die is not None and t is not None:
            return t.action
        cm = self.choice_moves()
        if cm and 0 <= self.choice < len(cm):
            return str(cm[self.choice]["action"])
        return None

    def follow_hint(self) -> dict[str, Any] | None:
        """Show the planner's hint for this seat and select what it advises, so that Enter (or
        ``d`` for done) follows it. None when there is none."""
        h = self.my_hint()
        self.hint = h
        if h is None:
            return None
        text = action_of_hint(h)
        act = h.get("act") or {}
        if text is None:
            return h
        if act.get("verb") == "place":
            self.die = act.get("die")
            for i, t in enumerate(self.targets()):
                if t.action == text:
                    self.cursor = i
            return h
        for i, a in enumerate(self.choice_moves()):
            if a.get("action") == text:
                self.die, self.choice = None, i
        return h
