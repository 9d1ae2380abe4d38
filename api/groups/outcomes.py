"""What a group's live stream announces: a table of the group finished, was abandoned, or was
opened again (an undo of its last move, an abandonment taken back).

The stream compares the statuses of the group's tables (oldest first) with the statuses its client
last heard of. Those statuses are the event's `id`, run-length encoded (`3f1a2p`: three finished,
one abandoned, two playing; tables past the end are playing; `0` for none), so a client that comes
back with `Last-Event-ID` — to this server or another — hears exactly what changed meanwhile, with
nothing stored on the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import groupby

from api.errors import ApiProblem

LETTER = {"finished": "f", "abandoned": "a", "playing": "p"}
STATUS = {letter: status for status, letter in LETTER.items()}
KIND = {"finished": "finished", "abandoned": "abandoned", "playing": "reopened"}
MAX_ID = 4096
MAX_TABLES = 100_000  # far more tables than a group plays; an id is never read past them
ID_PATTERN = r"^(0|([1-9][0-9]{0,5}[fap])+)$"
_RUN = re.compile(r"([1-9][0-9]{0,5})([fap])")


def encode(statuses: Sequence[str]) -> str:
    """The statuses as an event id (trailing `playing` tables left out: they are the default)."""
    letters = "".join(LETTER[s] for s in statuses).rstrip("p")
    return "".join(f"{len(list(run))}{letter}" for letter, run in groupby(letters)) or "0"


def check(event_id: str) -> None:
    """400 `bad-last-event-id` unless the id is one of ours (the pattern and length: O(4096))."""
    if len(event_id) > MAX_ID or not re.fullmatch(ID_PATTERN, event_id):
        raise ApiProblem(
            400, "bad-last-event-id", "Last-Event-ID must be the id of an event of this group's stream."
        )


def decode(event_id: str, limit: int = MAX_TABLES) -> list[str]:
    """The statuses a `Last-Event-ID` names, for the first `limit` tables only: tables past the
    group's last one change nothing (`changes`), so an id naming 100,000 tables on a group of 10
    costs 10 statuses (and at most MAX_ID / 2 runs read). 400 `bad-last-event-id` when it is none
    of ours."""
    check(event_id)
    statuses: list[str] = []
    limit = max(0, min(limit, MAX_TABLES))
    for count, letter in _RUN.findall(event_id):
        if len(statuses) >= limit:
            break
        statuses.extend([STATUS[letter]] * min(int(count), limit - len(statuses)))
    return statuses


def changes(heard: list[str], now: Sequence[tuple[str, str]]) -> Iterator[tuple[int, str, str]]:
    """(position, table id, kind) for each table whose status moved since `heard`; `heard` is
    brought up to date as it goes, so each change's id covers the changes before it."""
    for position, (table_id, status) in enumerate(now):
        if position >= len(heard):
            heard.append("playing")
        if heard[position] != status:
            heard[position] = status
            yield position, table_id, KIND[status]
