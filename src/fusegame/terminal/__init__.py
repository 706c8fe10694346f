"""The terminal game (``fuse play``): a Textual app that shows one table from the same frames the
browser gets.

A game on this machine runs the server's own ``Room`` in process on the app's event loop
(``local``); ``fuse play --join URL`` takes a seat in a room of a running ``fuse serve`` over its
HTTP join and WebSocket (``remote``). Either way the app (``app``) only reads frames and sends
messages, so it plays both the same way. ``table`` keeps what the frames said and what the player
has selected; ``render`` draws it; ``texts`` holds the words of the screen in English and Spanish.
"""

from __future__ import annotations
