"""Every Kibitz ruling listed in pwa/rules/index.json is shown on the rules pages, in every language.

Kibitz rulings are the finer rulings the engines take beyond REFEREE.md. Each is an
`<aside class="decision ruling" id="ruling-MG-4-1">` in the section of its rule (id = "ruling-" + rule
number + "-" + running number within that rule), and index.json lists them per game under "rulings".
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from devtools import rules_pages

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "pwa" / "rules"
INDEX = json.loads((RULES_DIR / "index.json").read_text(encoding="utf-8"))
GAMES = sorted(INDEX)
LANGUAGES = tuple(key for key in INDEX["mahe"] if len(key) == 2)  # the languages with rules pages
HEADINGS = {"en": "Kibitz ruling", "de": "Kibitz-Regelung"}
RULING_ID = re.compile(r"^(M[AGH]-\d+)-([1-9]\d*)$")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Page(HTMLParser):
    """Collects the ruling asides (with their section and heading) and checks that tags nest."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.ids: list[str] = []
        self.problems: list[str] = []
        self.rulings: dict[str, dict[str, str]] = {}  # ruling id → {"section", "classes", "heading"}
        self._heading_of: str | None = None

    def _inside(self, tag: str, cls: str | None = None) -> dict[str, str] | None:
        for open_tag, attrs in reversed(self.stack):
            if open_tag == tag and (cls is None or cls in attrs.get("class", "").split()):
                return attrs
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        if "id" in attributes:
            self.ids.append(attributes["id"])
        if tag == "aside" and attributes.get("id", "").startswith("ruling-"):
            section = self._inside("section", "rule")
            self.rulings[attributes["id"].removeprefix("ruling-")] = {
                "section": section.get("id", "") if section else "",
                "classes": attributes.get("class", ""),
                "heading": "",
            }
        if tag == "h3":
            aside = self._inside("aside")
            if aside and aside.get("id", "").startswith("ruling-"):
                self._heading_of = aside["id"].removeprefix("ruling-")
        if tag not in VOID:
            self.stack.append((tag, attributes))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            opened = self.stack[-1][0] if self.stack else "nothing"
            self.problems.append(f"</{tag}> at line {self.getpos()[0]} closes <{opened}>")
            return
        self.stack.pop()
        if tag == "h3":
            self._heading_of = None

    def handle_data(self, data: str) -> None:
        if self._heading_of is not None:
            self.rulings[self._heading_of]["heading"] += data


def _page(game: str, language: str) -> _Page:
    parser = _Page()
    parser.feed(rules_pages.text(INDEX[game][language]))
    parser.close()
    return parser


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_listed_ruling_is_on_the_page(game: str, language: str) -> None:
    page = _page(game, language)
    for ruling in INDEX[game].get("rulings", []):
        assert ruling in page.rulings, f"{ruling} is listed in index.json but not on {INDEX[game][language]}"
        shown = page.rulings[ruling]
        rule = RULING_ID.match(ruling)
        assert rule, ruling
        assert shown["section"] == rule.group(1), f"{ruling} is not in the section of {rule.group(1)}"
        classes = set(shown["classes"].split())
        assert {"decision", "ruling"} <= classes, f"{ruling} has classes {shown['classes']!r}"
        heading = shown["heading"].strip()
        assert heading.startswith(HEADINGS.get(language, "Kibitz")) or "Kibitz" in heading, (
            f"{ruling} is headed {heading!r}"
        )


@pytest.mark.parametrize("game", GAMES)
def test_languages_show_the_same_rulings_as_the_index(game: str) -> None:
    listed = INDEX[game].get("rulings", [])
    assert len(set(listed)) == len(listed), f"{game}: a ruling is listed twice"
    on_pages = {language: sorted(_page(game, language).rulings) for language in LANGUAGES}
    for language in LANGUAGES:
        assert on_pages[language] == on_pages["en"], f"{game}: en and {language} show different rulings"
    assert on_pages["en"] == sorted(listed), f"{game}: the pages and index.json list different rulings"


@pytest.mark.parametrize("game", GAMES)
def test_ruling_ids_count_up_within_their_rule(game: str) -> None:
    numbers: dict[str, list[int]] = {}
    for ruling in INDEX[game].get("rulings", []):
        match = RULING_ID.match(ruling)
        assert match, f"{ruling} is not rule number + '-' + running number"
        assert match.group(1) in INDEX[game]["rules"], f"{ruling}: no rule {match.group(1)} in {game}"
        numbers.setdefault(match.group(1), []).append(int(match.group(2)))
    for rule, seen in numbers.items():
        assert sorted(seen) == list(range(1, len(seen) + 1)), f"{rule}: rulings numbered {seen}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_page_is_well_formed(game: str, language: str) -> None:
    page = _page(game, language)
    assert not page.problems, page.problems
    assert not page.stack, f"left open: {[tag for tag, _ in page.stack]}"
    duplicates = sorted({i for i in page.ids if page.ids.count(i) > 1})
    assert not duplicates, f"ids used twice: {duplicates}"
    text = rules_pages.text(INDEX[game][language])
    for target in re.findall(r'href="#([^"]+)"', text):
        assert target in page.ids, f"link to #{target} goes nowhere"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_contents_count_what_the_page_shows(game: str, language: str) -> None:
    """The line under the contents: rules (the game's and the general ones) · referee decisions (one per
    Decision block) · Kibitz rulings, as index.json lists them."""
    text = rules_pages.text(INDEX[game][language])
    line = re.search(r'<p class="toc-count">([^<]*)</p>', text)
    assert line, "no contents count"
    counts = [int(n) for n in re.findall(r"\d+", line.group(1))]
    expected = [
        len(INDEX[game]["rules"]) + len(INDEX[game]["general"]),
        len(INDEX[game]["decision_anchors"]),
        len(INDEX[game]["rulings"]),
    ]
    assert counts == expected, line.group(1)


@pytest.mark.parametrize("game", GAMES)
def test_every_language_page_links_every_other(game: str) -> None:
    """Each page's language bar and alternate links reach the same game in every other language."""
    for language in LANGUAGES:
        text = rules_pages.text(INDEX[game][language])
        assert f'<html lang="{language}">' in text
        for other in LANGUAGES:
            if other != language:
                assert f'class="bar-lang" href="{INDEX[game][other]}" hreflang="{other}"' in text, (
                    language,
                    other,
                )
                assert f'<link rel="alternate" hreflang="{other}" href="{INDEX[game][other]}">' in text, (
                    language,
                    other,
                )
