"""Play a Magellan table to the end of scoring through the HTTP API, quickly: all 36 cards with
minimum bids, empty final hands (MG-10), a Pizarro draw stopped at once (MG-11). For the library's
rule that only a table scored with a sheet's numbers confirms them (issue 31). Works with the Flask
test client (`play_to_the_end`) and with any HTTP client (`finish`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from tests.api.table_client import TableDriver


def finish(table: dict[str, Any], post: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """From `table` (its JSON), post events until the game is over; `post` appends one event and
    answers the table after it. Whoever speaks first bids the minimum, the others pass (MG-4);
    Vasco da Gama takes the right part (MG-8); Magellan slides 1, 2, 3 … (MG-8); every hand is
    typed in empty (MG-10); a Pizarro drawer stops at once (MG-11). The finished table."""
    slides = itertools.cycle(range(1, 10))
    for _ in range(1000):
        if table["finished"]:
            return table
        actions = table["legal_actions"]
        step = actions["step"]
        assert actions.get("blocked") is None, actions["blocked"]
        actor = actions["actors"][0]
        offered = {a["type"]: a for a in actor["actions"]}
        event: dict[str, Any]
        if step == "reveal":
            event = {"type": "reveal", "explorer": offered["reveal"]["explorers"][0]}
        elif step == "bid":
            card = table["state"].get("card") or {}
            first = "bid" in offered and not card.get("bids")
            event = {"type": "bid", "amount": offered["bid"]["min"]} if first else {"type": "pass"}
        elif step == "vasco_part":
            event = {"type": "vasco_part", "part": "right"}
        elif step == "slide":
            event = {"type": "slide", "value": next(slides)}
            if not offered["slide"].get("new_pile", True):
                event["pile"] = offered["slide"]["piles"][0]
        elif step == "final_hand":
            event = {"type": "final_hand", "seat": actor["seat"], "cards": []}
        elif step == "pizarro":
            event = {"type": "pizarro_stop", "seat": actor["seat"]}
        else:
            raise AssertionError(f"unexpected step {step!r}: {actions}")
        table = post(event)
    raise AssertionError("the game did not end")


def play_to_the_end(table: TableDriver) -> dict[str, Any]:
    """`finish` through the Flask test client, with the table's write token."""

    def post(event: dict[str, Any]) -> dict[str, Any]:
        return table.play(event)

    return finish(table.table, post)
