"""Where a rule book exists in a page's language, the rules page and the phone speak its words.

The books are in shared/rules/sources (German Mahé, Magellan and Mhing, French and Italian Mahé).
Each term pinned here is checked twice: the book uses it (so the pin is the book's word, not ours)
and the page uses it. Words a book does not use, and that crept in before (German example names on
the French page, "Strand-Eier", the Italian "sballo"), must stay off the page and the phone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from devtools import rules_pages

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT.parent / "shared" / "rules" / "sources"
RULES_DIR = ROOT / "pwa" / "rules"
CATALOGS = ROOT / "pwa" / "i18n"

#: page → (its rule book, terms both use)
BOOK_TERMS = {
    "mahe.fr.html": (
        "mahe-fr.txt",
        # the book's own example players (MA-10) and its words for raft, beach, egg cards, carried turtles
        [
            "Arthur",
            "Jeanne",
            "Caroline",
            "Florent",
            "radeau",
            "case départ",
            "plage",
            "cartes oeufs",
            "portée",
        ],
    ),
    "mahe.de.html": (
        "mahe-de.txt",
        [
            "Gelege-Feld",
            "7-er Gelege",
            "Gelege-Karten",
            "Strandfeld",
            "Floß",
            "zu hoch",
            "Augensumme",
            "Stapel",
        ],
    ),
    "mahe.it.html": (
        "mahe-it.txt",
        ["testuggin", "zattera", "supera", "spiaggia", "mazzo", "portare in spalla"],
    ),
    "magellan.de.html": (
        "magellan-de.txt",
        [
            "Versteigerer",
            "Geldbeutel",
            "Ablagestapel",
            "Geldkarten",
            "Entdeckerkarten",
            "Siegpunkte",
            "Kolumbus",
        ],
    ),
    "mhing.de.html": (
        "mhing-de.txt",
        [
            "Stoß",
            "Farbkarten",
            "Bildkarten",
            "Dreiergruppe",
            "Drilling",
            "Sequenz",
            "Ausnahmeblatt",
            "unterbrochene Straße",
            "Prämienkarte",
            "Geber",
        ],
    ),
}

#: page or catalog → words its language's book does not use, that must not come back
NOT_THE_BOOKS = {
    "mahe.fr.html": ("mahe-fr.txt", [r"\bMartin\b", r"\bEva\b", r"\bDavid\b", r"\bAndrea\b"]),
    "mahe.de.html": ("mahe-de.txt", [r"Strand-Eier"]),
    "mahe.it.html": ("mahe-it.txt", [r"(?i)sball", r"(?i)tartarug"]),
}


def book(name: str) -> str:
    path = SOURCES / name
    if not path.exists():
        pytest.skip("shared/rules/sources is not beside the checkout")
    return path.read_text(encoding="utf-8")


def plain(text: str) -> str:
    """Tags and the French œ ligature (the book's OCR writes "oe") out of the way."""
    text = re.sub(r"<[^>]+>", "", text).replace("œ", "oe").replace("\u00a0", " ")
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("page", sorted(BOOK_TERMS))
def test_the_page_uses_its_books_terms(page: str) -> None:
    source, terms = BOOK_TERMS[page]
    text, words = plain(book(source)), plain(rules_pages.text(page))
    for term in terms:
        assert term in text, f"{source} does not say {term!r}: not a term of the book"
        assert term in words, f"{page} does not use the book's {term!r}"


@pytest.mark.parametrize("page", sorted(NOT_THE_BOOKS))
def test_the_page_does_not_use_words_its_book_lacks(page: str) -> None:
    source, patterns = NOT_THE_BOOKS[page]
    text, words = plain(book(source)), plain(rules_pages.text(page))
    for pattern in patterns:
        assert not re.search(pattern, text), f"{source} does use {pattern!r}"
        assert not re.search(pattern, words), f"{page} uses {pattern!r}, which its book does not"


def test_the_french_mahe_example_is_the_french_books() -> None:
    """MA-10's example: Arthur wins the tie with Caroline on cards, as in the French book."""
    assert "Arthur et Caroline sont à égalité" in plain(book("mahe-fr.txt"))
    words = plain(rules_pages.text("mahe.fr.html"))
    assert "Arthur et Caroline sont à égalité" in words
    assert "Arthur gagne" in words


def catalog(language: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((CATALOGS / f"{language}.json").read_text(encoding="utf-8"))
    return texts


def test_the_italian_phone_says_what_the_italian_book_says_for_a_bust() -> None:
    """The Italian Mahé book never says "sballo": over 7, the testuggine goes back to the zattera."""
    assert "sball" not in book("mahe-it.txt").lower()
    mahe = {k: v for k, v in catalog("it").items() if not k.startswith(("magellan.", "mhing."))}
    wrong = {k: v for k, v in mahe.items() if "sball" in v.lower()}
    assert not wrong, wrong
    assert "zattera" in mahe["mahe.moved_bust"] and "7" in mahe["mahe.bust"]


def test_the_german_phone_says_what_the_german_books_say() -> None:
    texts = catalog("de")
    mahe, magellan = book("mahe-de.txt"), book("magellan-de.txt")
    assert not [k for k, v in texts.items() if "Strand-Eier" in v]
    assert "Gelege" in texts["mahe.took_beach"] and "Gelege" in mahe
    assert texts["magellan.auctioneer"] == "Versteigerer" and "Versteigerer" in magellan
    assert texts["magellan.sheet.bags"] == "Geldbeutel" and "Geldbeutel" in magellan
    assert not [k for k, v in texts.items() if re.search("Auktionator|Geldsäck", v)]
