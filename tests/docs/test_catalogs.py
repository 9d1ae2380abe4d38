"""The app's catalogs (pwa/i18n/<lang>.json): every language the app offers has every key, no key
the English catalog lacks, the same placeholders in every translation, and no English left."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "pwa" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def offered_languages() -> list[str]:
    """The languages pwa/js/i18n.js offers (LANGUAGES)."""
    source = (ROOT / "pwa" / "js" / "i18n.js").read_text(encoding="utf-8")
    match = re.search(r"export const LANGUAGES = \[([^\]]*)\]", source)
    assert match, "LANGUAGES not found in i18n.js"
    return re.findall(r'"(\w+)"', match.group(1))


def catalog(language: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{language}.json").read_text(encoding="utf-8")))


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
    texts = catalog(language)
    assert set(texts) - set(ENGLISH) == set(), "keys English does not have"
    assert set(ENGLISH) - set(texts) == set(), "keys missing"
    for key, english in ENGLISH.items():
        assert set(PLACEHOLDER.findall(texts[key])) == set(PLACEHOLDER.findall(english)), (key, texts[key])
        assert texts[key].strip(), key


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
