"""Every referee Decision of REFEREE.md is shown on the app's rules pages, in every language.

A rule may carry more than one **Decision** (MG-1 has two, MH-6 several). Each Decision is an
`<aside class="decision">` of its own in the rule's section: the first has the id `decision-<rule>`
(where the phone's "why?" links point), the n-th `decision-<rule>-<n>`. The general rules (GEN-…)
hold in every game, so every game's page shows them too.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from devtools import rules_pages
from devtools.rules_powers import BEGIN, written

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT.parent / "shared" / "rules" / "REFEREE.md"
RULES_DIR = ROOT / "pwa" / "rules"
INDEX = json.loads((RULES_DIR / "index.json").read_text(encoding="utf-8"))
GAMES = {"MA": "mahe", "MG": "magellan", "MH": "mhing"}
LANGUAGES = tuple(key for key in INDEX["mahe"] if len(key) == 2)
#: The Mhing pages' words for a sequence and a triplet.
WORDS = {
    "en": ("sequence", "triplet"),
    "de": ("Sequenz", "Drilling"),
    "fr": ("suite", "brelan"),
    "it": ("sequenza", "tris"),
    "nl": ("reeks", "drieling"),
    "es": ("escalera", "trío"),
}


def referee_rules() -> dict[str, int]:
    """Rule number (GEN-1, MA-3, …) → how many **Decision paragraphs it carries in REFEREE.md."""
    if not REFEREE.exists():
        pytest.skip("shared/rules/REFEREE.md is not beside the checkout")
    rules: dict[str, int] = {}
    current = None
    for line in REFEREE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\*\*((?:GEN|M[AGH])-\d+)\b", line)
        if match:
            current = match.group(1)
            rules[current] = 0
        elif line.startswith("#") or line.startswith("---"):
            current = None
        if current:
            rules[current] += line.count("**Decision")
    return rules


def shown_on(prefix: str, rules: dict[str, int]) -> dict[str, int]:
    """The rules a game's page shows: its own and the general ones."""
    return {rule: n for rule, n in rules.items() if rule.startswith((prefix + "-", "GEN-"))}


def anchors(rule: str, count: int) -> list[str]:
    """The ids of a rule's Decisions: decision-MG-1, decision-MG-1-2, …"""
    return [f"decision-{rule}" + (f"-{n}" if n > 1 else "") for n in range(1, count + 1)]


class _Decisions(HTMLParser):
    """The ids of the rule sections and, per section, the ids of its Decision asides in page order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[str] = []
        self.decisions: dict[str, list[str]] = {}
        self.text: dict[str, str] = {}
        self._section: str | None = None
        self._aside: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        classes = attributes.get("class", "").split()
        if tag == "section" and "rule" in classes:
            self._section = attributes.get("id", "")
            self.sections.append(self._section)
        if tag == "aside" and "decision" in classes and "ruling" not in classes:
            self._aside = attributes.get("id", "")
            self.decisions.setdefault(self._section or "", []).append(self._aside)
            self.text[self._aside] = ""
        if self._aside and tag == "a":
            self.text[self._aside] += f" [{attributes.get('href', '')}] "

    def handle_endtag(self, tag: str) -> None:
        if tag == "aside":
            self._aside = None
        if tag == "section":
            self._section = None

    def handle_data(self, data: str) -> None:
        if self._aside:
            self.text[self._aside] += data


def page_decisions(game: str, language: str) -> _Decisions:
    parser = _Decisions()
    parser.feed(rules_pages.text(f"{game}.{language}.html"))
    parser.close()
    return parser


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_every_rule_and_decision_has_its_anchor(prefix: str, language: str) -> None:
    """Each rule has its section, and in it exactly one Decision aside per **Decision of REFEREE.md."""
    page = page_decisions(GAMES[prefix], language)
    for rule, count in shown_on(prefix, referee_rules()).items():
        assert rule in page.sections, f"{rule} has no section"
        assert page.decisions.get(rule, []) == anchors(rule, count), (
            f"{rule} carries {count} Decision(s) in REFEREE.md; its section shows {page.decisions.get(rule)}"
        )
    stray = set(page.decisions) - set(shown_on(prefix, referee_rules()))
    assert not stray, f"Decisions outside a rule of REFEREE.md: {stray}"


def test_referee_md_still_has_the_decisions_the_pages_were_written_for() -> None:
    """Guards the counting above: if REFEREE.md's layout changed, the count would silently drop."""
    rules = referee_rules()
    assert rules["GEN-1"] == 1
    assert rules["MG-1"] == 2
    assert rules["MH-3"] == 1
    assert rules["MH-6"] >= 2
    assert rules["MA-2"] == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_decisions_say_what_they_decide(language: str) -> None:
    """Issue 20's Decisions (GEN-1 on every page: the anchor test above): MH-3 (no "nothing fits" on a
    discard), MH-6 (a 4-5-6 *sequence*), MG-1 (sides per explorer) – each aside names what it is about."""
    mhing = page_decisions("mhing", language).text
    assert "[#MH-7]" in mhing["decision-MH-3"] and "[#MH-9]" in mhing["decision-MH-3"]
    assert "[#MH-4]" in mhing["decision-MH-3"]
    sequence, triplet = WORDS[language]
    broken = [
        text
        for key, text in mhing.items()
        if key.startswith("decision-MH-6") and re.search(rf"{sequence}\W+4-5-6|4-5-6\W+{sequence}", text)
    ]
    assert any(triplet in text for text in broken), "no Decision: a triplet of 5s does not prevent it"
    magellan = page_decisions("magellan", language).text
    assert re.search(r"\(A \w+ B\)", magellan["decision-MG-1-2"]), "MG-1's second Decision names no sides"


