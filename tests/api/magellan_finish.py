"""Play a Magellan table to the end of scoring through the HTTP API (test client), quickly: all 36
cards with minimum bids, empty final hands (MG-10). For the library's rule that only a table scored
with a sheet's numbers confirms them (issue 31)."""

from __future__ import annotations

import itertools
from typing import Any

from tests.api.table_client import TableDriver


def play_to_the_end(table: TableDriver) -> dict[str, Any]:
    """Every card through the API — whoever speaks first bids the minimum, the others pass (MG-4);
    Vasco da Gama takes the right part (MG-8); Magellan slides 1, 2, 3 … (MG-8) — then every hand
    typed in empty (MG-10). The finished table."""
    slides = itertools.cycle(range(1, 10))
    for _ in range(1000):
        if table.table["finished"]:
            return table.table
        actions = table.legal
        step = actions["step"]
        assert actions.get("blocked") is None, actions["blocked"]
        offered = {a["type"]: a for a in actions["actors"][0]["actions"]}
        if step == "reveal":
            table.play({"type": "reveal", "explorer": offered["reveal"]["explorers"][0]})
        elif step == "bid":
            card = table.state.get("card") or {}
            first = "bid" in offered and not card.get("bids")
            table.play({"type": "bid", "amount": offered["bid"]["min"]} if first else {"type": "pass"})
        elif step == "vasco_part":
            table.play({"type": "vasco_part", "part": "right"})
        elif step == "slide":
            event: dict[str, Any] = {"type": "slide", "value": next(slides)}
            if not offered["slide"].get("new_pile", True):
                event["pile"] = offered["slide"]["piles"][0]
            table.play(event)
        elif step == "final_hand":
            seat = actions["actors"][0]["seat"]
            table.play({"type": "final_hand", "seat": seat, "cards": []})
        else:
            raise AssertionError(f"unexpected step {step!r}: {actions}")
    raise AssertionError("the game did not end")
