"""Issue 33 through the HTTP API, on SQLite and PostgreSQL: a whole auction typed in on the "winner
and price" sheet goes in as ONE entry (`auction`, MG-4). A refused step leaves the table exactly as
it was — no pass stored, no log entry, the same version — and the corrected steps are stored
together in one log entry that one undo takes back. In ledger depth the entry with a bid is the
bidder's own (MG-6: their seat token)."""

from __future__ import annotations

from typing import Any

from tests.api.table_client import TableDriver
from tests.conftest import make_test_app


def log(t: TableDriver) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = t.client.get(f"/api/tables/{t.id}/events").get_json()["events"]
    return events


def table(t: TableDriver) -> dict[str, Any]:
    body: dict[str, Any] = t.client.get(f"/api/tables/{t.id}").get_json()
    return body


def test_a_whole_auction_or_nothing(db_url: str) -> None:
    client = make_test_app(db_url).test_client()
    t = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}, {"name": "Black"}],
        options={"depth": "outcomes", "chance": "physical", "auctioneer": 0},
    )
    t.play({"type": "reveal", "explorer": "cook"})
    before_log, before = log(t), table(t)
    # Red passes, Blue bids 4, Green bids 4 (not higher, MG-4): nothing of it is recorded.
    bad = [{"type": "pass", "seat": 0}, {"type": "bid", "seat": 1, "amount": 4},
           {"type": "bid", "seat": 2, "amount": 4}]  # fmt: skip
    refused = t.post({"type": "auction", "steps": bad})
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["code"] == "bid-too-low"
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert log(t) == before_log
    assert table(t) == before

    good = [{"type": "pass", "seat": 0}, {"type": "bid", "seat": 1, "amount": 4},
            {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}]  # fmt: skip
    t.play({"type": "auction", "steps": good})
    sold = {"phase": 1, "explorer": "cook", "outcome": "sold", "seat": 1, "price": 4}
    assert t.state["history"][-1] == sold
    added = log(t)[len(before_log) :]
    assert len(added) == 1 and added[0]["event"] == {"type": "auction", "steps": good}
    assert t.table["version"] == before["version"] + 1
    # One entry: one undo takes the whole auction back (Red's turn again, no bid).
    t.undo()
    assert t.state["stage"] == "auction" and t.state["card"]["high_bid"] == 0
    assert t.legal["next"]["seat"] == 0


def test_malformed_steps_are_a_clear_422(client: Any) -> None:
    t = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
        options={"chance": "physical", "auctioneer": 0},
    )
    t.play({"type": "reveal", "explorer": "cook"})
    answer = t.post({"type": "auction", "steps": [{"type": "pass"}]})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid-steps"


def test_ledger_the_bid_is_the_bidders_own(client: Any) -> None:
    t = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
        options={"depth": "ledger", "chance": "digital", "auctioneer": 0},
    )
    order = t.state["card"]["order"]
    steps = [{"type": "pass", "seat": order[0]}, {"type": "bid", "seat": order[1], "amount": 1},
             {"type": "pass", "seat": order[2]}]  # fmt: skip
    shared = t.post({"type": "auction", "steps": steps})
    assert shared.status_code == 403 and shared.get_json()["code"] == "seat-token-required"
    assert shared.get_json()["seat"] == order[1]
    t.play({"type": "auction", "steps": steps}, seat=order[1])
    assert t.state["history"][-1]["outcome"] == "sold" and t.state["history"][-1]["seat"] == order[1]