def test_index_lists_exactly_the_decisions() -> None:
    """index.json: the rules with a Decision (the phone's "why?" links), every Decision's anchor, and the
    general rules – all as REFEREE.md has them, and the anchors as the English page shows them."""
    rules = referee_rules()
    for prefix, game in GAMES.items():
        expected = sorted(r for r, n in rules.items() if n and r.startswith(prefix + "-"))
        assert sorted(INDEX[game]["decisions"]) == expected
        assert INDEX[game]["general"] == [r for r in rules if r.startswith("GEN-")]
        listed = sorted(a for rule, n in shown_on(prefix, rules).items() for a in anchors(rule, n))
        assert sorted(INDEX[game]["decision_anchors"]) == listed
        page = page_decisions(game, "en")
        assert [a for section in page.sections for a in page.decisions.get(section, [])] == INDEX[game][
            "decision_anchors"
        ], "index.json lists the anchors in page order"


@pytest.mark.parametrize("language", LANGUAGES)
def test_magellans_mg8_grid_is_the_engines_powers_table(language: str) -> None:
    """The MG-8 grid on each Magellan page is what devtools.rules_powers writes from
    api/rules/magellan/powers.py (the engine's table) in the app's words for that language."""
    page = rules_pages.text(f"magellan.{language}.html")
    assert BEGIN in page, "no MG-8 grid"
    assert written(page, language) == page, "stale: run python -m devtools.rules_pages"


@pytest.mark.parametrize("game", rules_pages.games())
def test_each_page_is_built_from_its_own_text_and_the_shared_parts(game: str) -> None:
    """A page's source (pwa/rules/src/<game>.<lang>.html) is its own text only; the head, header,
    footer and general rules (GEN-…) are written once and the same on every game's page."""
    assert rules_pages.languages() == list(LANGUAGES)
    for language in LANGUAGES:
        source = (RULES_DIR / "src" / f"{game}.{language}.html").read_text(encoding="utf-8")
        assert not re.search(r"<(?:!DOCTYPE|html|head|header|footer|main)\b", source), (game, language)
        assert 'id="GEN-1"' not in source and rules_pages.GENERAL_TOC in source
        page = rules_pages.text(f"{game}.{language}.html")
        general = (RULES_DIR / "src" / f"general.{language}.html").read_text(encoding="utf-8")
        assert page.count('<section class="rule" id="GEN-1"') == 1 and general.partition("\n")[2] in page
        assert f'<html lang="{language}">' in page and page.count("<footer") == 1
