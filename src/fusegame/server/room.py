"""A room: its seats, its lobby, and the one authoritative pipeline of its match.

Every message for a room is handled by ``Room.handle`` from start to end without yielding to the
event loop: parse, check that the socket may act for the seat, stamp the action with the server
clock, let the engine validate and apply it, record it, and queue each socket's frame. Two claims
of one die are therefore served strictly in the order they arrive: the first legal one wins and the
second is refused by the engine (the die is no longer in the middle). Sockets are written by their
own tasks from queues, so a slow client never holds up the pipeline.

Time and timers come in through a ``Scheduler`` (the event loop in the server), so the room itself
reads no clock of its own: the game's time is ``scheduler.now() - start``.

The planner behind the bots and the hints (up to a tenth of a second on some rolls) never thinks
on the event loop when the scheduler has a worker (``Thinker``: the server's planner process,
``fusegame.server.planners``): the room asks it about the table as its record stands (a
``Question``) and goes on; the answer is taken back on the loop only if the room's state is still
the one it was worked out for (``seq``), else the planner is asked again. A bot whose turn falls
due before the answer acts when it comes; a frame sent before its hints are known carries none
(``[]``), and a frame of the same ``seq`` with the hints follows. A scheduler without a worker (the
tests' clocks) has the room's own planner answer at once, on a copy of the state, as part of the
change.

A room is written down as it changes, through its ``RoomHost`` (the lobby, which keeps it in the
database): each applied action is recorded before its frames are built, and a change of status or
seats before the frame that shows it, so no player ever sees a change the database does not have.
``Room.restore`` builds a room again from what was kept (the record replayed); its clock stays held
where the game stopped until a player is back (``hold``, ``release``).
"""

from __future__ import annotations

import json
import logging
import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, runtime_checkable

from pydantic_core import PydanticSerializationError, to_json

from fusegame.bots.hints import Hint
from fusegame.bots.team import TeamPlanner
from fusegame.observe import game_title, observation
from fusegame.record import GameRecord, record_data
from fusegame.rules.actions import Action, ActionParseError, Done, Place, Tick, with_time
from fusegame.rules.config import GameConfig
from fusegame.rules.decision_kinds import KINDS
from fusegame.rules.events import Event
from fusegame.rules.state import GameState, IllegalAction, new_game
from fusegame.rules.views import die_view
from fusegame.scenario import dump_scenario
from fusegame.server import wire
from fusegame.server.actionlog import ActionLog
from fusegame.server.options import RoomOptions
from fusegame.server.planners import PlannerUnavailable, Question, advise, prepared_planner
from fusegame.server.storage import BOT, PERSON, PERSON_THEN_BOT

log = logging.getLogger("fusegame.server")

#: A spectator coming or going is told to the room's sockets at most this often (seconds).
SPECTATOR_NEWS_S = 1.0
#: What one room may cost. Its bots act at the pace it asks for (``bot_delay_ms``, 0 included) for
#: their first ``BOT_BURST`` actions, then all together no faster than one action every
#: ``BOT_FLOOR_S``: a room of bots at full speed that cannot win no longer holds a core for its
#: whole clock. A game takes at most ``MAX_ACTIONS`` actions (games at a person's pace take 150 to
#: 450): past it every move is refused and the clock ends the game; its rows, its replay and its
#: place in the replays' cache stay bounded.
BOT_BURST = 600
BOT_FLOOR_S = 0.1
MAX_ACTIONS = 5_000
#: The door's bounds (``fusegame.server.wire``).
MAX_MESSAGE = wire.MAX_MESSAGE
MAX_CHAT = wire.MAX_CHAT
MAX_NAME = wire.MAX_NAME
SIGNALS = wire.SIGNALS


class Timer(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """The clock and timers a room runs on (the asyncio event loop in the server)."""

    def now(self) -> float: ...

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer: ...


@runtime_checkable
class Thinker(Protocol):
    """A scheduler with a worker for the planner (the server's planner process): ``think`` has it
    work out the hints of the question's table away from the event loop, then runs ``then`` on the
    loop with them, or with the exception that stopped it. ``forget`` lets a match's table go there."""

    def think(self, question: Question, then: Callable[[list[Hint] | Exception], None]) -> None: ...

    def forget(self, key: str) -> None: ...


class Client(Protocol):
    """One open socket. ``send`` queues a text frame and never blocks."""

    seat: int | None

    def send(self, text: str) -> None: ...


@runtime_checkable
class ClosingClient(Client, Protocol):
    """A socket the server may close (a page's, here or relayed by another process)."""

    def close_soon(self, code: int) -> None: ...


class RoomHost(Protocol):
    """The server around a room (the lobby): it writes the room down as it changes, always before
    the frames that show the change go out, and decides when the room leaves memory."""

    def room_changed(self, room: Room) -> None:
        """The room's status or seats changed (``Seat.stored``)."""

    def action_recorded(self, room: Room, action: Action, seats: list[dict[str, Any]] | None) -> None:
        """``action`` was applied and added to the record (its index is ``len(actions) - 1``);
        ``seats`` are the seats when they changed with it (a bot took a turn for a person)."""

    def game_over(self, room: Room) -> None:
        """The game ended: store it in the BDT Log, then call ``room.stored`` with its id."""

    def room_idle(self, room: Room) -> None:
        """The room's last socket closed."""


def dumps(obj: Any) -> str:
    """Compact JSON, as ``json.dumps(obj, separators=(",", ":"), ensure_ascii=False)`` writes it
    (Pydantic's encoder, in Rust: a room encodes a state frame at every change, and the standard
    library's encoder took three times as long)."""
    try:
        return to_json(obj).decode()
    except PydanticSerializationError:
        # text the door should have refused (a lone surrogate): written as before, and the
        # socket's pump sends it repaired
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Seat:
    index: int
    kind: str = "open"  #: open, human or bot
    name: str = ""
    token: str = ""
    ready: bool = False
    connections: int = 0
    autoplay: bool = False  #: a bot plays this human's seat (they left, or asked for it)
    left_at: float = 0.0  #: scheduler time the last socket of this seat closed
    #: who has played the seat since the game started: PERSON, BOT or PERSON_THEN_BOT ("" before)
    played: str = ""

    def stored(self) -> dict[str, Any]:
        """What the database keeps of the seat (everything but its sockets)."""
        return {"kind": self.kind, "name": self.name, "token": self.token, "ready": self.ready,
                "autoplay": self.autoplay, "played": self.played}

    @classmethod
    def from_stored(cls, index: int, d: Mapping[str, Any]) -> Seat:
        return cls(index, kind=str(d["kind"]), name=str(d["name"]), token=str(d["token"]),
                   ready=bool(d["ready"]), autoplay=bool(d["autoplay"]), played=str(d["played"]))

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and self.autoplay)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.index, "name": self.name, "kind": self.kind, "ready": self.ready,
                "connected": self.connections > 0 or self.kind == "bot", "autoplay": self.autoplay}


