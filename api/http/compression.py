"""Large JSON answers leave compressed (brotli or gzip, as the client accepts): the game list every
phone asks for on opening, a table's log (a long game's is hundreds of KB), exports and a group's
history. Only the operations decorated with `compressed` are: a live stream must never be (a
compressor holds bytes back), and a table view of 2–3 KB gains little for the CPU it costs.
flask-compress adds `Vary: Accept-Encoding` and keeps strong ETags apart per encoding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_compress import Compress

_compress = Compress()
SETTINGS = {
    "COMPRESS_REGISTER": False,  # only where `compressed` says so
    "COMPRESS_MIMETYPES": ["application/json", "text/csv"],
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_BR_LEVEL": 5,
    "COMPRESS_STREAMS": False,
    "COMPRESS_MIN_SIZE": 1024,
}


def install_compression(app: Flask) -> None:
    for key, value in SETTINGS.items():
        app.config.setdefault(key, value)
    _compress.init_app(app)


def compressed(view: Callable[..., Any]) -> Callable[..., Any]:
    """This operation's answer leaves compressed when the client accepts it."""
    return _compress.compressed()(view)
