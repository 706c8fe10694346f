"""The card pictures and the printable catalogue page, drawn once and served from memory.

The catalogue page is about 600 KB of SVG and takes about 100 ms to draw: drawn per request on the
event loop, a few visitors held up every room's frames. Each picture (a card's SVG, the page for
one set or all) is drawn the first time it is asked for, in a worker thread, and kept with its gzip
form and an ETag; concurrent first requests wait for the same drawing. An id that is no card is
answered without drawing anything or keeping anything.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from fastapi import Request, Response

from fusegame.cards import Catalogue
from fusegame.cards.model import BombCard
from fusegame.cards.words import CardWords, Lang, card_words
from fusegame.web.svg import find_card

#: A card or the page changes only with a new version of the server; a browser asks again (and
#: gets 304 Not Modified) after this long.
CACHE_CONTROL = "public, max-age=3600"


@dataclass(frozen=True)
class Drawn:
    """One picture, ready to send."""

    body: bytes
    gzipped: bytes
    etag: str
    media_type: str


def _drawn(text: str, media_type: str) -> Drawn:
    body = text.encode("utf-8")
    etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    return Drawn(body, gzip.compress(body, 6, mtime=0), etag, media_type)


class CardPages:
    """Every card of ``catalogue`` (and the tutorial's ``extra`` cards) and the catalogue page."""

    def __init__(self, catalogue: Catalogue, extra: Mapping[str, BombCard]) -> None:
        self.catalogue = catalogue
        self.extra = extra
        self._ids = {c.id for cards in (catalogue.bombs, catalogue.sparks, catalogue.fuses, catalogue.roles)
                     for c in cards}
        self._drawn: dict[tuple[str, str | None], asyncio.Future[Drawn]] = {}

    async def card(self, card_id: str, compact: bool = False, lang: Lang = "en") -> Drawn | None:
        """The SVG of a card, or None when there is no such card; ``compact``: the table's version
        of a bomb or spark card (other cards have only one); ``lang``: the language of its words."""
        if card_id not in self._ids and card_id not in self.extra:
            return None
        return await self._get((f"{'compact' if compact else 'card'}:{lang}", card_id),
                               lambda: _drawn(self._card_svg(card_id, compact, lang), "image/svg+xml"))

    async def page(self, card_set: str | None, lang: Lang = "en") -> Drawn:
        """The printable catalogue page of one set (``fuse``, ``countdown``) or of all (None), with
        each card in words in ``lang``."""
        from fusegame.web.svg import catalogue_page

        def draw() -> Drawn:
            return _drawn(catalogue_page(self.catalogue, card_set, lang), "text/html; charset=utf-8")

        return await self._get(("page", f"{card_set}:{lang}"), draw)

    def words(self, card_id: str, lang: Lang) -> CardWords | None:
        """A card in words, or None when there is no such card."""
        if card_id in self._ids:
            return card_words(find_card(self.catalogue, card_id), lang)
        if card_id in self.extra:
            return card_words(self.extra[card_id], lang)
        return None

    def _card_svg(self, card_id: str, compact: bool, lang: Lang) -> str:
        from fusegame.web.svg import any_card_svg, card_svg

        if card_id in self._ids:
            return any_card_svg(self.catalogue, card_id, compact=compact, lang=lang)
        return card_svg(self.extra[card_id], compact=compact, lang=lang)

    async def _get(self, key: tuple[str, str | None], draw: Callable[[], Drawn]) -> Drawn:
        fut = self._drawn.get(key)
        if fut is None:
            fut = asyncio.ensure_future(asyncio.to_thread(draw))
            self._drawn[key] = fut
        try:
            return await asyncio.shield(fut)
        except Exception:
            if self._drawn.get(key) is fut:
                del self._drawn[key]  # a failed drawing is tried again by the next request
            raise


def respond(drawn: Drawn, request: Request) -> Response:
    """``drawn`` for ``request``: 304 when the browser's copy is current, gzip when it accepts it."""
    headers = {"ETag": drawn.etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
    match = [t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")]
    if "*" in match or drawn.etag in match:
        return Response(status_code=304, headers=headers)
    accepts = request.headers.get("accept-encoding", "")
    if "gzip" in accepts.lower():
        headers["Content-Encoding"] = "gzip"
        return Response(drawn.gzipped, media_type=drawn.media_type, headers=headers)
    return Response(drawn.body, media_type=drawn.media_type, headers=headers)