class RoomError(ValueError):
    """A request that cannot be granted now. ``status`` is the HTTP status that fits it;
    ``reason`` says which refusal it is and ``params`` its facts (a seat, a name), so that a client
    can say it in its own words (docs/protocol.md)."""

    def __init__(self, message: str, status: int = 409, *, reason: str, **params: Any) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.params = params


def moves_of(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may do now, shaped for the client (see docs/protocol.md)."""
    return _moves(state.legal_actions(seat))


def moves_by_seat(state: GameState) -> dict[int, dict[str, Any]]:
    """``moves_of`` for every seat, from one listing of the legal actions."""
    by_seat: dict[int, list[Action]] = {s: [] for s in range(state.players)}
    for a in state.legal_actions():
        by_seat[a.seat].append(a)
    return {s: _moves(acts) for s, acts in by_seat.items()}


def move_entry(action: Action) -> dict[str, Any]:
    """One action a seat may take, as the client gets it: its verb and fields (``Action.to_data``
    without the seat and the time) beside ``action``, the text to send back. ``die``, ``card`` and
    ``value`` are always there (null when the verb has none); ``kind`` repeats the verb."""
    entry: dict[str, Any] = {"die": None, "card": None, "value": None}
    entry.update(action.to_data())
    del entry["seat"], entry["at"]
    entry["kind"] = action.verb
    entry["action"] = action.body()  # what the client sends back
    return entry


def _moves(legal: Iterable[Action]) -> dict[str, Any]:
    place: dict[tuple[int, str], dict[int, str]] = {}
    actions: list[dict[str, Any]] = []
    for a in legal:
        if isinstance(a, Place):
            place.setdefault((a.die, a.card), {})[a.slot] = a.body()
            continue
        actions.append(move_entry(a))
    return {"place": [{"die": d, "card": c, "slots": sorted(s), "actions": [s[x] for x in sorted(s)]}
                      for (d, c), s in place.items()],
            "actions": actions}


def public_view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """``observation`` without the legal actions (the one part that differs between seats), with
    ``seat`` as given: one view that every player and spectator of a table can share."""
    view = observation(state, 0, legal_actions=False)
    view["seat"] = seat
    del view["legal_actions"]
    return view


def event_dict(e: Event) -> dict[str, Any]:
    """An event as frames, replays and lessons send it: its kind and facts, no words (the page
    words them in its own language)."""
    return e.to_dict()


@dataclass
class Match:
    """A game in progress inside a room."""

    state: GameState
    config: GameConfig  #: what the record says the game was dealt from, with ``seed``
    seed: int
    log: ActionLog  #: the actions applied, stamped with their times
    start: float  #: scheduler time at 0 ms
    limit_timer: Timer | None = None
    bot_timers: dict[int, Timer] = field(default_factory=dict)
    choice_timers: dict[int, Timer] = field(default_factory=dict)
    choice_due: dict[int, float] = field(default_factory=dict)  #: seat -> scheduler time of the pick
    #: made when first asked, let go when the game ends or the room leaves the server (its memos
    #: are most of a room's memory); with a ``Thinker``, the worker holds it instead, by ``key``
    planner: TeamPlanner | None = None
    #: the match's name in the planner's worker
    key: str = field(default_factory=lambda: secrets.token_hex(8))
    #: the position the match began from, when it was not dealt from its config and seed (a
    #: scenario, as ``dump_scenario`` writes it): the worker's copy of the table starts there
    initial: dict[str, Any] | None = None
    bot_actions: int = 0  #: the bots' actions so far (``BOT_BURST``)
    next_bot_at: float = 0.0  #: past the burst, the scheduler time before which no bot acts

    def record(self) -> GameRecord:
        """The game's record so far (its outcome once it is over)."""
        return GameRecord(self.config, self.seed, self.log.actions(), self.state.outcome)

    def record_data(self) -> dict[str, Any]:
        """``record().to_dict()``, without reading the actions back."""
        return record_data(self.config, self.seed, self.log.texts(), self.state.outcome)


_NO_MOVES = '{"place":[],"actions":[]}'

class _Waiting:
    """A bot whose turn fell due before the planner had answered: it acts when the answer comes.
    It stands in ``Match.bot_timers`` as a timer would, and is cancelled as one."""

    def __init__(self, waiting: set[int], seat: int) -> None:
        self.waiting, self.seat = waiting, seat
        waiting.add(seat)

    def cancel(self) -> None:
        self.waiting.discard(self.seat)


@dataclass(frozen=True)
class _Frame:
    """The encoded parts of one change's state frame."""

    seq: int
    view: str
    events: str
    hints: str
    moves: dict[int, str]  #: by seat
    clock: str
    choices: str


class Room:
    """Seats, lobby and match of one game; see the module docstring for the pipeline."""

    def __init__(self, code: str, options: RoomOptions, scheduler: Scheduler, *,
                 host: RoomHost | None = None, seed: int | None = None) -> None:
        self.code = code
        self.options = options
        self.scheduler = scheduler
        self.seats = [Seat(i) for i in range(options.config.players)]
        self.status = "lobby"
        self.clients: list[Client] = []
        self.match: Match | None = None
        self.seq = 0
        self.log_id: int | None = None
        #: the BDT Log could not take the finished game yet: it is tried again (the end screen says so)
        self.log_waits = False
        self._spectator_news: Any = None  # the timer of the next frame that tells the spectators' count
        self.created = scheduler.now()
        self.finished_at: float | None = None
        if seed is None:
            seed = options.seed if options.seed is not None else secrets.randbits(48)
        self.seed = seed
        # the room's own randomness (bot pace jitter, timed-out choices) never touches the game's
        # generator; whatever it picks is recorded as an action, so replays stay exact
        self.rng = random.Random(self.seed ^ 0x5EED)
        self.host = host
        #: false for a match started from a given position (a scenario): its record would not
        #: replay it, so it is never written down
        self.durable = True
        #: the game time the clock is held at (server stopping, or back and waiting for players)
        self.held_ms: int | None = None
        #: another process holds the room now (``moved``): nothing more is shown from here
        self.gone = False
        self.closing = False  #: the server is stopping: the clock stays held until it is back
        self._hold_timer: Timer | None = None
        self._saved = self._snapshot()  # the host writes a new room whole
        self._frame: _Frame | None = None
        #: the planner's hints for state ``seq`` (an exception: it failed on that state)
        self._advice: tuple[int, list[Hint] | Exception] | None = None
        self._asking: int | None = None  # the ``seq`` the planner is working on, if any
        self._waiting: set[int] = set()  # bot seats waiting for the planner (``_Waiting``)
        self._hints_late: int | None = None  # the ``seq`` whose frames went out before its hints
        self._events: list[dict[str, Any]] = []

    # ================================================================== lobby
    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "url": f"/#/room/{self.code}", "status": self.status,
                "title": game_title(self.options.config), "options": self.options.to_dict(),
                "seats": [s.to_dict() for s in self.seats],
                "spectators": sum(1 for c in self.clients if c.seat is None), "log_id": self.log_id}

    def join(self, name: str, seat: int | None = None) -> Seat:
        """Give a person a seat (the first open one when ``seat`` is None)."""
        name = " ".join(str(name).split())
        if not name or len(name) > MAX_NAME:
            raise RoomError(f"a name is 1 to {MAX_NAME} characters", 422, reason="name", max=MAX_NAME)
        if self.status != "lobby":
            raise RoomError("the game has started: you may watch it", reason="started")
        if seat is None:
            open_ = [s for s in self.seats if s.kind == "open"]
            if not open_:
                raise RoomError("every seat is taken: you may watch the game", reason="full")
            chosen = open_[0]
        else:
            if not 0 <= seat < len(self.seats):
                raise RoomError(f"there is no seat {seat} (seats 0 to {len(self.seats) - 1})", 422,
                                reason="no_seat", seat=seat)
            chosen = self.seats[seat]
            if chosen.kind == "human":
                raise RoomError(f"seat {seat} is taken", reason="seat_taken", seat=seat)
        chosen.kind, chosen.name, chosen.ready = "human", name, False
        chosen.token = secrets.token_urlsafe(16)
        self._room_changed()
        return chosen

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        for s in self.seats:
            if s.kind == "human" and secrets.compare_digest(s.token, token):
                return s.index
        return None

    def _room_changed(self) -> None:
        self._save()
        if self._spectator_news is not None:  # this frame says the count as well
            self._spectator_news.cancel()
            self._spectator_news = None
        self.broadcast(dumps({"type": "room", "room": self.to_dict()}))

    def _spectators_changed(self) -> None:
        """A spectator came or went: the room's frame (its count of spectators) goes out once a
        second at most, not to every socket at every join (800 spectators joining one by one were
        321,200 frames)."""
        if self._spectator_news is None:
            self._spectator_news = self.scheduler.call_later(SPECTATOR_NEWS_S, self._room_changed)

    def _snapshot(self) -> tuple[str, list[dict[str, Any]]]:
        return self.status, [s.stored() for s in self.seats]

    def _save(self) -> None:
        """Have the host write the room's status and seats down when they changed since it last did.
        A finished room is not written again: its game goes to the log and its row away."""
        if self.host is None or self.status == "over":
            return
        snapshot = self._snapshot()
        if snapshot != self._saved:
            self._saved = snapshot
            self.host.room_changed(self)

    # ================================================================== sockets
    def connect(self, client: Client) -> None:
        """A socket opened: greet it, give it the room and, in play, the current state. A room
        another process holds now greets nobody: a socket that found it here just before it moved
        closes with ``CLOSE_MOVED``, and its page finds the room where it is held."""
        if self.gone:
            self._send_away(client)
            return
        self.clients.append(client)
        seat = self.seats[client.seat] if client.seat is not None else None
        if seat is not None:
            seat.connections += 1
            seat.autoplay = False  # a returning player takes their seat back from the bot
        client.send(dumps({"type": "welcome", "seat": client.seat, "name": seat.name if seat else None,
                           "room": self.to_dict()}))
        if seat is not None:
            self._room_changed()
        else:
            self._spectators_changed()
        if self.match is not None:
            # the first player back after a restart starts the clock again: everyone's frame says so
            back = seat is not None and seat.kind == "human" and not self.closing and self.release()
            if not back:
                client.send(self._state_frame(client.seat, current_only=True))
            if self.match.state.outcome is not None:
                client.send(self._over_frame())
            else:
                self._schedule()

    def disconnect(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)
            if client.seat is not None:
                seat = self.seats[client.seat]
                seat.connections -= 1
                if seat.connections == 0 and self.status == "playing":
                    seat.left_at = self.scheduler.now()
                    self.scheduler.call_later(self.options.leave_grace_s, partial(self._gone, seat.index))
                self._room_changed()
            else:
                self._spectators_changed()
            if not self.clients and self.host is not None:
                self.host.room_idle(self)

    def _gone(self, index: int) -> None:
        seat = self.seats[index]
        # an earlier absence's timer does not count if the player came back and left again since
        away = self.scheduler.now() - seat.left_at >= self.options.leave_grace_s * 0.99
        if self.status == "playing" and seat.kind == "human" and seat.connections == 0 and away \
                and not seat.autoplay:
            seat.autoplay = True
            self._room_changed()
            self._schedule()

    def broadcast(self, text: str) -> None:
        if self.gone:
            return
        for c in list(self.clients):
            c.send(text)

    @staticmethod
    def error(client: Client, code: str, message: str, reason: str | None = None,
              params: dict[str, Any] | None = None) -> None:
        client.send(dumps({"type": "error", "code": code, "message": message, "reason": reason,
                           "params": params or {}}))

    # ================================================================== the pipeline
    def handle(self, client: Client, text: str) -> None:
        """One message from one socket, handled to the end without yielding."""
        try:
            msg = wire.parse_message(text)
        except wire.WireError as e:
            self.error(client, e.code, str(e))
            return
        self.handle_message(client, msg)

    def handle_message(self, client: Client, msg: wire.Message) -> None:
        """One message already read by the door (``fusegame.server.wire``): its fields are checked,
        its text clean. A room another process holds now takes nothing more from any socket
        (frames already on their way when it moved): the socket is told to reconnect."""
        if self.gone:
            self._send_away(client)
            return
        if msg.type == "ping":
            client.send('{"type":"pong"}')
            return
        seat = client.seat
        if seat is None:
            self.error(client, "not_seated", "spectators can only watch: join a seat to play", "not_seated")
            return
        try:
            match msg:
                case wire.Ready():
                    self._on_ready(seat, msg)
                case wire.FillBots():
                    self._on_fill_bots(seat, msg)
                case wire.Bot():
                    self._on_bot(seat, msg)
                case wire.Chat():
                    self._on_chat(seat, msg)
                case wire.Signal():
                    self._on_signal(seat, msg)
                case wire.Act():
                    self._on_act(seat, msg)
        except RoomError as e:
            self.error(client, "not_now", str(e), e.reason, e.params)
        except IllegalAction as e:
            self.error(client, "illegal", str(e), e.code, e.facts)
        except _BadMessage as e:
            self.error(client, "bad_message", str(e))
        except Exception:  # a bug must cost one message, never the room or the socket
            log.exception("room %s: message %r failed", self.code, msg)
            self.error(client, "internal", "the server could not handle that message; the game goes on")

    def _on_ready(self, seat: int, msg: wire.Ready) -> None:
        if self.status != "lobby":
            raise RoomError("the game has already started", reason="started")
        self.seats[seat].ready = msg.ready
        self._room_changed()
        self._maybe_start()

    def _on_fill_bots(self, seat: int, msg: wire.FillBots) -> None:
        if self.status != "lobby":
            raise RoomError("the game has already started", reason="started")
        for s in self.seats:
            if s.kind == "open":
                s.kind, s.name = "bot", f"Bot {s.index + 1}"
        self._room_changed()
        self._maybe_start()

    def _on_bot(self, seat: int, msg: wire.Bot) -> None:
        target, on = msg.seat, msg.on
        if target >= len(self.seats):
            raise _BadMessage(f"no seat {target}")
        s = self.seats[target]
        if self.status == "lobby":
            if on and (s.kind == "open" or (s.kind == "human" and s.connections == 0 and target != seat)):
                # a person who left the lobby can be replaced, or the game could never start
                s.kind, s.name, s.token, s.ready = "bot", f"Bot {s.index + 1}", "", False
            elif not on and s.kind == "bot":
                s.kind, s.name = "open", ""
            else:
                raise RoomError(f"seat {target} is {'taken' if on else 'not a bot'}",
                                reason="seat_taken" if on else "not_a_bot", seat=target)
            self._room_changed()
            self._maybe_start()
            return
        if self.status != "playing":
            raise RoomError("the game is over", reason="over")
        if s.kind != "human":
            raise RoomError(f"seat {target} is already a bot", reason="already_bot", seat=target)
        if target != seat and (not on or s.connections > 0):
            raise RoomError(f"{s.name} is still here: only they can hand their seat to a bot",
                            reason="still_here", seat=target, name=s.name)
        s.autoplay = on
        self._room_changed()
        self._schedule()

    def _on_chat(self, seat: int, msg: wire.Chat) -> None:
        self.broadcast(dumps({"type": "chat", "seat": seat, "name": self.seats[seat].name,
                              "text": msg.text}))

    def _on_signal(self, seat: int, msg: wire.Signal) -> None:
        self.broadcast(dumps({"type": "signal", "seat": seat, "name": self.seats[seat].name,
                              "signal": msg.signal, "die": msg.die}))

    def _on_act(self, seat: int, msg: wire.Act) -> None:
        if self.match is None or self.status != "playing":
            if self.status == "lobby":
                raise RoomError("the game is not being played", reason="not_playing")
            raise RoomError("the game is over", reason="over")
        try:
            action = Action.parse(f"p{seat} {msg.action}")
        except ActionParseError as e:
            raise _BadMessage(str(e).replace(f"p{seat} ", "")) from None
        if self.seats[seat].autoplay:
            self.seats[seat].autoplay = False  # acting again takes the seat back from the bot
            self._room_changed()
        self.apply(action)

    # ================================================================== the match
    def _maybe_start(self) -> None:
        filled = all(s.kind != "open" for s in self.seats)
        humans = [s for s in self.seats if s.kind == "human"]
        # a stopping server starts no game: it would start after the clocks were written down
        if self.status == "lobby" and filled and humans and all(s.ready for s in humans) and not self.closing:
            self.start()

    def start(self, state: GameState | None = None) -> None:
        """Deal and make the first roll; the clock starts now (docs/rules.md I-05). ``state`` starts the
        match from another position instead (a scenario, for tests); its time is the clock's 0."""
        initial = None
        if state is None:
            state = new_game(self.options.config, self.seed)
        else:
            self.durable = False
            if isinstance(self.scheduler, Thinker):  # the worker's copy of the table starts there
                initial = dump_scenario(state)
        start = self.scheduler.now() - state.time_ms / 1000
        self.match = Match(state, state.config, self.seed, ActionLog(), start, initial=initial)
        self.status = "playing"
        for s in self.seats:
            s.played = {"human": PERSON, "bot": BOT}.get(s.kind, "")
        limit = state.config.time_limit
        if limit is not None:
            self.match.limit_timer = self.scheduler.call_later(limit - state.time_ms / 1000, self._time_up)
        self._room_changed()
        # the deal's first roll, told as the roll it is; a game that opens before its first roll
        # (Countdown's leader rolls by hand) has no dice yet, and so no such line
        dice = [die_view(state, d) for d in state.rolled]
        first = [Event("dice_rolled", {"leader": state.leader, "dice": dice})] if dice else []
        self._changed(first)

    @property
    def stuck(self) -> bool:
        """An untimed game that has made ``MAX_ACTIONS`` moves: it takes no more, and no clock ends it."""
        m = self.match
        return (self.status == "playing" and m is not None and m.state.config.time_limit is None
                and len(m.log) >= MAX_ACTIONS)

    def now_ms(self) -> int:
        assert self.match is not None
        if self.held_ms is not None:
            return self.held_ms
        # rounded: a clock released at a whole millisecond reads that millisecond again
        return max(0, round((self.scheduler.now() - self.match.start) * 1000))

    def apply(self, action: Action) -> list[Event]:
        """Stamp ``action`` with the server clock, apply it (the engine validates), record it and
        send everyone the new state. Raises ``IllegalAction`` and changes nothing when refused."""
        m = self.match
        assert m is not None
        state = m.state
        if len(m.log) >= MAX_ACTIONS and not isinstance(action, Tick):
            raise IllegalAction("too_many_moves", {"n": MAX_ACTIONS})
        stamped = with_time(action, max(self.now_ms(), state.time_ms))
        events = state.apply(stamped)
        m.log.append(stamped)
        if self.host is not None and self.durable:
            snapshot = self._snapshot()
            changed = snapshot != self._saved
            self._saved = snapshot
            self.host.action_recorded(self, stamped, snapshot[1] if changed else None)
            if self.gone:  # the write was refused: the move stands only where it was written
                return events
        self._changed(events)
        return events

    def _time_up(self) -> None:
        m = self.match
        if m is None or m.state.outcome is not None:
            return
        limit = m.state.config.time_limit
        assert limit is not None
        self.apply(Tick(-1, max(limit * 1000, m.state.time_ms)))

    def _changed(self, events: list[Event]) -> None:
        m = self.match
        assert m is not None
        self.seq += 1
        self._events = [event_dict(e) for e in events]
        self._frame = None
        if m.state.outcome is None:
            self._schedule()  # first: the frames carry the penalty choices' deadlines
        for c in list(self.clients):
            c.send(self._state_frame(c.seat))
        if m.state.outcome is not None:
            self._finish()

    def _clock(self) -> dict[str, Any]:
        m = self.match
        assert m is not None
        limit = m.state.config.time_limit
        st = m.state
        if limit is None:
            return {"left_ms": None, "running": False}
        stop = st.step3.clock_stop if st.step3 is not None else None
        stopped = st.outcome is not None or stop is not None
        used = stop if stop is not None else st.time_ms if stopped else self.now_ms()
        if st.outcome is not None:
            left = st.outcome.time_left_ms or 0
        else:
            left = max(0, limit * 1000 - used)
        return {"left_ms": left, "running": not stopped and self.held_ms is None}

    def _state_frame(self, seat: int | None, current_only: bool = False) -> str:
        """The state frame for a socket of ``seat``: everything but the moves is encoded once per
        change and shared by every socket."""
        m = self.match
        assert m is not None
        if self._frame is None or self._frame.seq != self.seq:
            view = public_view(m.state)
            moves = moves_by_seat(m.state) if m.state.outcome is None else {}
            self._frame = _Frame(self.seq, dumps(view), dumps(self._events), dumps(self._frame_hints()),
                                 {s: dumps(mv) for s, mv in moves.items()}, dumps(self._clock()),
                                 dumps(self._choices()))
        f = self._frame
        events = "[]" if current_only else f.events
        clock = f.clock if not current_only else dumps(self._clock())
        choices = f.choices if not current_only else dumps(self._choices())
        moves_s = f.moves.get(seat, _NO_MOVES) if seat is not None else _NO_MOVES
        return (f'{{"type":"state","seq":{self.seq},"seat":{dumps(seat)},"clock":{clock},'
                f'"moves":{moves_s},"choices":{choices},"hints":{f.hints},"events":{events},'
                f'"view":{f.view}}}')

    def _frame_hints(self) -> list[dict[str, Any]] | None:
        """The hints a state frame carries: None in a room without them (or after the game), the
        planner's hints once it has them, ``[]`` until then (a frame with them follows)."""
        m = self.match
        assert m is not None
        if not self.options.hints or m.state.outcome is not None:
            return None
        advice = self._advice_now()
        if advice is None:
            self._hints_late = self.seq
            return []
        return [h.to_dict() for h in advice] if isinstance(advice, list) else []

    def _choices(self) -> dict[str, int]:
        """Milliseconds left, by seat, before an open penalty choice is made at random (I-11)."""
        m = self.match
        assert m is not None
        now = self.scheduler.now()
        return {str(s): max(0, round((due - now) * 1000)) for s, due in sorted(m.choice_due.items())}

    def _over_frame(self) -> str:
        m = self.match
        assert m is not None and m.state.outcome is not None
        return dumps({"type": "over", "outcome": m.state.outcome.to_dict(), "log_id": self.log_id,
                      "log_waits": self.log_waits})

    def _finish(self) -> None:
        m = self.match
        assert m is not None and m.state.outcome is not None
        self.status = "over"
        self.finished_at = self.scheduler.now()
        for t in [m.limit_timer, *m.bot_timers.values(), *m.choice_timers.values()]:
            if t is not None:
                t.cancel()
        m.bot_timers.clear()
        m.choice_timers.clear()
        m.choice_due.clear()
        self.drop_planner()
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        if self.host is not None:
            self.host.game_over(self)  # stores the game; calls ``stored`` with its log id
        else:
            self.stored(None)

    def stored(self, log_id: int | None) -> None:
        """The finished game is in the BDT Log (``log_id``; None when it could not be stored)."""
        self.log_id = log_id
        self.log_waits = False
        self.broadcast(self._over_frame())
        self._room_changed()

    def log_waiting(self, waiting: bool) -> None:
        """The BDT Log's database is away: the game is kept and tried again (the page says so)."""
        if self.log_waits != waiting:
            self.log_waits = waiting
            self.broadcast(self._over_frame())

    # ================================================================== stopping and coming back
    def hold(self) -> None:
        """Stop the match's clock where it is, with every timer of the match (bots, the time limit,
        the penalty choices): nothing happens at the table until ``release``."""
        m = self.match
        if m is None or self.status != "playing" or self.held_ms is not None:
            return
        self.held_ms = self.now_ms()
        for t in [m.limit_timer, *m.bot_timers.values(), *m.choice_timers.values()]:
            if t is not None:
                t.cancel()
        m.limit_timer = None
        m.bot_timers.clear()
        m.choice_timers.clear()
        m.choice_due.clear()

    def release(self) -> bool:
        """Start the held clock again from where it stopped, with the bots and timeouts, and send
        every socket the state with its clock running. False when the clock was not held."""
        m = self.match
        if m is None or self.held_ms is None:
            return False
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        held, self.held_ms = self.held_ms, None
        m.start = self.scheduler.now() - held / 1000
        limit = m.state.config.time_limit
        if limit is not None and m.state.outcome is None:
            m.limit_timer = self.scheduler.call_later(limit - held / 1000, self._time_up)
        self._schedule()
        for c in list(self.clients):
            c.send(self._state_frame(c.seat, current_only=True))
        return True

    def drop_planner(self) -> None:
        """Let the planner and its memos go (the game ended, or the room leaves this server); an
        answer still on its way is not taken."""
        if self.match is not None:
            self.match.planner = None
            if isinstance(self.scheduler, Thinker):
                self.scheduler.forget(self.match.key)
        self._advice = None
        self._hints_late = None

    def moved(self) -> None:
        """Another process holds the room now: stop its clock and timers here, show nothing more,
        and close every socket with ``CLOSE_MOVED`` so that its page reconnects and finds the
        room where it is held."""
        self.gone = self.closing = True
        self.hold()
        self.drop_planner()
        for c in list(self.clients):
            self._send_away(c)

    @staticmethod
    def _send_away(client: Client) -> None:
        """Close ``client``'s socket with ``CLOSE_MOVED``: its page reconnects and finds the room
        where it is held now."""
        if isinstance(client, ClosingClient):
            client.close_soon(wire.CLOSE_MOVED)

    def suspend(self) -> None:
        """The server is stopping: hold the clock and tell every page that the server will be back
        (the page keeps its seat and reconnects by itself)."""
        self.closing = True
        self.hold()
        self.broadcast('{"type":"restarting"}')

    def _waited(self) -> None:
        self._hold_timer = None
        self.release()  # nobody came back in time: the game goes on, bots in the empty seats

    @classmethod
    def restore(cls, code: str, options: RoomOptions, scheduler: Scheduler, *, host: RoomHost | None,
                seed: int, status: str, seats: Sequence[Mapping[str, Any]], actions: Sequence[Action],
                clock_ms: int | None) -> Room:
        """A room again as it was written down: the same seats and tokens and, in play, the same
        table (its actions replayed by the engine, which checks each one), at the same ``seq``.
        The clock is held at the game time it had reached (``clock_ms`` if the server stopped
        cleanly, else the time of the last action) until a seated person is back, or until
        ``leave_grace_s`` has passed (when bots take the seats of those still away). A game that
        had ended but was not yet in the log goes there now. Raises ``IllegalAction`` or
        ``ValueError`` when what was kept does not make a room."""
        if len(seats) != options.config.players:
            raise ValueError(f"room {code}: {len(seats)} seats kept for {options.config.players} players")
        room = cls(code, options, scheduler, host=host, seed=seed)
        room.seats = [Seat.from_stored(i, d) for i, d in enumerate(seats)]
        if status == "lobby":
            room._saved = room._snapshot()
            return room
        if status != "playing":
            raise ValueError(f"room {code}: unknown status {status!r}")
        state = new_game(options.config, seed)
        for action in actions:
            state.apply(action)
        now = scheduler.now()
        room.match = Match(state, options.config, seed, ActionLog(actions), now - state.time_ms / 1000)
        room.status = "playing"
        room.seq = 1 + len(actions)  # a page keeps its log of events by seq: it goes on from there
        room._saved = room._snapshot()
        if state.outcome is not None:
            room._finish()
            return room
        room.held_ms = max(state.time_ms, clock_ms or 0)
        for s in room.seats:
            if s.kind == "human":
                s.left_at = now
                scheduler.call_later(options.leave_grace_s, partial(room._gone, s.index))
        if any(s.kind == "human" and not s.autoplay for s in room.seats):
            room._hold_timer = scheduler.call_later(options.leave_grace_s, room._waited)
        else:
            room.release()  # nobody to wait for: the bots play on
        return room

    # ================================================================== bots and timeouts
    def _schedule(self) -> None:
        """Start a timer for every bot seat that has a decision, and for every person's penalty
        choice (I-11), unless one is already running; cancel those whose decision went away."""
        m = self.match
        if m is None or m.state.outcome is not None or self.held_ms is not None:
            return
        if len(m.log) >= MAX_ACTIONS:  # nothing more to decide: the clock ends it
            for t in [*m.bot_timers.values(), *m.choice_timers.values()]:
                t.cancel()
            m.bot_timers.clear()
            m.choice_timers.clear()
            m.choice_due.clear()
            if self.stuck and not self.clients and self.host is not None:
                self.host.room_idle(self)  # the bots played it there with nobody watching
            return
        decisions = m.state.to_act()
        for seat, timer in list(m.bot_timers.items()):
            if seat not in decisions or not self.seats[seat].bot_plays:
                timer.cancel()
                del m.bot_timers[seat]
        for seat, timer in list(m.choice_timers.items()):
            if seat not in decisions or not KINDS[decisions[seat].kind].timed or self.seats[seat].bot_plays:
                timer.cancel()
                del m.choice_timers[seat]
                m.choice_due.pop(seat, None)
        for seat, dec in decisions.items():
            if self.seats[seat].bot_plays:
                if seat not in m.bot_timers:
                    delay = self.options.bot_delay_ms / 1000 * self.rng.uniform(0.75, 1.25)
                    if m.bot_actions >= BOT_BURST:
                        now = self.scheduler.now()
                        delay = max(delay, m.next_bot_at - now)
                        m.next_bot_at = now + delay + BOT_FLOOR_S
                    m.bot_timers[seat] = self.scheduler.call_later(delay, partial(self._bot_act, seat))
            elif KINDS[dec.kind].alone and len(dec.options) == 1 and seat not in m.choice_timers:
                # one eligible die: nothing to choose (I-11), but let the frame show it first
                m.choice_timers[seat] = self.scheduler.call_later(0.0, partial(self._timed_out, seat))
            elif KINDS[dec.kind].timed and seat not in m.choice_timers:
                m.choice_timers[seat] = self.scheduler.call_later(
                    self.options.choice_timeout_s, partial(self._timed_out, seat))
                m.choice_due[seat] = self.scheduler.now() + self.options.choice_timeout_s

    def _bot_act(self, seat: int) -> None:
        m = self.match
        if m is None or m.state.outcome is not None:
            return
        m.bot_timers.pop(seat, None)
        self._waiting.discard(seat)
        dec = m.state.to_act().get(seat)
        if dec is None or not self.seats[seat].bot_plays:
            return
        advice = self._advice_now()
        if advice is None:  # the planner is thinking: the bot acts when it answers (``_answered``)
            m.bot_timers[seat] = _Waiting(self._waiting, seat)
            return
        s = self.seats[seat]
        if s.kind == "human" and s.played == PERSON:
            s.played = PERSON_THEN_BOT  # written down with the action, before anyone sees it
        m.bot_actions += 1
        if isinstance(advice, PlannerUnavailable):  # no planner for a moment: any legal move
            self._any_legal_move(m, seat)
            return
        try:
            if isinstance(advice, Exception):
                raise RuntimeError("the planner failed on this position") from advice
            action = self._bot_choice(seat, advice)
            self.apply(action)
        except Exception:  # a planner failure must not stall the table: play any legal move
            log.exception("room %s: the bot in seat %d failed; it plays a legal move instead",
                          self.code, seat)
            self._any_legal_move(m, seat)

    def _any_legal_move(self, m: Match, seat: int) -> None:
        """The bot in ``seat`` plays the first legal move, where it still has one to make (the
        planner could not say which)."""
        if m.state.outcome is None and seat in m.state.to_act():
            self.apply(m.state.legal_actions(seat)[0])

    def _advice_now(self) -> list[Hint] | Exception | None:
        """The planner's advice for every seat in the current state (an exception if it failed),
        worked out once per change whether the page shows it (hints on) or a bot follows it; None
        while the planner is still working it out (it has been asked)."""
        if self._advice is None or self._advice[0] != self.seq:
            self._ask()
        if self._advice is not None and self._advice[0] == self.seq:
            return self._advice[1]
        return None

    def _ask(self) -> None:
        """Have the planner work out its advice for the current state: the scheduler's worker when
        it has one (``Thinker``), else the match's own planner at once, on a copy of the state. One
        question at a time: an answer that comes back for a state gone by asks again
        (``_answered``)."""
        m = self.match
        assert m is not None
        if self._asking is not None:
            return
        seq = self._asking = self.seq
        scheduler = self.scheduler
        if isinstance(scheduler, Thinker):
            question = Question(m.key, m.config, m.seed, m.initial, m.log, len(m.log),
                                words=self.options.hints)
            try:
                scheduler.think(question, lambda advice: self._answered(m, seq, advice))
            except Exception as e:  # a worker that cannot take it (the server stopping): as a failure
                self._answered(m, seq, e, at_once=True)
            return
        answer: list[Hint] | Exception
        try:
            if m.planner is None:
                m.planner = prepared_planner(m.state)
            answer, outgrown = advise(m.state.clone(), m.planner)
            if outgrown:
                m.planner = None  # the next question starts a new one: memory stays bounded
        except Exception as e:
            answer = e
        self._answered(m, seq, answer, at_once=True)

    def _answered(self, m: Match, seq: int, advice: list[Hint] | Exception, at_once: bool = False) -> None:
        """The planner's answer for state ``seq``, back on the loop: kept only if the table is
        still there; then the frames sent without their hints get them, and the bots waiting act."""
        if self._asking == seq:
            self._asking = None
        if self.match is not m or m.state.outcome is not None or self.gone:
            return  # the game ended or left this process meanwhile
        if isinstance(advice, PlannerUnavailable):  # (the planner's process has said so, once)
            log.debug("room %s: %s", self.code, advice)
        elif isinstance(advice, Exception):
            log.error("room %s: the planner failed", self.code, exc_info=advice)
        if seq != self.seq:  # the table moved on while the planner thought: ask about it now
            if (self._waiting or self._hints_late == self.seq) and not self.closing:
                self._ask()
            return
        self._advice = (seq, advice)
        if at_once:
            return  # asked in the middle of a change or a bot's turn, which goes on with it
        if self._hints_late == seq and not self.closing:  # (a stopping server has said so last)
            self._hints_late = None
            self._frame = None
            for c in list(self.clients):
                c.send(self._state_frame(c.seat, current_only=True))
        for seat in sorted(self._waiting):
            if seat in self._waiting and self.match is m and self.seq == seq:
                self._bot_act(seat)
        if self._waiting and self.match is m and self.seq != seq:
            self._advice_now()  # a bot acted: the others wait for advice on the new state

    def _bot_choice(self, seat: int, advice: list[Hint]) -> Action:
        m = self.match
        assert m is not None
        state = m.state
        for h in advice:
            if h.seat == seat and h.action is not None:
                return h.action
        legal = list(state.legal_actions(seat))
        for a in legal:
            if isinstance(a, Done):
                return a
        return legal[0]

    def _timed_out(self, seat: int) -> None:
        m = self.match
        if m is None or m.state.outcome is not None:
            return
        m.choice_timers.pop(seat, None)
        m.choice_due.pop(seat, None)
        dec = m.state.to_act().get(seat)
        kind = KINDS[dec.kind] if dec is not None else None
        if kind is None or not kind.timed:
            return
        # the kind's default: one of its legal actions at random (a penalty reroll, not a free return)
        legal = [a for a in m.state.legal_actions(seat) if a.verb in kind.default]
        if legal:
            self.apply(legal[self.rng.randrange(len(legal))])


class _BadMessage(ValueError):
    pass
