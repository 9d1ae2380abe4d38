"""The gevent worker's one-call write (api.serving.write_once) puts the same bytes on the wire as
gunicorn's own `util.write`, chunked or not, also when the kernel takes only part of them."""

from __future__ import annotations

import pytest
from gunicorn import util

from api.serving import write_once


class Wire:
    """A socket whose send takes at most `room` bytes at a time, like a full kernel buffer."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.bytes = b""
        self.sends = 0

    def send(self, data: bytes | memoryview) -> int:
        self.sends += 1
        taken = bytes(data[: self.room])
        self.bytes += taken
        return len(taken)

    def sendall(self, data: bytes | memoryview) -> None:
        rest = memoryview(bytes(data))
        while rest:
            rest = rest[self.send(rest) :]


@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize("room", [1, 7, 10_000])
def test_the_same_bytes_as_gunicorn_writes(chunked: bool, room: int) -> None:
    data = b"id: 3\nevent: table\ndata: {}\n\n" * 40
    ours, theirs = Wire(room), Wire(10_000)
    write_once(ours, data, chunked)
    util.write(theirs, data, chunked)
    assert ours.bytes == theirs.bytes
    if room == 10_000:
        assert ours.sends == 1  # one system call when it fits
