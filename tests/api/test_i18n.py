"""The server answers in the asker's language: `detail` from the gettext catalogs in api/i18n
(negotiated from Accept-Language), the stable `code` unchanged; the catalogs cover every message."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from api.i18n import CATALOG_DIR, LANGUAGES, localize, translations
from api.rules.errors import either
from devtools.messages import TEMPLATE, template
from tests.api.table_client import TableDriver
from tests.api.test_magellan_examples_http import RED, sell

PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+)\}(?!\})")
CATALOGS = sorted(path.stem for path in CATALOG_DIR.glob("*.po"))


def catalog_of(language: str) -> Any:
    with (CATALOG_DIR / f"{language}.po").open("rb") as source:
        return read_po(source, locale=language)


def test_the_template_is_current() -> None:
    """Every sentence the rules and the API refuse with is in messages.pot (python -m devtools.messages)."""
    assert TEMPLATE.read_bytes() == template()


def test_the_catalogs_are_the_served_languages() -> None:
    assert set(CATALOGS) == set(LANGUAGES) - {"en"}, "a language without its catalog, or the reverse"


@pytest.mark.parametrize("language", CATALOGS)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    with TEMPLATE.open("rb") as source:
        messages = [m for m in read_po(source) if m.id]
    catalog = catalog_of(language)
    ids = {m.id for m in messages}
    assert {m.id for m in catalog if m.id} == ids, "missing or extra messages"
    for message in messages:
        translated = catalog.get(message.id).string
        assert translated, f"{language}: {message.id!r} is not translated"
        assert sorted(set(PLACEHOLDER.findall(translated))) == sorted(set(PLACEHOLDER.findall(message.id))), (
            language,
            message.id,
            translated,
        )


def new_mahe(client: FlaskClient) -> tuple[str, dict[str, str]]:
    created = client.post(
        "/api/tables",
        json={
            "game": "mahe",
            "players": [
                {"name": "Ann", "colours": ["red", "green"]},
                {"name": "Bob", "colours": ["yellow", "purple"]},
            ],
            "options": {"chance": "physical"},
        },
    ).get_json()
    return created["id"], {"Authorization": f"Bearer {created['write_token']}"}


def post(
    client: FlaskClient,
    table_id: str,
    headers: dict[str, str],
    version: int,
    event: dict[str, Any],
    **more: str,
):
    return client.post(
        f"/api/tables/{table_id}/events",
        json={"expected_version": version, "event": event},
        headers={**headers, **more},
    )


@pytest.mark.parametrize("language", ["fr", "it", "de"])
def test_the_same_illegal_move_in_three_languages(client: FlaskClient, language: str) -> None:
    """MA-7: a die before the egg card is turned up; MA-9: another player's turtle. Same code, same
    rule, the sentence in the asked language (with the colour translated too); the table unchanged."""
    table_id, auth = new_mahe(client)
    english = post(client, table_id, auth, 0, {"type": "die", "value": 3})
    asked = post(client, table_id, auth, 0, {"type": "die", "value": 3}, **{"Accept-Language": language})
    assert asked.status_code == english.status_code == 422
    assert asked.get_json()["code"] == english.get_json()["code"] == "reveal-card-first"
    assert asked.get_json()["rule"] == "MA-7"
    assert asked.headers["Content-Language"] == language
    assert "Accept-Language" in asked.headers["Vary"]
    catalog = translations(language)
    assert catalog is not None
    assert (
        asked.get_json()["detail"]
        == catalog.gettext(english.get_json()["detail"])
        != english.get_json()["detail"]
    )

    assert post(client, table_id, auth, 0, {"type": "reveal_card", "value": 4}).status_code == 201
    wrong = {"type": "choose_turtle", "turtle": "yellow"}
    english = post(client, table_id, auth, 1, wrong).get_json()
    asked = post(
        client, table_id, auth, 1, wrong, **{"Accept-Language": f"{language}-CH, en;q=0.5"}
    ).get_json()
    assert asked["code"] == english["code"] == "not-your-turtle"
    expected = localize(
        "The {turtle} turtle is not {name}'s; {name} moves {items} (MA-9).",
        {"turtle": "yellow", "name": "Ann", "items": either(["red", "green"])},
        language,
    )
    assert asked["detail"] == expected != english["detail"]
    assert catalog.gettext("yellow") in asked["detail"] and "Ann" in asked["detail"]
    # The list of Ann's turtles is said in the language too, "or" included.
    both = catalog.gettext("{first} or {second}").format(
        first=catalog.gettext("red"), second=catalog.gettext("green")
    )
    assert both in asked["detail"] and " or " not in asked["detail"]
    assert client.get(f"/api/tables/{table_id}").get_json()["version"] == 1  # refusals store nothing


def test_unknown_languages_get_english(client: FlaskClient) -> None:
    table_id, auth = new_mahe(client)
    answer = post(
        client, table_id, auth, 0, {"type": "die", "value": 3}, **{"Accept-Language": "ja, ko;q=0.8"}
    )
    assert answer.headers["Content-Language"] == "en"
    assert answer.get_json()["detail"] == "First turn up the next egg card and type in its value (MA-7)."


def test_through_gunicorn(live_server: str) -> None:
    """The same through the real server: German refusal, same code."""
    created = requests.post(
        f"{live_server}/api/tables",
        json={"game": "mhing", "players": [{"name": "Ann"}, {"name": "Ben"}], "options": {}},
        timeout=5,
    ).json()
    event = {"type": "round_won", "winner": 0, "hand": {"hidden": "b1 b2"}}
    answer = requests.post(
        f"{live_server}/api/tables/{created['id']}/events",
        json={"expected_version": 0, "event": event},
        headers={"Authorization": f"Bearer {created['write_token']}", "Accept-Language": "de-DE"},
        timeout=5,
    )
    english = requests.post(
        f"{live_server}/api/tables/{created['id']}/events",
        json={"expected_version": 0, "event": event},
        headers={"Authorization": f"Bearer {created['write_token']}"},
        timeout=5,
    )
    assert answer.status_code == english.status_code == 422
    assert answer.json()["code"] == english.json()["code"]
    assert answer.json()["detail"] != english.json()["detail"]
    assert answer.headers["Content-Language"] == "de"


@pytest.mark.parametrize("language", ["fr", "it", "de", "nl", "es"])
def test_legal_action_notes_in_the_asked_language(client: FlaskClient, language: str) -> None:
    """MG-8 Vasco A in outcomes depth: the note "Red draws 1 money card now." comes in the asked
    language (same code, rule, params and template); each language has its own ETag and cached answer."""
    table = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
        options={"depth": "outcomes", "chance": "physical"},
    )
    sell(table, "vasco", RED)
    english = client.get(f"/api/tables/{table.id}")
    asked = client.get(f"/api/tables/{table.id}", headers={"Accept-Language": language})
    note = next(n for n in english.get_json()["legal_actions"]["notes"] if n["code"] == "vasco-draw")
    said = next(n for n in asked.get_json()["legal_actions"]["notes"] if n["code"] == "vasco-draw")
    assert note["text"] == "Red draws 1 money card now." and note["template"] == said["template"]
    assert {k: v for k, v in said.items() if k != "text"} == {k: v for k, v in note.items() if k != "text"}
    assert said["text"] == localize(note["template"], note["params"], language) != note["text"]
    assert "Red" in said["text"] and "1" in said["text"]
    assert asked.headers["ETag"] != english.headers["ETag"] and "Accept-Language" in asked.headers["Vary"]
    again = client.get(
        f"/api/tables/{table.id}",
        headers={"Accept-Language": language, "If-None-Match": asked.headers["ETag"]},
    )
    assert again.status_code == 304
    assert client.get(f"/api/tables/{table.id}").get_json() == english.get_json()  # English stays English


def _first_stream_event(client: FlaskClient, url: str, **headers: str) -> dict[str, Any]:
    """The first `table` event of a live stream (under the test client a stream ends after it)."""
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    data = next(line for line in response.get_data(as_text=True).splitlines() if line.startswith("data:"))
    return dict(json.loads(data.removeprefix("data:")))


def test_a_live_stream_says_its_notes_in_the_apps_language(client: FlaskClient) -> None:
    """A browser's EventSource sends no headers of its own: `?lang=` carries the language the player
    chose in the app, over the browser's Accept-Language; the notes are the table's in that language."""
    table = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
        options={"depth": "outcomes", "chance": "physical"},
    )
    sell(table, "vasco", RED)
    url = f"/api/tables/{table.id}/stream"
    for chosen, browser in (("de", "fr"), ("it-CH", "de"), ("es", "")):
        streamed = _first_stream_event(client, f"{url}?lang={chosen}", **{"Accept-Language": browser})
        read = client.get(f"/api/tables/{table.id}", headers={"Accept-Language": chosen}).get_json()
        assert streamed["table"]["legal_actions"] == read["legal_actions"]
        note = next(n for n in streamed["table"]["legal_actions"]["notes"] if n["code"] == "vasco-draw")
        assert note["text"] == localize(note["template"], note["params"], chosen.split("-")[0])
    # Without ?lang the browser's own language; an unknown one is English, a malformed one a 400.
    by_header = _first_stream_event(client, url, **{"Accept-Language": "nl"})
    dutch = client.get(f"/api/tables/{table.id}", headers={"Accept-Language": "nl"}).get_json()
    assert by_header["table"] == dutch
    english = client.get(f"/api/tables/{table.id}").get_json()
    assert _first_stream_event(client, f"{url}?lang=tlh")["table"] == english
    refused = client.get(f"{url}?lang=de;DROP")
    assert refused.status_code == 400 and refused.get_json()["code"] == "bad-lang"


@pytest.mark.parametrize("language", ["fr", "it", "de", "nl", "es"])
def test_a_refusal_says_the_sentence_and_the_phrase_inside_it_in_the_language(
    client: FlaskClient, language: str
) -> None:
    """MG-6: paying while Cook is still auctioned. The refusal's phrase ("payment") and the sentence
    it quotes about what the game waits for (MG-4) are said in the language too: no English inside."""
    table = TableDriver.create(
        client,
        game="magellan",
        players=[{"name": "Red"}, {"name": "Blue"}, {"name": "Green"}],
        options={"depth": "outcomes", "chance": "physical"},
    )
    table.play({"type": "reveal", "explorer": "cook"})
    pay = {"type": "pay", "cards": [1]}
    english = table.post(pay).get_json()
    assert (
        english["detail"]
        == "There is no payment to record now: Cook is being auctioned; Red bids or passes (MG-4)."
    )
    asked = client.post(
        f"/api/tables/{table.id}/events",
        json={"expected_version": table.table["version"], "event": pay},
        headers={"Authorization": f"Bearer {table.token}", "Accept-Language": language},
    ).get_json()
    catalog = translations(language)
    assert catalog is not None
    waiting = catalog.gettext("{explorer} is being auctioned; {bidder} bids or passes (MG-4).").format(
        explorer=catalog.gettext("Cook"), bidder="Red"
    )
    said = catalog.gettext("There is no {what} to record now: {waiting_text}").format(
        what=catalog.gettext("payment"), waiting_text=waiting
    )
    assert asked["code"] == english["code"] == "not-now"
    assert asked["detail"] == said
    assert "auctioned" not in said and "payment" not in said


def test_content_language_says_what_the_detail_is_written_in(client: FlaskClient) -> None:
    """A language refused with q=0 is not served; a detail no catalog has stays English and says so."""
    table_id, auth = new_mahe(client)
    refused = post(
        client, table_id, auth, 0, {"type": "die", "value": 3}, **{"Accept-Language": "de;q=0, fr"}
    )
    assert refused.headers["Content-Language"] == "fr"
    missing = client.get("/api/tables/nope0000000000000000", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"
    assert missing.get_json()["detail"].startswith("There is no table")
    assert missing.headers["Content-Language"] == "en"


PAIRS = [["darkblue", "purple"], ["green", "black"]]


@pytest.mark.parametrize(
    ("players", "english", "german"),
    [
        (
            [["red"], PAIRS[0]],
            "two turtles: Eva gave only one colour (MA-2)",
            "zwei Schildkröten: Eva hat nur eine Farbe",
        ),
        (
            [["red", "yellow"], *PAIRS, ["lightblue"]],
            "one turtle: Eva gave 2 colours (MA-2)",
            "eine Schildkröte: Eva hat 2 Farben",
        ),
    ],
)
def test_the_colour_count_says_its_number_and_its_turtles_in_the_language(
    client: FlaskClient, players: list[list[str]], english: str, german: str
) -> None:
    """MA-2: two turtles each with 2–3 players, one with 4–7. One colour is not "1 colours", and the
    turtles are a phrase of the catalog, so German says them in German too."""
    names = ["Eva", "Tom", "Ann", "Bob"]
    body = {
        "game": "mahe",
        "players": [{"name": n, "colours": c} for n, c in zip(names, players, strict=False)],
    }
    said = client.post("/api/tables", json=body).get_json()
    assert said["code"] == "colour-count" and english in said["detail"], said
    asked = client.post("/api/tables", json=body, headers={"Accept-Language": "de"}).get_json()
    assert german in asked["detail"] and "turtle" not in asked["detail"], asked
