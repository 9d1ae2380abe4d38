"""One source per sentence: what the referee says (notes, refusals, waiting texts) lives in the
server's catalogs (api/i18n: messages.pot, <lang>.po) and the phone says it from them
(pwa/js/i18n.js noteText/refusalText, the catalogs served as /referee/messages/<lang>.json); the
phone's own catalogs (pwa/i18n/<lang>.json) hold the screen's words only. A sentence written in both
is two copies that drift apart, so this fails on one, in any of the six languages.

Sentences are compared with their placeholders' names and rule numbers left out ("{dealer} deals
… (MH-2)" = "{name} deals …"); words and short phrases that a screen names on its own (a colour,
an explorer, "The game is over.") are not sentences here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from api.i18n import CATALOG_DIR

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "de", "fr", "it", "es", "nl")
MIN_WORDS = 5
# The phone's sentences that say what a referee sentence says, each with why it is the phone's.
OWN = {
    "mhing.standings_v1": "the standings' caption, on a finished game too, where the referee sends no note",
    "magellan.sum.cook_pull_digital": "a log line about a recorded pull (the referee's is a waiting text)",
    "magellan.bar.cook_digital": "the bar's prompt for the app's pull; in German worded as the note",
}


def normal(sentence: str) -> str:
    sentence = re.sub(r"\{\w+\}", "{}", sentence)
    sentence = re.sub(r"\s*\((?:MA|MG|MH|GEN)-\d+(?:, (?:MA|MG|MH|GEN)-\d+)*\)", "", sentence)
    return " ".join(sentence.split()).rstrip(".!").lower()


def server_sentences(language: str) -> set[str]:
    name = "messages.pot" if language == "en" else f"{language}.po"
    with (CATALOG_DIR / name).open("rb") as source:
        catalog = read_po(source)
    texts = (m.id if language == "en" else m.string for m in catalog if m.id)
    return {normal(text) for text in texts if isinstance(text, str) and text}


def phone_sentences(language: str) -> dict[str, str]:
    texts = json.loads((ROOT / "pwa" / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return {key: normal(text) for key, text in texts.items() if key not in OWN}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_referee_sentence_is_written_again_in_the_phone_catalog(language: str) -> None:
    server = server_sentences(language)
    again = {
        key: text
        for key, text in phone_sentences(language).items()
        if len(text.split()) >= MIN_WORDS and text in server
    }
    assert again == {}, "say these from the server's catalog (noteText/refusalText) and drop the copy"


def test_the_check_sees_a_copy() -> None:
    """A note the phone used to keep (Mahé's last-die note, rule number dropped) counts as a copy."""
    copy = normal("A third die is the last one: over 7 busts, otherwise the move is made.")
    assert copy in server_sentences("en")


def test_the_exceptions_are_still_needed() -> None:
    """An exception whose sentence is gone from either side is dropped from OWN."""
    texts = {lang: json.loads((ROOT / "pwa" / "i18n" / f"{lang}.json").read_text()) for lang in LANGUAGES}
    for key in OWN:
        assert any(normal(texts[lang][key]) in server_sentences(lang) for lang in LANGUAGES), key
