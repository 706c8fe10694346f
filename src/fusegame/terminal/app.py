"""The terminal table: a Textual app that shows the frames of one room and sends the player's moves.

The app reads frames and sends messages through a link (``LocalLink``: an in-process room;
``RemoteLink``: a room of ``fuse serve``); it never looks at the engine, so a local game and a seat
at a server play the same. Keyboard first (see ``texts`` "help"): digits pick a die, arrows move
between the slots it may go to, Enter places; every die, slot and choice is also clickable.

From 120 columns up the team and the ship's log get a column of their own and the row and the
teammates' cards are drawn in full; below that everything is stacked, so 80×24 still shows the
clock, the roll and your cards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

from fusegame.terminal import render
from fusegame.terminal.table import Table
from fusegame.terminal.texts import Words

#: From this many columns the team and the log get a column of their own.
WIDE = 120


class Link(Protocol):
    """Where the frames come from and the messages go (a local room or a server's socket)."""

    seat: int | None

    async def start(self, deliver: Callable[[str], None]) -> None:
        """Take the seat; from now on every frame goes to ``deliver``."""

    def message(self, text: str) -> None:
        """Send one message (JSON text, as the browser sends it)."""

    async def close(self) -> None:
        """Leave the table."""


class HelpScreen(ModalScreen[None]):
    """The keys."""

    BINDINGS: ClassVar[list[BindingType]] = [("escape", "dismiss", ""), ("question_mark", "dismiss", ""),
                                             ("q", "dismiss", ""), ("enter", "dismiss", "")]

    def __init__(self, words: Words) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        w = self.words
        yield Static(f"[bold]{w('keys.title')}[/]\n\n{escape(w('help'))}", id="dialog")

    def on_click(self) -> None:
        self.dismiss()


class QuitScreen(ModalScreen[bool]):
    """Leave a game that is not over? y/n."""

    BINDINGS: ClassVar[list[BindingType]] = [("y", "answer(True)", ""), ("s", "answer(True)", ""),
                                             ("n", "answer(False)", ""), ("escape", "answer(False)", ""),
                                             ("q", "answer(True)", "")]

    def __init__(self, words: Words) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        w = self.words
        yield Static(f"[bold]{escape(w('quit.ask'))}[/]\n\n"
                     f"[@click=screen.answer(True)][reverse] {escape(w('yes'))} [/][/]   "
                     f"[@click=screen.answer(False)][reverse] {escape(w('no'))} [/][/]", id="dialog")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class EndScreen(ModalScreen[None]):
    """The end of the game: won or lost, the score as the rulebook counts it, where it is kept."""

    BINDINGS: ClassVar[list[BindingType]] = [("escape", "dismiss", ""), ("q", "app.quit_now", "")]

    def __init__(self, table: Table, words: Words) -> None:
        super().__init__()
        self.table = table
        self.words = words

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="dialog")

    def _text(self) -> str:
        return render.end_text(self.table, self.words) + f"\n\n[dim]{escape(self.words('end.keys'))}[/]"

    def refresh_text(self) -> None:
        self.query_one("#dialog", Static).update(self._text())


