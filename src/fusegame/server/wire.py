"""The door: what a client may send, as declared types, checked before anything else sees it.

Every WebSocket message (docs/protocol.md) and every HTTP body is read here by Pydantic v2 from
the raw text: its JSON parser refuses invalid UTF-8 and lone surrogates (``"\\ud800"``) and stops
at a nesting depth of 200, so nothing behind the door ever holds text that cannot be written back
out as UTF-8 JSON, and no input can exhaust the stack. Names and chat lines are normalised
(Unicode NFC, control and bidirectional-override characters dropped, runs of white space made one
space) and their length is checked after that, so what is stored and relayed is what was checked.

A refusal is a ``WireError`` (a message) or a ``BodyError`` (an HTTP body) with one readable line.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

#: The largest message a client may send (a chat line or an action is far smaller).
MAX_MESSAGE = 4096
#: The largest HTTP body (room options are a few hundred bytes).
MAX_BODY = 64 * 1024
MAX_CHAT = 200
MAX_NAME = 24
#: An action's text is a verb and a few ids ("rethrow d3 d7 d12"): this is generous.
MAX_ACTION = 200
SIGNALS = ("need", "take", "wait")
#: Paging through the BDT Log: no offset beyond what a 32-bit row id could reach.
MAX_OFFSET = 2**31 - 1
#: Close code for a socket whose room is held by another process now (its owner stopped or lost
#: it): the page reconnects and is served by whichever process holds the room.
CLOSE_MOVED = 1012
#: A seat token is ``secrets.token_urlsafe(16)``: 22 characters of this alphabet.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")

# control characters, the bidirectional embeddings, overrides and isolates that would let a name
# or a line of chat turn the text after it around on everyone's screen, and the invisible spaces
# (zero width space, word joiner, byte order mark) that make a name look empty or like another's;
# the zero width joiner stays, emoji are made with it
_DROP = re.compile("[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]")


class WireError(ValueError):
    """A message that cannot be read; ``code`` is the error frame's (``bad_message``, ``too_large``)."""

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


