"""What changed between two versions of a table, as a JSON Patch (RFC 6902) a phone applies.

A live stream that asked for patches gets, after its first whole table, only what each change
changed. The patch uses three operations (`add`, `remove`, `replace`), paths are JSON Pointers
(RFC 6901). It is small on purpose: where the operations for a part would take more bytes than
that part itself, the part is replaced whole (a die's throw rewrites most of Mahé's outcome
table: a dozen leaf operations, each with its long path, cost more than the new table). The
`jsonpatch` library applies these patches (tests, the Python example client); its own
`make_patch` writes a leaf operation for every changed value, which made a Mahé die's patch
larger than the whole view (2.9 KB against 2.2 KB), so the diff is ours.
"""

from __future__ import annotations

import json
from typing import Any

Operation = dict[str, Any]


def pointer(path: str, token: str | int) -> str:
    """`path` extended by one reference token, escaped as RFC 6901 says (`~` → `~0`, `/` → `~1`)."""
    return f"{path}/{str(token).replace('~', '~0').replace('/', '~1')}"


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: `1`, `1.0` and `true` are three different values here, unlike Python's `==`."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _size(ops: list[Operation]) -> int:
    return sum(len(json.dumps(op, separators=(",", ":"), ensure_ascii=False)) + 1 for op in ops)


def diff(old: Any, new: Any, path: str = "") -> list[Operation]:
    """Operations that turn `old` into `new` (both plain JSON values), applied in order."""
    if same(old, new):
        return []
    whole = [{"op": "replace", "path": path, "value": new}]
    if isinstance(old, dict) and isinstance(new, dict):
        ops = _diff_objects(old, new, path)
    elif isinstance(old, list) and isinstance(new, list):
        ops = _diff_arrays(old, new, path)
    else:
        return whole
    return ops if _size(ops) < _size(whole) else whole


def _diff_objects(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Operation]:
    ops: list[Operation] = [{"op": "remove", "path": pointer(path, key)} for key in old if key not in new]
    for key, value in new.items():
        if key in old:
            ops += diff(old[key], value, pointer(path, key))
        else:
            ops.append({"op": "add", "path": pointer(path, key), "value": value})
    return ops


def _diff_arrays(old: list[Any], new: list[Any], path: str) -> list[Operation]:
    """Common head and tail kept; the middle changed item by item, then shortened at its end or
    lengthened by inserts (an insert before the kept tail moves it on, as RFC 6902's `add` does)."""
    head = 0
    while head < len(old) and head < len(new) and same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < len(old) - head and tail < len(new) - head and same(old[-1 - tail], new[-1 - tail]):
        tail += 1
    before, after = old[head : len(old) - tail], new[head : len(new) - tail]
    ops: list[Operation] = []
    for i, (a, b) in enumerate(zip(before, after, strict=False)):
        ops += diff(a, b, pointer(path, head + i))
    at = head + min(len(before), len(after))
    ops += [{"op": "remove", "path": pointer(path, at)} for _ in range(len(before) - len(after))]
    ops += [
        {"op": "add", "path": pointer(path, at + i), "value": value}
        for i, value in enumerate(after[len(before) :])
    ]
    return ops
