"""Every referee Decision of REFEREE.md is shown on the app's rules pages, in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from devtools.rules_powers import BEGIN, written

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT.parent / "shared" / "rules" / "REFEREE.md"
RULES_DIR = ROOT / "pwa" / "rules"
GAMES = {"MA": "mahe", "MG": "magellan", "MH": "mhing"}
LANGUAGES = tuple(key for key in json.loads((RULES_DIR / "index.json").read_text())["mahe"] if len(key) == 2)


def referee_rules() -> dict[str, bool]:
    """Rule number → whether its paragraph carries a **Decision**."""
    if not REFEREE.exists():
        pytest.skip("shared/rules/REFEREE.md is not beside the checkout")
    rules: dict[str, bool] = {}
    current = None
    for line in REFEREE.read_text().splitlines():
        match = re.match(r"\*\*(M[AGH]-\d+)\b", line)
        if match:
            current = match.group(1)
            rules[current] = False
        if current and "**Decision" in line:
            rules[current] = True
    return rules


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_every_rule_and_decision_has_its_anchor(prefix: str, language: str) -> None:
    page = (RULES_DIR / f"{GAMES[prefix]}.{language}.html").read_text()
    for rule, has_decision in referee_rules().items():
        if not rule.startswith(prefix):
            continue
        assert f'id="{rule}"' in page, f"{rule} has no section"
        if has_decision:
            assert f'id="decision-{rule}"' in page, f"the Decision of {rule} is not shown"


def test_index_lists_exactly_the_decisions() -> None:
    index = json.loads((RULES_DIR / "index.json").read_text())
    rules = referee_rules()
    for prefix, game in GAMES.items():
        expected = sorted(r for r, d in rules.items() if d and r.startswith(prefix))
        assert sorted(index[game]["decisions"]) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_magellans_mg8_grid_is_the_engines_powers_table(language: str) -> None:
    """The MG-8 grid on each Magellan page is what `python -m devtools.rules_powers` writes from
    api/rules/magellan/powers.py (the engine's table) in the app's words for that language."""
    page = (RULES_DIR / f"magellan.{language}.html").read_text(encoding="utf-8")
    assert BEGIN in page, "no MG-8 grid"
    assert written(page, language) == page, "stale: run python -m devtools.rules_powers"
