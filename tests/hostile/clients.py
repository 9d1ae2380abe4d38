"""Several clients on one machine: a requests session whose connections come from another loopback
address (127.0.0.2 …), so a server that limits per client address sees a different client."""

from __future__ import annotations

from typing import Any

import requests
from requests.adapters import HTTPAdapter


class _FromAddress(HTTPAdapter):
    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(source: str) -> requests.Session:
    """A session whose every connection leaves from `source` (any 127.x.y.z works on Linux)."""
    session = requests.Session()
    session.mount("http://", _FromAddress(source))
    return session