class FuseApp(App[None]):
    """One seat at one table (see the module docstring)."""

    TITLE = "FUSE"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
    CSS = """
    Screen { layout: vertical; background: #101418; }
    Static { link-style: none; link-background: initial; link-style-hover: bold;
             link-background-hover: #2a3542; }
    #top { height: 1; background: #1c2530; }
    #notice { height: auto; max-height: 2; }
    #hint { height: auto; max-height: 5; }  /* a reason may name two cards: four lines at 80 columns */
    #body { height: 1fr; }
    #left { width: 1fr; }
    #right { width: 1fr; display: none; border-left: solid #334; padding-left: 1; }
    Screen.-wide #right { display: block; }
    Screen.-wide #left { width: 3fr; }
    Screen.-wide #right { width: 2fr; }
    Screen.-wide #team-left, Screen.-wide #log-left { display: none; }
    #roll, #mine, #row, #choices, #fuses { height: auto; margin-bottom: 0; }
    Screen.-wide #roll, Screen.-wide #mine, Screen.-wide #row { margin-bottom: 1; }
    #team-left, #team-right { height: auto; }
    #log-left, #log-right { height: 1fr; min-height: 3; }
    #lobby { height: 1fr; display: none; padding: 1 2; }
    #keys { height: 1; background: #1c2530; color: #aab; }
    ModalScreen { align: center middle; background: rgba(16, 20, 24, 0.55); }
    #dialog { width: auto; max-width: 90%; height: auto; padding: 1 3; background: #1c2530;
              border: thick #f1c40f; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
        Binding("left,up", "move(-1)", show=False), Binding("right,down", "move(1)", show=False),
        Binding("tab", "next_choice", show=False, priority=True), Binding("enter", "confirm", show=False),
        Binding("escape", "clear", show=False), Binding("d", "done", show=False),
        Binding("h", "hint", show=False), Binding("question_mark", "help", show=False),
        Binding("q", "quit_asking", show=False), Binding("r", "ready", show=False),
        Binding("b", "fill_bots", show=False),
    ]

    def __init__(self, link: Link, lang: str = "en") -> None:
        super().__init__()
        self.link = link
        self.words = Words(lang)
        self.table = Table()
        self.frames = 0  #: frames received (tests wait on it)
        self._end: EndScreen | None = None
        #: the parts of the table screen by id, kept so that drawing never has to find them
        self.parts: dict[str, Static] = {}
        self._width = 80
        self._ended = False

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        def part(name: str, text: str = "") -> Static:
            self.parts[name] = Static(text, id=name)
            return self.parts[name]

        yield part("top")
        yield part("notice")
        yield part("lobby")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                for name in ("roll", "mine", "row", "fuses", "choices", "hint", "team-left"):
                    yield part(name)
                with VerticalScroll(id="log-left"):
                    yield part("log-left-text")
            with Vertical(id="right"):
                yield part("team-right")
                with VerticalScroll(id="log-right"):
                    yield part("log-right-text")
        yield part("keys", self.words("keys"))

    async def on_mount(self) -> None:
        self._width = self.size.width
        self.set_interval(0.25, self._tick)
        if hasattr(self.link, "on_close"):
            self.link.on_close = self._lost
        await self.link.start(self.deliver)

    async def on_unmount(self) -> None:
        await self.link.close()

    @property
    def wide(self) -> bool:
        return self._width >= WIDE

    def on_resize(self, event: events.Resize) -> None:
        self._width = event.size.width
        self.show()

    # ------------------------------------------------------------------ frames
    def deliver(self, text: str) -> None:
        """A frame from the room."""
        try:
            frame = json.loads(text)
        except ValueError:
            return
        self.table.feed(frame)
        self.frames += 1
        if not self.is_running:
            return
        self.show()
        if self.table.outcome is not None and not self._ended:
            self._ended = True
            self.table.clear()
            self._end = EndScreen(self.table, self.words)
            self.push_screen(self._end)
        elif self._end is not None and self._end.is_attached:
            self._end.refresh_text()

    def _lost(self, why: str) -> None:
        if self.table.outcome is None or not self.table.stored:
            self.table.error = self.words("lost_conn", why=why)
            if self.is_running:
                self.show()

    def _tick(self) -> None:
        if self.table.view is not None and self.parts:
            self.parts["top"].update(render.top_line(self.table, self.words))
            if self.table.choices:
                self.parts["notice"].update(render.notice_line(self.table, self.words))

    def show(self) -> None:
        """Draw everything from the table."""
        t, w, p = self.table, self.words, self.parts
        if not p:  # not composed yet: the first draw comes with mount
            return
        in_lobby = t.view is None
        p["lobby"].display = in_lobby
        body = p["roll"].parent.parent if p["roll"].parent is not None else None
        if body is not None:
            body.display = not in_lobby
        if in_lobby:
            p["top"].update(f"[bold]{escape(str((t.room or {}).get('title') or 'FUSE'))}[/]")
            p["lobby"].update(render.lobby_text(t, w) if t.room else "")
            p["notice"].update(render.notice_line(t, w) if t.error else "")
            p["keys"].update(w("keys.lobby"))
            return
        wide = self.wide
        p["keys"].update(w("keys"))
        p["top"].update(render.top_line(t, w))
        p["notice"].update(render.notice_line(t, w))
        p["roll"].update(render.roll_line(t, w))
        p["mine"].update(render.mine_block(t, w, wide=wide))
        p["row"].update(render.row_block(t, w, wide=wide))
        for name, text in (("fuses", render.fuses_line(t, w)), ("choices", render.choices_line(t, w)),
                           ("hint", render.hint_line(t, w))):
            p[name].update(text)
            p[name].display = bool(text)
        team = render.team_block(t, w, wide=wide)
        p["team-left"].update(team)
        p["team-right"].update(team)
        text = f"[bold]{escape(w('log'))}[/]\n" + "\n".join(render.log_lines(t, w))
        for box in ("log-left", "log-right"):
            p[f"{box}-text"].update(text)
            scroll = p[f"{box}-text"].parent
            if isinstance(scroll, VerticalScroll):
                scroll.scroll_end(animate=False)

    # ------------------------------------------------------------------ sending
    def send(self, msg: dict[str, Any]) -> None:
        self.link.message(json.dumps(msg))

    def act(self, action: str) -> None:
        self.table.hint = None
        self.send({"type": "act", "action": action})

    # ------------------------------------------------------------------ keys and clicks
    def _note(self, key: str | None, **params: Any) -> None:
        self.table.error = None if key is None else self.words(key, **params)
        self.show()

    def action_pick(self, n: int) -> None:
        if not self.table.playing:
            return
        why = self.table.pick(n)
        self._note(why, n=n)

    def action_die(self, die: int) -> None:
        if not self.table.playing:
            return
        why = self.table.pick_id(die)
        self._note(why, n=next((i + 1 for i, d in enumerate(self.table.rolled()) if d.get("id") == die), die))

    def action_slot(self, card: str, slot: int) -> None:
        action = self.table.aim(card, slot)
        if action is not None:
            self.table.clear()
            self.act(action)

    def action_act(self, action: str) -> None:
        if self.table.playing:
            self.table.clear()
            self.act(action)

    def action_move(self, step: int) -> None:
        self.table.move(step)
        self.show()

    def action_next_choice(self) -> None:
        if self.table.die is not None:
            self.table.clear()
        else:
            self.table.move(1)
        self.show()

    def action_clear(self) -> None:
        self.table.clear()
        self.table.hint = None
        self.show()

    def action_confirm(self) -> None:
        if not self.table.playing:
            return
        action = self.table.confirm()
        if action is not None:
            self.table.clear()
            self.act(action)

    def action_done(self) -> None:
        done = self.table.done_move() if self.table.playing else None
        if done is not None:
            self.table.clear()
            self.act(done)

    def action_hint(self) -> None:
        if not self.table.playing:
            return
        if self.table.hints is None:
            self._note("hint.off")
            return
        h = self.table.follow_hint()
        self._note(None if h is not None else "hint.none")

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.words))

    def action_ready(self) -> None:
        if self.table.view is None and self.table.room is not None:
            seats = self.table.room.get("seats") or []
            me: dict[str, Any] = next((s for s in seats if s.get("seat") == self.table.seat), {})
            self.send({"type": "ready", "ready": not me.get("ready", False)})

    def action_fill_bots(self) -> None:
        if self.table.view is None and self.table.room is not None:
            self.send({"type": "fill_bots"})

    def action_quit_asking(self) -> None:
        if self.table.playing:
            self.push_screen(QuitScreen(self.words), self._quit_answer)
        else:
            self.exit()

    def _quit_answer(self, leave: bool | None) -> None:
        if leave:
            self.exit()

    def action_quit_now(self) -> None:
        self.exit()
