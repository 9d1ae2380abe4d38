"""A tiny Server-Sent-Events reader for tests: what a phone's stream client does, in a thread."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import jsonpatch
import requests


class StreamReader:
    """Reads the events of a live stream (a table's, a group's) into a queue until closed or the
    server goes away."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.heartbeats = 0
        self.table: Any = None  # the table as the stream last gave it (what a `patch` applies to)
        self.response = requests.get(url, headers=headers or {}, stream=True, timeout=(5, 30))
        self.status = self.response.status_code
        self.ended = threading.Event()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event: dict[str, Any] = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line == "":
                    if "data" in event:
                        event_id = event.get("id", "")  # a table's version; a group's statuses (`1f2p`)
                        data = json.loads(event["data"])
                        if data.get("type") == "patch":  # as a phone does: onto the table it has
                            assert self.table["version"] == data["base"], (self.table["version"], data)
                            data["table"] = jsonpatch.apply_patch(self.table, data["patch"])
                        if "table" in data:
                            self.table = data["table"]
                        self.events.put({"id": int(event_id) if event_id.isdigit() else event_id, **data})
                    event = {}
                elif line.startswith(":"):
                    self.heartbeats += 1
                else:
                    field, _, value = line.partition(":")
                    event[field] = value.removeprefix(" ")
        except (requests.RequestException, OSError, AttributeError):  # closed under the reader
            pass
        finally:
            self.ended.set()

    def next(self, timeout: float = 10) -> dict[str, Any]:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self.response.close()
