"""The server's message catalog template: every refusal the rules and the API can say.

`python -m devtools.messages` writes `api/i18n/messages.pot` from the sources with Babel's extractor
(the templates given to `say(...)`, the phrases given to `term(...)`, and plain sentences given to
the rule errors and ApiProblem) plus the game terms that go into them as values (turtle colours,
explorer names). Translators fill
`api/i18n/<lang>.po`; tests/api/test_i18n.py fails when the template is stale or a catalog lacks a
message or changes a placeholder.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from api.rules.magellan.constants import EXPLORER_NAMES
from api.rules.mahe.constants import TURTLE_COLOURS

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "api" / "i18n" / "messages.pot"
KEYWORDS = {
    "say": (1,),
    "term": (1,),
    "counted": (2, 3),  # counted(n, one, other): two sentences, each its own catalog entry
    "IllegalMove": (2,),
    "InvalidSetup": (2,),
    "MalformedEvent": (2,),
    "RuleError": (2,),
    "ApiProblem": (3,),
    "note": (3,),  # a referee note: note(code, rule, text)
}
# Words the sentences take as values: translated too when a catalog has them.
TERMS = (*TURTLE_COLOURS, *EXPLORER_NAMES.values(), "die", "egg card")


def template() -> bytes:
    catalog = Catalog(project="Kibitz", fuzzy=False)
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT / "api"), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        for text in message if isinstance(message, tuple) else (message,):
            if isinstance(text, str) and any(ch.isalpha() for ch in text):  # not a bare "."
                catalog.add(text)
    for term in TERMS:
        catalog.add(term)
    out = io.BytesIO()
    write_po(out, catalog, omit_header=True, sort_output=True, no_location=True, width=0)
    return out.getvalue()


if __name__ == "__main__":
    TEMPLATE.write_bytes(template())
    print(f"wrote {TEMPLATE.relative_to(ROOT)}")
