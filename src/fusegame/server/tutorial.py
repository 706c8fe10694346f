"""The interactive tutorial: short lessons, each a scenario position and a move to make in it.

A lesson is a YAML file in ``fusegame/server/tutorial/``: the position is a scenario document (the
same documents tests and bug reports use, docs/scenarios.md), the words come in English and Spanish,
and ``accept`` lists the moves that complete the lesson by verb and, optionally, the die's label,
the card and the slot (1-based). The learner always plays seat 0; every attempt is checked by the
engine, so an illegal move gets the engine's reason and a legal but different move gets a nudge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import yaml

from fusegame.cards.model import BombCard
from fusegame.rules.actions import Action, ActionParseError, with_time
from fusegame.rules.state import GameState, IllegalAction
from fusegame.scenario import scenario_from_data
from fusegame.server.room import event_dict, moves_of, public_view

LANGUAGES = ("en", "es")


@dataclass(frozen=True)
class Lesson:
    id: str
    words: dict[str, dict[str, str]]  #: field -> language -> text
    accept: tuple[dict[str, Any], ...]
    start: GameState = field(compare=False)  #: the position, built once from the scenario
    info: bool = False  #: the game's bar (clock, bag, deck, fuse cards) is part of what it teaches

    def text(self, key: str, lang: str) -> str:
        w = self.words.get(key, {})
        return w.get(lang) or w.get("en", "")

    def state(self) -> GameState:
        """A fresh copy of the lesson's position."""
        return self.start.clone()

    def accepts(self, state: GameState, action: Action) -> bool:
        """Does ``action`` (legal in ``state``, not yet applied) complete the lesson?"""
        data = action.to_data()
        for want in self.accept:
            if want.get("verb") != data["verb"]:
                continue
            die = data.get("die")
            if "die" in want and (die is None or state.die_label(die) != want["die"]):
                continue
            if "card" in want and data.get("card") != want["card"]:
                continue
            if "slot" in want and data.get("slot") != int(want["slot"]) - 1:
                continue
            return True
        return False


class Tutorial:
    """The lessons shipped with the package, in order."""

    def __init__(self) -> None:
        self._lessons: list[Lesson] = []
        folder = resources.files("fusegame.server") / "tutorial"
        for item in sorted(folder.iterdir(), key=lambda p: p.name):
            if not item.name.endswith(".yaml"):
                continue
            d = yaml.safe_load(item.read_text(encoding="utf-8"))
            words = {k: d[k] for k in ("title", "text", "goal", "success", "nudge") if k in d}
            # a broken lesson is found when the server starts, not by a learner
            start = scenario_from_data(d["scenario"])
            self._lessons.append(Lesson(str(d["id"]), words, tuple(d["accept"]), start, bool(d.get("info"))))
        self._by_id = {lesson.id: lesson for lesson in self._lessons}
        self._listed: dict[str, list[dict[str, Any]]] = {}  # by language: the positions never change
        # the lessons' own cards (T1, ...), so that the client can draw them like catalogue cards
        self.cards: dict[str, BombCard] = {}
        for lesson in self._lessons:
            for b in lesson.start.catalogue.bombs:
                # one id, one card: a lesson drawing another lesson's card would teach the wrong one
                if b.id in self.cards and self.cards[b.id].notation != b.notation:
                    raise ValueError(f"tutorial lesson {lesson.id!r}: card id {b.id} is another "
                                     "lesson's card")
                self.cards.setdefault(b.id, b)

    def lessons(self, lang: str = "en") -> list[dict[str, Any]]:
        """Every lesson with its starting position, in ``lang`` (English when unknown)."""
        lang = lang if lang in LANGUAGES else "en"
        if lang in self._listed:
            return self._listed[lang]
        out = self._listed[lang] = []
        for lesson in self._lessons:
            state = lesson.start
            out.append({"id": lesson.id, "title": lesson.text("title", lang), "info": lesson.info,
                        "text": lesson.text("text", lang), "goal": lesson.text("goal", lang),
                        "view": public_view(state, 0), "moves": moves_of(state, 0)})
        return out

    def attempt(self, lesson_id: str, text: str, lang: str = "en") -> dict[str, Any]:
        """Try ``text`` (an action without seat and time) in a lesson's position. ``KeyError`` for an
        unknown lesson."""
        lesson = self._by_id[lesson_id]
        lang = lang if lang in LANGUAGES else "en"
        state = lesson.state()
        result: dict[str, Any] = {"ok": False, "view": public_view(state, 0), "moves": moves_of(state, 0),
                                  "action": None, "act": None, "events": []}
        if "@" in text:
            result["message"] = "an action is written without its time"
            return result
        try:
            action = with_time(Action.parse(f"p0 {text.strip()}"), state.time_ms)
        except ActionParseError as e:
            result["message"] = str(e).replace("p0 ", "")
            return result
        result.update(action=action.body(), act=action.to_data())
        try:
            events = state.apply(action)  # validates: an illegal move never counts
        except IllegalAction as e:
            from fusegame.words import refusal_text

            result.update(message=refusal_text(e.code, e.facts, lang, fallback=str(e)), reason=e.code,
                          params=e.facts)
            return result
        # judged on the untouched position, and only once the engine found the move legal there
        # (a die or card that does not exist has no label to compare)
        ok = lesson.accepts(lesson.start, action)
        result.update(ok=ok, message=lesson.text("success" if ok else "nudge", lang),
                      view=public_view(state, 0), moves=moves_of(state, 0),
                      events=[event_dict(e) for e in events])
        return result
