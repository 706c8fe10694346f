"""The terminal table: a Textual app that shows the frames of one room and sends the player's moves.

The app reads frames and sends messages through a link (``LocalLink``: an in-process room;
``RemoteLink``: a room of ``fuse serve``); it never looks at the engine, so a local game and a seat
at a server play the same. Keyboard first (see ``texts`` "help"): digits pick a die, arrows move
between the slots it may go to, Enter places; every die, slot and choice is also clickable. The
quick signals (``n``, ``t``, ``w``) and the chat line (``c``) talk to the table as the page does.

From 120 columns up the table is drawn as the page draws it: the roll as dice, every card as a card
with its slots in its shape, the team's hands side by side and the ship's log in a column of its
own; below that everything is stacked in lines, so 80×24 still shows the clock, the roll, your
cards, the row and the team.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from rich.style import Style
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from fusegame.terminal import render
from fusegame.terminal.table import Table
from fusegame.terminal.texts import Words

#: From this many columns the table is drawn in full and the team and the log get a column.
WIDE = 120

#: The waits between the asks for a finished game's log entry (the last ask is not followed by one).
ENTRY_RETRIES_S = (1.0, 2.0, 4.0, 8.0, 0.0)

#: The keys of the quick signals, as the page's buttons say them (``I need this``...).
SIGNAL_KEYS = {"n": "need", "t": "take", "w": "wait"}


class Link(Protocol):
    """Where the frames come from and the messages go (a local room or a server's socket)."""

    seat: int | None

    async def start(self, deliver: Callable[[str], None]) -> None:
        """Take the seat; from now on every frame goes to ``deliver``."""

    def message(self, text: str) -> None:
        """Send one message (JSON text, as the browser sends it)."""

    async def close(self) -> None:
        """Leave the table."""


class Part(Static):
    """A part of the table. Its clickable words keep their own colours: Textual paints a link in
    the theme's link colour, which would put grey ink on a yellow die; here a link is only
    underlined under the mouse."""

    @property
    def link_style(self) -> Style:
        return Style()

    @property
    def link_style_hover(self) -> Style:
        return Style(underline=True)


class LogScroll(VerticalScroll, can_focus=False):
    """The ship's log: scrolled by the mouse wheel, never holding the keys (the arrows move the
    cursor on the table)."""


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
    AUTO_FOCUS = None  # the keys belong to the table; the chat line takes them only when opened
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
    CSS = """
    Screen { layout: vertical; background: #101418; }
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
    Screen.-wide #mine, Screen.-wide #row { margin-bottom: 1; }
    #team-left, #team-right { height: auto; }
    #log-left, #log-right { height: 1fr; min-height: 3; }
    #lobby { height: 1fr; display: none; padding: 1 2; }
    #chat { display: none; height: 3; border: tall #f1c40f; background: #1c2530; }
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
        Binding("b", "fill_bots", show=False), Binding("c", "chat", show=False),
        *[Binding(key, f"signal('{kind}')", show=False) for key, kind in SIGNAL_KEYS.items()],
    ]

    def __init__(self, link: Link, lang: str = "en", *,
                 intro: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__()
        self.link = link
        self.words = Words(lang)
        self.table = Table()
        #: a line for the start of the game (a first game's pace), shown until the player acts
        self.table.intro = self.words(intro[0], **intro[1]) if intro is not None else None
        self.table.seeded = getattr(link, "seeded", None)
        self.frames = 0  #: frames received (tests wait on it)
        self._end: EndScreen | None = None
        #: the parts of the table screen by id, kept so that drawing never has to find them
        self.parts: dict[str, Static] = {}
        self._width = 80
        self._ended = False
        self._asked_entry = False
        #: what the screen says until the room's first frame (a local game is being dealt)
        self._starting = str(getattr(link, "arriving", "starting"))

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        def part(name: str, text: str = "") -> Static:
            self.parts[name] = Part(text, id=name)
            return self.parts[name]

        yield part("top", f"[bold]FUSE[/]  [dim]{escape(self.words(self._starting))}[/]")
        yield part("notice")
        yield part("lobby")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                for name in ("roll", "mine", "row", "fuses", "choices", "hint", "team-left"):
                    yield part(name)
                with LogScroll(id="log-left"):
                    yield part("log-left-text")
            with Vertical(id="right"):
                yield part("team-right")
                with LogScroll(id="log-right"):
                    yield part("log-right-text")
        yield Input(id="chat", max_length=200, placeholder=self.words("chat.placeholder"))
        yield part("keys", self.words("keys"))

    async def on_mount(self) -> None:
        self._width = self.size.width
        self.set_interval(0.25, self._tick)
        if hasattr(self.link, "on_close"):
            self.link.on_close = self._lost
        if hasattr(self.link, "on_status"):
            self.link.on_status = self._status
        # the first frame shows at once; the room is opened (the deal, the bots' card models)
        # once it is on the screen
        self.call_after_refresh(self._open)

    async def _open(self) -> None:
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
        wanted = self.table.hint_wanted
        self.table.feed(frame)
        self.frames += 1
        if wanted and not self.table.hint_wanted and self.table.hint is None:
            self.table.error = self.words("hint.none")
        if not self.is_running:
            return
        self.show()
        if self.table.outcome is not None and not self._ended:
            self._ended = True
            self.table.clear()
            self._close_chat()
            self._end = EndScreen(self.table, self.words)
            self.push_screen(self._end)
        elif self._end is not None and self._end.is_attached:
            self._end.refresh_text()
        if self.table.log_id is not None and not self._asked_entry and hasattr(self.link, "entry"):
            self._asked_entry = True
            self.run_worker(self._read_entry(self.table.log_id), exclusive=False)

    async def _read_entry(self, log_id: int) -> None:
        """The game's log entry (a remote room: whether it is ranked, and why not), asked again a
        few times if a busy or restarting server does not answer."""
        for wait in ENTRY_RETRIES_S:
            entry = await self.link.entry(log_id)  # type: ignore[attr-defined]
            if entry is not None:
                self.table.entry = entry
                if self._end is not None and self._end.is_attached:
                    self._end.refresh_text()
                return
            await asyncio.sleep(wait)

    def _lost(self, why: str) -> None:
        """The link to the room is gone for good."""
        self.table.connection = "closed"
        self.table.hold_clock()
        if self.table.outcome is None or not self.table.stored:
            if why.startswith("!room_over "):  # the game ended while the link was away
                said = self.words("room_over", id=why.split(" ", 1)[1])
            elif why.startswith("!"):
                said = self.words(why[1:])
            else:
                said = self.words("lost_conn", why=why)
            self.table.error = said
            if self.is_running:
                self.show()

    def _status(self, state: str, attempt: int) -> None:
        """The link to the room was lost (``connecting``: trying again) or is open again."""
        if state == "open":
            self.table.back()
        elif state == "watching":
            self.table.back()
            self.table.error = self.words("seat_lost")
        else:
            self.table.lost(attempt)
        if self.is_running:
            self.show()

    def _tick(self) -> None:
        if self.table.view is not None and self.parts:
            self.parts["top"].update(render.top_line(self.table, self.words, self._width))
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
            title = f"[bold]{escape(str((t.room or {}).get('title') or 'FUSE'))}[/]"
            if t.room is None and t.connection == "open":  # nothing from the room yet
                title += f"  [dim]{escape(w(self._starting))}[/]"
            p["top"].update(title)
            p["lobby"].update(render.lobby_text(t, w) if t.room else "")
            p["notice"].update(render.notice_line(t, w) if t.error or t.connection != "open" else "")
            p["keys"].update(w("keys.lobby"))
            return
        wide = self.wide
        width = self._width
        p["keys"].update(w("keys" if t.seat is not None else "keys.watch"))
        p["top"].update(render.top_line(t, w, width))
        p["notice"].update(render.notice_line(t, w))
        left = width * 3 // 5 - 1 if wide else width
        right = width - left - 3
        p["roll"].update(render.roll_block(t, w) if wide else render.roll_line(t, w))
        p["mine"].update(render.mine_cards(t, w, left) if wide else render.mine_block(t, w))
        p["mine"].display = t.seat is not None
        p["row"].update(render.row_cards(t, w, left) if wide else render.row_block(t, w, wide=False))
        for name, text in (("fuses", render.fuses_line(t, w)), ("choices", render.choices_line(t, w)),
                           ("hint", render.hint_line(t, w))):
            p[name].update(text)
            p[name].display = bool(text)
        if wide:
            p["team-right"].update(render.team_cards(t, w, right))
        else:
            p["team-left"].update(render.team_block(t, w, wide=False))
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
        self.table.intro = None
        self.table.hint = None
        self.table.hint_wanted = False
        self.send({"type": "act", "action": action})

    # ------------------------------------------------------------------ keys and clicks
    def _note(self, key: str | None, **params: Any) -> None:
        self.table.error = None if key is None else self.words(key, **params)
        self.show()

    def _why(self, why: Any) -> None:
        if why is None:
            self._note(None)
            return
        facts = dict(why.facts)
        if "seat" in facts:
            facts["who"] = render.seat_label(self.table, facts.pop("seat"), self.words)
        self._note(why.key, **facts)

    def action_pick(self, n: int) -> None:
        if not self.table.playing or self.table.seat is None:
            return
        self._why(self.table.pick(n))

    def action_die(self, die: int) -> None:
        if not self.table.playing or self.table.seat is None:
            return
        self._why(self.table.pick_id(die))

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
        if self._chatting():
            self._close_chat()
            return
        self.table.clear()
        self.table.hint = None
        self.table.hint_wanted = False
        self.show()

    def action_confirm(self) -> None:
        if not self.table.playing:
            return
        action = self.table.confirm()
        if action is not None:
            self.table.clear()
            self.act(action)
        elif self.table.choice_moves() and self.table.die is None:
            self._note("choose_first")

    def action_done(self) -> None:
        done = self.table.done_move() if self.table.playing else None
        if done is not None:
            self.table.clear()
            self.act(done)

    def action_hint(self) -> None:
        if not self.table.playing or self.table.seat is None:
            return
        if self.table.hints is None:
            self._note("hint.off")
            return
        if not self.table.hints:  # the planner is still thinking: its hint shows when it comes
            self.table.hint, self.table.hint_wanted = None, True
            self._note(None)
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

    # ------------------------------------------------------------------ talking
    def action_signal(self, kind: str) -> None:
        """A quick signal to the table, about the selected die if one is."""
        if self.table.seat is None or self.table.view is None:
            return
        self.send({"type": "signal", "signal": kind, "die": self.table.die})

    def action_chat(self) -> None:
        """Open the chat line (Enter sends it, Esc closes it)."""
        if self.table.seat is None or self.table.room is None:
            return
        box = self.query_one("#chat", Input)
        box.display = True
        box.focus()

    def _chatting(self) -> bool:
        box = self.query_one("#chat", Input)
        return bool(box.display)

    def _close_chat(self) -> None:
        box = self.query_one("#chat", Input)
        box.value = ""
        box.display = False
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = " ".join(event.value.split())
        if text:
            self.send({"type": "chat", "text": text[:200]})
        self._close_chat()

    def action_quit_asking(self) -> None:
        if self.table.playing and self.table.seat is not None:
            self.push_screen(QuitScreen(self.words), self._quit_answer)
        else:
            self.exit()

    def _quit_answer(self, leave: bool | None) -> None:
        if leave:
            self.exit()

    def action_quit_now(self) -> None:
        self.exit()
