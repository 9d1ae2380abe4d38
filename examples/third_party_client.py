"""A third-party app written from openapi.yaml alone: it uses only the client that
openapi-python-client generates from the document (typed models, one function per operationId),
never a dictionary of its own.

    openapi-python-client generate --path openapi.yaml --meta none --output-path kibitz_client
    python examples/third_party_client.py http://localhost:8000

It plays a whole Mahé game (four players, typed-in dice and cards, MA-3 … MA-7) to its result, then
scores a Mhing hand (MH-5 … MH-8). Prints a JSON summary; tests/contract/test_third_party_example.py
runs it against a real gunicorn.
"""

from __future__ import annotations

import json
import random
import sys
import uuid

from kibitz_client import AuthenticatedClient, Client
from kibitz_client.api.mhing import score_mhing_hand
from kibitz_client.api.tables import append_event, create_table, get_log
from kibitz_client.models import (
    Append,
    CreateMaheTable,
    CreateMaheTableGame,
    CreateMaheTablePlayersItem,
    CreateMaheTablePlayersItemColoursItem,
    MaheChooseTurtleAction,
    MaheChooseTurtleEvent,
    MaheChooseTurtleEventType,
    MaheDieAction,
    MaheDieEvent,
    MaheDieEventType,
    MaheOptionsRequest,
    MaheOptionsRequestChance,
    MaheRevealCardAction,
    MaheRevealCardEvent,
    MaheRevealCardEventType,
    MaheStopAction,
    MaheStopEvent,
    MaheStopEventType,
    MaheTable,
    ScoreRequest,
    ScoreResult,
)

Event = MaheRevealCardEvent | MaheChooseTurtleEvent | MaheDieEvent | MaheStopEvent


def choose(table: MaheTable, rng: random.Random) -> Event:
    """A plain player: take what the referee offers; stop once the risk of busting is high."""
    offered = {type(action): action for action in table.legal_actions.actions}
    reveal = offered.get(MaheRevealCardAction)
    if isinstance(reveal, MaheRevealCardAction):
        values = reveal.values or [1]
        return MaheRevealCardEvent(type_=MaheRevealCardEventType.REVEAL_CARD, value=rng.choice(values))
    turtle = offered.get(MaheChooseTurtleAction)
    if isinstance(turtle, MaheChooseTurtleAction):
        chosen = rng.choice(turtle.turtles)
        return MaheChooseTurtleEvent(type_=MaheChooseTurtleEventType.CHOOSE_TURTLE, turtle=chosen)
    die = offered[MaheDieAction]
    assert isinstance(die, MaheDieAction)
    stop = offered.get(MaheStopAction)
    if isinstance(stop, MaheStopAction) and (stop.passes_beach or die.bust_chance > 0.34):
        return MaheStopEvent(type_=MaheStopEventType.STOP)
    return MaheDieEvent(type_=MaheDieEventType.DIE, value=rng.choice(die.values or [1, 2, 3, 4, 5, 6]))


def play_mahe(base_url: str, seed: int = 7) -> dict[str, object]:
    rng = random.Random(seed)
    colours = [CreateMaheTablePlayersItemColoursItem(c) for c in ("red", "yellow", "green", "darkblue")]
    body = CreateMaheTable(
        game=CreateMaheTableGame.MAHE,
        players=[
            CreateMaheTablePlayersItem(name=name, colours=[colour])
            for name, colour in zip(("Ada", "Bo", "Cy", "Di"), colours, strict=True)
        ],
        options=MaheOptionsRequest(chance=MaheOptionsRequestChance.PHYSICAL),
    )
    created = create_table.sync(client=Client(base_url=base_url), body=body)
    assert created is not None and not hasattr(created, "code"), created
    writer = AuthenticatedClient(base_url=base_url, token=created.write_token)
    table = created.table
    assert isinstance(table, MaheTable)
    while not table.finished:
        event = choose(table, rng)
        appended = append_event.sync(
            table.id,
            client=writer,
            body=Append(expected_version=table.version, event=event),
            idempotency_key=str(uuid.uuid4()),
        )
        assert appended is not None and hasattr(appended, "table"), appended
        assert isinstance(appended.table, MaheTable)
        table = appended.table
    log = get_log.sync(table.id, client=Client(base_url=base_url), limit=50)
    assert log is not None and hasattr(log, "events")
    result = table.result
    assert result is not None and not isinstance(result, type(None))
    return {
        "id": table.id,
        "version": table.version,
        "winners": list(result.winners),
        "ranking": [(r.name, r.eggs, r.place) for r in result.ranking],
        "first_page": [entry.seq for entry in log.events],
        "next_after": log.next_after,
    }


def score_mhing(base_url: str) -> dict[str, object]:
    """The rule book's hand: b3 jk=b4 b5 laid out, the rest hidden, a flower, out on a discard."""
    answer = score_mhing_hand.sync(
        client=Client(base_url=base_url),
        body=ScoreRequest(groups=["b3 jk=b4 b5"], hidden="c5 c5 c5 we we we dr dr jk k2 k2", flowers="f1"),
    )
    assert isinstance(answer, ScoreResult), answer
    assert answer.reading is not None
    return {
        "wins": answer.wins,
        "points": answer.points,
        "premiums": [p.code for p in answer.premiums],
        "reading": answer.reading.notation,
        "pair": answer.reading.pair.notation if answer.reading.pair else None,
    }


if __name__ == "__main__":
    base = sys.argv[1]
    print(json.dumps({"mahe": play_mahe(base), "mhing": score_mhing(base)}))
