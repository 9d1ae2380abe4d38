"""The rules pages' MG-8 grid, written from the referee's own powers table.

devtools.rules_pages puts into every `pwa/rules/magellan.<lang>.html`, right after the first
paragraph of MG-8, a table of what each explorer does on each side and field (`written`): which
fields act and how much (draws, phase) come from `api/rules/magellan/powers.py`, the words from the
app's own catalog (`pwa/i18n/<lang>.json`, the same texts the table screen shows).
tests/docs/test_rules_pages.py fails when a page's grid is not what this writes, so the pages cannot
drift from the engine.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from api.rules.magellan.constants import EXPLORERS, FIELDS, ROMAN, SIDES
from api.rules.magellan.powers import POWERS, Power

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "pwa" / "rules"
CATALOGS = ROOT / "pwa" / "i18n"
BEGIN = "<!-- powers: written by python -m devtools.rules_powers from api/rules/magellan/powers.py -->"
END = "<!-- /powers -->"
AFTER_INTRO = re.compile(r'(<section class="rule" id="MG-8"[^>]*>\s*<h2[^>]*>.*?</h2>\s*<p>.*?</p>\n)', re.S)
BLOCK = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n", re.S)


def say(texts: dict[str, str], key: str, **values: object) -> str:
    """A catalog text with its values, the plural form picked as the app picks it for 1, 2, 3."""
    if "count" in values and f"{key}.one" in texts:
        key += ".one" if values["count"] == 1 else ".other"
    return texts[key].format(**values)


def cell_text(texts: dict[str, str], power: Power) -> str | None:
    """What the table screen says for this cell (pwa/js/games/magellan/panels.js actionText)."""
    if not power.acts:
        return None
    key = f"magellan.action.{power.explorer}.{power.side}"
    return say(texts, key, field=ROMAN[power.field], count=power.draws or power.draws_left)


def side_cell(texts: dict[str, str], explorer: str, side: str) -> str:
    """The lines of one explorer's side: fields with the same words together, none: no action."""
    groups: dict[str, list[int]] = {}
    for field in FIELDS:
        text = cell_text(texts, POWERS[explorer, side, field])
        if text is not None:
            groups.setdefault(text, []).append(field)
    if not groups:
        return html.escape(texts["magellan.powers.none"])
    if len(groups) == 1:
        return html.escape(next(iter(groups)))
    lines = [
        f'<span class="num">{"/".join(ROMAN[f] for f in fields)}</span> {html.escape(text)}'
        for text, fields in groups.items()
    ]
    return "<br>".join(lines)


def grid(language: str) -> str:
    texts: dict[str, str] = json.loads((CATALOGS / f"{language}.json").read_text(encoding="utf-8"))
    sides = [texts["magellan.side_n"].format(side=side) for side in SIDES]
    heads = "".join(f'<th scope="col">{html.escape(label[:1].upper() + label[1:])}</th>' for label in sides)
    rows = "".join(
        f'\n      <tr><th scope="row">{html.escape(texts[f"magellan.explorer.{explorer}"])}</th>'
        + "".join(f"<td>{side_cell(texts, explorer, side)}</td>" for side in SIDES)
        + "</tr>"
        for explorer in EXPLORERS
    )
    return (
        f"{BEGIN}\n"
        '  <div class="table-wrap" tabindex="0" role="region" aria-labelledby="MG-8-powers-title">\n'
        '    <table class="powers" id="MG-8-powers">\n'
        f'      <caption id="MG-8-powers-title">{html.escape(texts["magellan.powers.title"])}</caption>\n'
        f'      <thead><tr><th scope="col">{html.escape(texts["magellan.powers.explorer"])}</th>'
        f"{heads}</tr></thead>\n"
        f"      <tbody>{rows}\n      </tbody>\n"
        "    </table>\n"
        "  </div>\n"
        f"{END}\n"
    )


def written(page: str, language: str) -> str:
    """The page with its grid as this module writes it."""
    block = grid(language)
    if BLOCK.search(page):
        return BLOCK.sub(lambda _: block, page, count=1)
    match = AFTER_INTRO.search(page)
    assert match, "MG-8 has no first paragraph"
    return page[: match.end()] + block + page[match.end() :]


def languages() -> list[str]:
    return sorted(p.name.split(".")[1] for p in RULES.glob("magellan.*.html"))



if __name__ == "__main__":
    from devtools import rules_pages  # the pages are written whole, the grid with them

    rules_pages.main(rules_pages.ROOT / "var" / "rules")
