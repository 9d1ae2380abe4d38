"""Every language of the rule books on a phone whose browser speaks it: the app follows the browser,
each game's table and a rules page show no catalog key and no English sentence, and a refused move
comes back with its reason in that language (the server's catalog; the same stable code)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .helpers import PWA, ApiTable
from .test_a11y import games, table_from

LANGUAGES = ["de", "fr", "it", "nl", "es"]
# What a forgotten translation looks like on screen: a catalog key, or English function words.
KEY_PREFIXES = sorted({key.split(".")[0] for key in json.loads((PWA / "i18n" / "en.json").read_text())})
CATALOG_KEY = re.compile(rf"\b(?:{'|'.join(KEY_PREFIXES)})\.[a-z_]+(?:\.[a-z_0-9]+)*\b")
ENGLISH = re.compile(r"\b(?:the|and|your|with|which|first|cards?|turtles?|points)\b")


def english_sentences(language: str) -> list[str]:
    """The English catalog's longer texts (their fixed parts) that the language translates."""
    english = json.loads((PWA / "i18n" / "en.json").read_text())
    other = json.loads((PWA / "i18n" / f"{language}.json").read_text())
    parts: list[str] = []
    for key, text in english.items():
        if other.get(key) == text:
            continue
        parts += [part.strip() for part in re.split(r"\{\w+\}", text) if len(part.strip()) >= 16]
    return parts


def own_words(language: str) -> set[str]:
    """The words the language's own catalog uses: an English-looking word among them is its own."""
    texts = json.loads((PWA / "i18n" / f"{language}.json").read_text()).values()
    return {word for text in texts for word in re.findall(r"\w+", text)}


def untranslated(page: Any, language: str, screen: str) -> list[str]:
    text = page.locator("body").inner_text()
    found = [f"{screen}: catalog key {m}" for m in CATALOG_KEY.findall(text)]
    words = own_words(language)  # French writes "points" too
    found += [f"{screen}: English {m!r}" for m in sorted(set(ENGLISH.findall(text))) if m not in words]
    found += [f"{screen}: English sentence {s!r}" for s in english_sentences(language) if s in text]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_screen_in_the_browsers_language(live_server: str, new_phone: Any, language: str) -> None:
    page = new_phone(locale=language)
    page.goto(live_server + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)  # the browser's language, unasked
    found = untranslated(page, language, "home")
    for game, whole in games().items():
        table = table_from(live_server, whole, upto=len(whole.events) // 2)
        page.goto(table.link)
        expect(page.get_by_test_id("actionbar")).to_be_visible()
        found += untranslated(page, language, game)
    page.goto(f"{live_server}/rules/mahe.{language}.html")
    expect(page.locator("html")).to_have_attribute("lang", language)
    found += untranslated(page, language, "rules")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_move_says_why_in_the_language(live_server: str, new_phone: Any, language: str) -> None:
    """MA-7: a die before the egg card is up. The app's request carries the language on screen; the
    server's refusal comes back in it with the same code; the phone's own referee says it alike."""
    players = [{"name": "Ann", "colours": ["red", "green"]}, {"name": "Bob", "colours": ["yellow", "purple"]}]
    table = ApiTable(live_server, "mahe", players, {"chance": "physical"})
    page = new_phone(locale=language)
    page.goto(table.link)
    expect(page.get_by_test_id("actionbar")).to_be_visible()
    refused = page.evaluate(
        """async ([id, token]) => {
          const api = await import("/js/api.js");
          try { await api.postEvent(id, token, 0, { type: "die", value: 3 }); return null; }
          catch (err) { return { code: err.code, detail: err.problem.detail }; }
        }""",
        [table.id, table.token],
    )
    english = requests.post(
        f"{live_server}/api/tables/{table.id}/events",
        json={"expected_version": 0, "event": {"type": "die", "value": 3}},
        headers={"Authorization": f"Bearer {table.token}"},
        timeout=5,
    ).json()
    assert refused["code"] == english["code"] == "reveal-card-first"
    assert refused["detail"] != english["detail"] and "MA-7" in refused["detail"]
    local = page.evaluate(
        """async (problem) => (await import("/js/i18n.js")).refusalText(problem)""",
        {"detail": english["detail"], "template": english["detail"], "params": {}},
    )
    assert local == refused["detail"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phones_referee_says_the_parts_of_a_refusal_in_the_language(
    live_server: str, new_phone: Any, language: str
) -> None:
    """MA-9: Ann moves only her own turtles. The phone's own referee (Pyodide) refuses the yellow
    one and names hers, "red or green", in the language on screen: word for word the server's
    answer for that Accept-Language, the list and its "or" included."""
    players = [{"name": "Ann", "colours": ["red", "green"]}, {"name": "Bob", "colours": ["yellow", "purple"]}]
    table = ApiTable(live_server, "mahe", players, {"chance": "physical"})
    reveal, wrong = {"type": "reveal_card", "value": 4}, {"type": "choose_turtle", "turtle": "yellow"}
    auth = {"Authorization": f"Bearer {table.token}"}
    url = f"{live_server}/api/tables/{table.id}/events"
    assert requests.post(url, json={"expected_version": 0, "event": reveal}, headers=auth, timeout=5).ok
    server = requests.post(
        url,
        json={"expected_version": 1, "event": wrong},
        headers={**auth, "Accept-Language": language},
        timeout=5,
    ).json()
    assert server["code"] == "not-your-turtle"

    page = new_phone(locale=language)
    page.goto(table.link)
    expect(page.get_by_test_id("actionbar")).to_be_visible()
    local = page.evaluate(
        """async ([players, events, event]) => {
          const referee = await import("/js/referee/client.js");
          await referee.ask({ op: "open", id: "lang", game: "mahe", players, options: { chance: "physical" },
                              seed: 1, events });
          const answer = await referee.ask({ op: "apply", id: "lang", event });
          return { code: answer.error.code, text: (await import("/js/i18n.js")).refusalText(answer.error) };
        }""",
        [players, [reveal], wrong],
    )
    assert local == {"code": "not-your-turtle", "text": server["detail"]}
    assert " or " not in local["text"] and "red" not in local["text"]