class BodyError(ValueError):
    """An HTTP body or query that cannot be read; ``status`` is 400 (not JSON), 413 or 422. ``field``
    names the field at fault when one is."""

    def __init__(self, message: str, status: int = 422, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.field = field


def clean_text(text: str) -> str:
    """``text`` as it is shown and stored: NFC, without control or bidi-override characters, white
    space runs (line breaks included) as one space, no space at either end."""
    text = unicodedata.normalize("NFC", text)
    return " ".join(_DROP.sub(" ", text).split())


def _clean(most: int, what: str) -> AfterValidator:
    def check(text: str) -> str:
        text = clean_text(text)
        if not text:
            raise ValueError(f"{what} needs some text")
        if len(text) > most:
            raise ValueError(f"{what} is at most {most} characters")
        return text

    return AfterValidator(check)


def _action_text(text: str) -> str:
    text = text.strip()
    if not text or "@" in text:
        raise ValueError("an action's text without seat or time, e.g. \"done\"")
    return text


#: A person's name at the table: 1 to ``MAX_NAME`` characters once cleaned.
Name = Annotated[str, Field(max_length=4 * MAX_NAME), _clean(MAX_NAME, "a name")]
ChatText = Annotated[str, Field(max_length=MAX_MESSAGE), _clean(MAX_CHAT, "a chat message")]
ActionText = Annotated[str, Field(max_length=MAX_ACTION), AfterValidator(_action_text)]


# ====================================================================== WebSocket messages
class _Message(BaseModel):
    # fields a client adds beyond the protocol's are ignored, so that a newer page still plays
    model_config = ConfigDict(extra="ignore", frozen=True)


class Ping(_Message):
    type: Literal["ping"]


class Ready(_Message):
    type: Literal["ready"]
    ready: StrictBool = True


class FillBots(_Message):
    type: Literal["fill_bots"]


class Bot(_Message):
    type: Literal["bot"]
    seat: Annotated[StrictInt, Field(ge=0, le=99)]
    on: StrictBool = True


class Act(_Message):
    type: Literal["act"]
    action: ActionText


class Chat(_Message):
    type: Literal["chat"]
    text: ChatText


class Signal(_Message):
    type: Literal["signal"]
    signal: Literal["need", "take", "wait"]
    die: Annotated[StrictInt, Field(ge=0, le=999)] | None = None


Message = Annotated[Ping | Ready | FillBots | Bot | Act | Chat | Signal, Field(discriminator="type")]
_MESSAGE: TypeAdapter[Message] = TypeAdapter(Message)
MESSAGE_TYPES = ("ping", "ready", "fill_bots", "bot", "act", "chat", "signal")


def parse_message(text: str) -> Message:
    """One client message from its frame's text; ``WireError`` says why it cannot be read."""
    if len(text) > MAX_MESSAGE:
        raise WireError(f"messages are at most {MAX_MESSAGE} bytes", "too_large")
    try:
        return _MESSAGE.validate_json(text)
    except ValidationError as e:
        raise WireError(_message_problem(e)) from None


def _message_problem(e: ValidationError) -> str:
    err = e.errors(include_url=False, include_input=False)[0]
    kind, loc = err["type"], err["loc"]
    if kind == "json_invalid":
        return "not JSON: " + str(err["msg"]).removeprefix("Invalid JSON: ")
    if kind in ("model_attributes_type", "model_type", "dict_type") or kind == "union_tag_not_found":
        return 'a message is a JSON object with a "type"'
    if kind == "union_tag_invalid":
        tag = (err.get("ctx") or {}).get("tag")
        return f"unknown message type {tag!r}" if isinstance(tag, str) else 'a message has a "type" string'
    return _one_line(err, loc[1:])


def _one_line(err: Any, loc: tuple[Any, ...]) -> str:
    where = ".".join(str(x) for x in loc)
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


# ====================================================================== HTTP bodies and queries
class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class JoinBody(_Body):
    """``POST /api/rooms/{code}/join``. The name is checked by ``join_name`` so that a refusal keeps
    the protocol's reason (``name``); any seat number goes through to the room, which says
    ``no_seat`` for one it does not have."""

    name: Annotated[str, Field(max_length=MAX_MESSAGE)] = ""
    seat: StrictInt | None = None


class TryBody(_Body):
    """``POST /api/tutorial/{id}/try``."""

    action: Annotated[str, Field(max_length=MAX_MESSAGE)]


_NAME: TypeAdapter[str] = TypeAdapter(Name)
_ANY_JSON: TypeAdapter[Any] = TypeAdapter(Any)
B = TypeVar("B", bound=BaseModel)


def join_name(name: str) -> str | None:
    """``name`` cleaned, or None when it is not 1 to ``MAX_NAME`` characters once cleaned."""
    try:
        return _NAME.validate_python(name)
    except ValidationError:
        return None


def parse_body(raw: bytes, model: type[B]) -> B:
    """An HTTP body as ``model`` (an empty body is ``{}``); ``BodyError`` when it is not."""
    try:
        return model.model_validate_json(raw if raw.strip() else b"{}")
    except ValidationError as e:
        raise _body_error(e, f"send {_example(model)}") from None


def parse_json(raw: bytes) -> Any:
    """Any JSON value (an empty body is ``{}``), read with the door's bounds; ``BodyError`` (400)."""
    try:
        return _ANY_JSON.validate_json(raw if raw.strip() else b"{}")
    except ValidationError as e:
        raise _body_error(e, "invalid body") from None


def _body_error(e: ValidationError, shape: str) -> BodyError:
    err = e.errors(include_url=False, include_input=False)[0]
    if err["type"] == "json_invalid":
        why = str(err["msg"]).removeprefix("Invalid JSON: ")
        return BodyError(f"the request body is not valid JSON ({why})", 400)
    if err["type"] == "model_type":
        return BodyError(shape)
    loc = err["loc"]
    return BodyError(_one_line(err, loc), field=str(loc[0]) if loc else None)


def _example(model: type[BaseModel]) -> str:
    return '{"action": "place d3 F12 s1"}' if model is TryBody else '{"name": "...", "seat": null}'


def seat_token(token: str | None) -> str | None:
    """A token from a socket's query as the rooms compare it, or None for one that no room could
    have issued (the socket is then a spectator's)."""
    if token is None or not _TOKEN.fullmatch(token):
        return None
    return token
