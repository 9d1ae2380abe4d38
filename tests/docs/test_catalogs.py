"""The app's catalogs (pwa/i18n/<lang>.json): every language the app offers has every key, no key
the English catalog lacks, the same placeholders in every translation, and no English left.

A message with a count is plural: `key.one`, `key.other`, … — one text per plural category of the
language's CLDR rules (the phone picks one with Intl.PluralRules; Babel knows the same rules here),
so French has `key.many` where English has not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel import Locale

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "pwa" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL_KEY = re.compile(r"^(?P<base>.+)\.(?P<form>zero|one|two|few|many|other)$")
# A number put before a counted noun outside a plural message ("{n} cards") reads "1 cards".
NOUNS = "eggs?|fields?|cards?|points?|pts?|premiums?|crowns?|ships?|rounds?|entr(?:y|ies)|players?"
COUNTED = re.compile(rf"\{{\w+\}} (?:{NOUNS})\b")
# The plain messages that do so, and why they never say 1.
NEVER_ONE = {
    "home.players_range": "2–5 players",
    "mhing.setup.variant2_only": "2 to 4 players",
    "mhing.reason.too_many": "a hand of more than 14 cards",
    "mhing.card_count": "the hand's 14 cards",
    "mhing.count_short": "the hand's 14 cards",
    "mhing.caption_full": "the hand's 14 cards",
    "mhing.result.explain.target": "500 points or more",
    "mhing.result.explain.all-points": "500 points for each player",
    "mhing.standings_v2": "500 points for each player",
    "sum.play_card": "not a count: the egg card's name, 'the 3 card'",
}


def offered_languages() -> list[str]:
    """The languages pwa/js/i18n.js offers (LANGUAGES)."""
    source = (ROOT / "pwa" / "js" / "i18n.js").read_text(encoding="utf-8")
    match = re.search(r"export const LANGUAGES = \[([^\]]*)\]", source)
    assert match, "LANGUAGES not found in i18n.js"
    return re.findall(r'"(\w+)"', match.group(1))


def catalog(language: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{language}.json").read_text(encoding="utf-8")))


def plural_forms(texts: dict[str, str]) -> dict[str, set[str]]:
    """Each plural message (a key with `.one` and `.other` forms) and the forms the catalog gives."""
    forms: dict[str, set[str]] = {}
    for key in texts:
        match = PLURAL_KEY.match(key)
        if match and {f"{match['base']}.one", f"{match['base']}.other"} <= set(texts):
            forms.setdefault(match["base"], set()).add(match["form"])
    return forms


def plain_keys(texts: dict[str, str]) -> set[str]:
    """The keys that are not the forms of a plural message."""
    plural = plural_forms(texts)
    return {key for key in texts if not ((m := PLURAL_KEY.match(key)) and m["base"] in plural)}


def cldr_categories(language: str) -> set[str]:
    """The plural categories the language's CLDR rules use (Babel): {"one", "other"} in English."""
    return set(Locale.parse(language).plural_form.tags) | {"other"}


ENGLISH = catalog("en")
GERMAN = catalog("de")
PROPER_NAMES = ("magellan.explorer.",)
OTHERS = [language for language in offered_languages() if language != "en"]


def test_the_languages_of_the_rule_books() -> None:
    """Mahé's box prints its rules in German, English, French, Dutch, Italian and Spanish."""
    assert set(offered_languages()) == {"en", "de", "fr", "it", "nl", "es"}
    assert sorted(path.stem for path in I18N.glob("*.json")) == sorted(offered_languages())


@pytest.mark.parametrize("language", OTHERS)
def test_same_keys_and_placeholders(language: str) -> None:
    """Plural messages may have other forms than English (French `.many`): the same messages, and
    each form with the placeholders of the English form of that name, else of English `.other`."""
    texts = catalog(language)
    assert plain_keys(texts) - plain_keys(ENGLISH) == set(), "keys English does not have"
    assert plain_keys(ENGLISH) - plain_keys(texts) == set(), "keys missing"
    assert set(plural_forms(texts)) == set(plural_forms(ENGLISH)), "plural messages differ"
    for key, text in texts.items():
        match = PLURAL_KEY.match(key)
        english = ENGLISH.get(key) or (ENGLISH[f"{match['base']}.other"] if match else "")
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english)), (key, text)
        assert text.strip(), key


@pytest.mark.parametrize("language", offered_languages())
def test_plural_messages_have_the_languages_cldr_forms(language: str) -> None:
    """Every plural message has exactly the forms the language's CLDR rules select: `one` and
    `other` in English, German and Dutch, also `many` in French, Italian and Spanish (a million)."""
    needed = cldr_categories(language)
    assert {"one", "other"} <= needed
    forms = plural_forms(catalog(language))
    assert len(forms) >= 40, "the count messages are plural"
    wrong = {base: sorted(have) for base, have in forms.items() if have != needed}
    assert wrong == {}, f"{language} needs {sorted(needed)}"


def test_the_count_messages_are_plural() -> None:
    """The messages that put a count before a noun ("shows {count} eggs") are plural messages; the
    egg card of issue 20 among them. The few that never count 1 are named."""
    forms = plural_forms(ENGLISH)
    for base in (
        "sum.reveal",
        "mahe.moved",
        "result.explain.eggs",
        "mhing.payments_title",
        "magellan.sum.winner",
    ):
        assert base in forms, base
    assert ENGLISH["sum.reveal.one"] == "The face-up egg card shows {count} egg."
    plain = {key: text for key, text in ENGLISH.items() if key in plain_keys(ENGLISH)}
    counted = {key for key, text in plain.items() if COUNTED.search(text)}
    assert counted == set(NEVER_ONE)


@pytest.mark.parametrize("language", [lang for lang in OTHERS if lang != "de"])
def test_no_english_left(language: str) -> None:
    """A text may stay as in English only where the German translators kept it too (names,
    symbols, notation) or where it is a proper name a language may keep or spell its own way (the
    explorers: Columbus is "Kolumbus" in German but "Columbus" in Dutch); every other English sentence
    must be translated."""
    texts = catalog(language)
    left = [
        key
        for key, english in ENGLISH.items()
        if texts[key] == english
        and GERMAN[key] != english
        and re.search(r"[A-Za-z]{3,}", english)
        and not key.startswith(PROPER_NAMES)
    ]
    assert left == [], f"{language}: still English: {left}"
