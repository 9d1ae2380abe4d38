"""The app's rules pages, `pwa/rules/<game>.<lang>.html`, written from one source per game and language.

`pwa/rules/src/<game>.<lang>.html` is a page's own text (introduction, contents, rule sections);
what every page shares is written once: the head, the header with its language bar and the footer
from `pwa/rules/src/pages.json` (each language's words, each game's title, byline and sources), the
general rules (GEN-…) from `pwa/rules/src/general.<lang>.html` (their line in the contents where the
source says `<!-- general rules: contents -->`), and Magellan's MG-8 grid from the referee's powers
table (devtools.rules_powers).

The pages are built, not kept: api/phone/static_build.py serves what `built()` returns (so the tree
holds each sentence once), the tests read them through `text()`, and
`python -m devtools.rules_pages [folder]` writes them out to look at (default var/rules).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from devtools import rules_powers

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "pwa" / "rules"
SOURCES = RULES / "src"
GENERAL_TOC = "    <!-- general rules: contents -->\n"


def _index() -> dict[str, Any]:
    return dict(json.loads((RULES / "index.json").read_text(encoding="utf-8")))


def games() -> list[str]:
    return list(_index())


def languages() -> list[str]:
    """The pages' languages in the order of the language bars (index.json)."""
    return [key for key in _index()[games()[0]] if len(key) == 2]


def _sources() -> dict[str, Any]:
    return dict(json.loads((SOURCES / "pages.json").read_text(encoding="utf-8")))


def page(game: str, language: str) -> str:
    """One page as it is served."""
    source = _sources()
    words, own = source["words"][language], source["games"][game][language]
    others = [lang for lang in languages() if lang != language]
    names = {lang: source["words"][lang]["language_name"] for lang in languages()}
    toc, general = _general(language)
    body = (SOURCES / f"{game}.{language}.html").read_text(encoding="utf-8").replace(GENERAL_TOC, toc)
    alternates = "".join(f'<link rel="alternate" hreflang="{o}" href="{game}.{o}.html">\n' for o in others)
    bar = "".join(
        f'<li><a class="bar-lang" href="{game}.{o}.html" hreflang="{o}" lang="{o}">{names[o]}</a></li>'
        for o in others
    )
    games_ = " · ".join(
        f'<a href="{other}.{language}.html">{source["games"][other][language]["name"]}</a>'
        for other in games()
        if other != game
    )
    back_to = "de" if language == "en" else "en"  # the footer offers English, or German on the English page
    text = (
        "<!DOCTYPE html>\n"
        f'<html lang="{language}">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{own['title']}</title>\n"
        f'<meta name="description" content="{own["description"]}">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<link rel="stylesheet" href="rules.css">\n'
        '<link rel="icon" type="image/png" sizes="192x192" href="../icons/icon-192.png">\n'
        f"{alternates}"
        "</head>\n"
        "<body>\n"
        f'<a class="skip" href="#content">{words["skip"]}</a>\n'
        '<header class="page-head">\n'
        f'  <nav class="bar" aria-label="{words["navigation"]}">\n'
        f'    <a class="bar-back" href="../index.html">{words["back"]}</a>\n'
        f'    <ul class="bar-langs" aria-label="{words["languages"]}">{bar}</ul>\n'
        "  </nav>\n"
        f'  <p class="kicker">{words["kicker"]}</p>\n'
        f"  <h1>{own['name']}</h1>\n"
        f'  <p class="byline">{own["byline"]}</p>\n'
        "</header>\n"
        '<main id="content">\n'
        f"{body}{general}"
        "</main>\n"
        '<footer class="page-foot">\n'
        f"  <p>{words['other_games']}\n"
        f"    {games_}\n"
        "  </p>\n"
        f'  <p class="small">{own["source"]}</p>\n'
        f'  <p><a href="../index.html">{words["back"]}</a> · '
        f'<a href="{game}.{back_to}.html" hreflang="{back_to}" lang="{back_to}">{names[back_to]}</a></p>\n'
        "</footer>\n"
        "</body>\n"
        "</html>\n"
    )
    # The MG-8 grid is the referee's powers table, in the page's words (devtools.rules_powers).
    return rules_powers.written(text, language) if game == "magellan" else text


def _general(language: str) -> tuple[str, str]:
    """The general rules' line in the contents and their sections (the same on every game's page)."""
    text = (SOURCES / f"general.{language}.html").read_text(encoding="utf-8")
    toc, _, sections = text.partition("\n")
    return toc + "\n", sections


def built() -> dict[str, bytes]:
    """Every page under the name it is served by: {"rules/mahe.en.html": …}."""
    return {
        f"rules/{game}.{language}.html": page(game, language).encode()
        for game in games()
        for language in languages()
    }


def text(name: str) -> str:
    """One page by its file name ("magellan.de.html"), as the app serves it."""
    game, language, _ = name.split(".")
    return page(game, language)


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in built().items():
        (folder / Path(name).name).write_bytes(data)
    print(f"wrote {len(built())} pages into {folder}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "var" / "rules")
