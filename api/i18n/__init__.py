"""The server's sentences in other languages: gettext catalogs, one `<lang>.po` per language beside
`messages.pot` (made by `python -m devtools.messages`), read and compiled with Babel.

A refusal or a note is said from its template (the catalog's message id) and its values; values that
are game terms (a turtle's colour, an explorer) are looked up too. Without a catalog entry the English
sentence stays. Which language a request asks for is decided in api/http/i18n.py.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

CATALOG_DIR = Path(__file__).resolve().parent
DEFAULT = "en"
LANGUAGES = ("en", "de", "fr", "it", "nl", "es")


@cache
def catalog_of(language: str) -> Catalog | None:
    """A language's catalog as translators wrote it, or None (English, or no catalog yet)."""
    path = CATALOG_DIR / f"{language}.po"
    if language == DEFAULT or not path.is_file():
        return None
    with path.open("rb") as source:
        return read_po(source, locale=language)


@cache
def translations(language: str) -> Translations | None:
    """The compiled catalog of a language (gettext), or None."""
    catalog = catalog_of(language)
    if catalog is None:
        return None
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def messages_json(language: str) -> bytes:
    """A catalog as the phone reads it ({template: sentence}), so its own referee's refusals are
    said in the player's language offline too, from the same catalogs."""
    catalog = catalog_of(language)
    pairs = (
        {}
        if catalog is None
        else {m.id: m.string for m in catalog if isinstance(m.id, str) and m.id and m.string}
    )
    return json.dumps(pairs, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def available() -> list[str]:
    return [language for language in LANGUAGES if language == DEFAULT or translations(language) is not None]


def localize(template: str, params: Mapping[str, Any], language: str) -> str:
    """`template` said in `language`, with `params` put in (game terms translated as well)."""
    english = template.format(**params) if params else template
    catalog = translations(language)
    if catalog is None:
        return english
    text = catalog.gettext(template)
    values = {key: _value(v, language, catalog) for key, v in params.items()}
    try:
        said = text.format(**values) if params else text
    except (KeyError, IndexError, ValueError):  # a broken translation never breaks an answer
        return english
    # A sentence the translation opens with a value ("{what} : il faut …") starts with a capital.
    return said[:1].upper() + said[1:] if text.startswith("{") and template[:1].isupper() else said


def _value(value: Any, language: str, catalog: Translations) -> Any:
    """A value put into a sentence: a sentence of its own (say(...)) is said in the language from its
    own template; a phrase or game term from the catalog when it has one."""
    template, params = getattr(value, "template", None), getattr(value, "params", None)
    if isinstance(template, str) and isinstance(params, Mapping):
        return localize(template, params, language)
    return catalog.gettext(value) if isinstance(value, str) else value


def localize_notes(value: Any, language: str) -> Any:
    """`value` (a view, legal actions, a seat's view) with every referee note's text in `language`."""
    if language == DEFAULT:
        return value
    if isinstance(value, list):
        return [localize_notes(item, language) for item in value]
    if not isinstance(value, dict):
        return value
    if "code" in value and "template" in value and "text" in value:
        return {**value, "text": localize(value["template"], value.get("params") or {}, language)}
    return {key: localize_notes(item, language) for key, item in value.items()}
