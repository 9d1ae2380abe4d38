"""Seeds as JSON carries them to every client, JavaScript's included.

JavaScript reads every JSON number as a double: whole numbers are exact only up to 2^53 − 1
(`Number.MAX_SAFE_INTEGER`). New seeds are drawn below that. Tables created before drew seeds up to
2^62; such a seed is written as a string of its decimal digits wherever the API shows it (the table's
`seed`, a record's `seed`, an undo's `reseed`), and read back from either form. Hashes and replays
always use the number itself, so their records still verify.
"""

from __future__ import annotations

from typing import Any

MAX_SAFE_INTEGER = 2**53 - 1
SEED_BITS = 53  # new seeds: 0 … 2^53 − 1
SEED_DIGITS = r"^[0-9]{16,19}$"  # a seed above MAX_SAFE_INTEGER, as a string (2^62 has 19 digits)
LEGACY_MAX_SEED = 2**62


def shown_seed(seed: int | None) -> int | str | None:
    """A seed as the API writes it: the number, or its digits when JavaScript could not keep it."""
    if seed is None or seed <= MAX_SAFE_INTEGER:
        return seed
    return str(seed)


def read_seed(value: Any) -> Any:
    """A seed as written by shown_seed, back to the number (anything else is returned as it is, for
    the caller's own checks to refuse)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        number = int(value)
        if MAX_SAFE_INTEGER < number <= LEGACY_MAX_SEED:
            return number
    return value
