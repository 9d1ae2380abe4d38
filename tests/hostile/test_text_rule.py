"""Issue 31, hole 5: one text rule for every free-text field (player names at tables and in the
Magellan score sheet, group names, a group player's name, colour and emoji, sheet names, editions).

The rule lives once, in api.rules.common.text; api.http.strict.FreeText applies it and the document
says it (the same words and pattern on every such field). The tests: the document's pattern and the
server's rule agree on every text of the Basic Multilingual Plane; through the real HTTP stack every
field refuses a text with the documented code or stores exactly its normalised form, and a text the
rule allows is taken by every field alike; the cases the issue names (bidi overrides in an emoji or
a colour, tab/newline/CR in a name, stacked combining marks)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.games.magellan.endpoints import SCORE_EXAMPLE
from api.http.strict import TEXT_PATTERN, TEXT_REGEX, TEXT_RULE
from api.rules.common import text
from tests.api.table_client import four_players
from tests.api.test_sheets_http import blank, filled
from tests.conftest import ROOT

PATTERN = re.compile(TEXT_PATTERN)
CODES = {"control-character", "format-character", "combining-marks"}
# What makes the rule interesting, mixed with anything else hypothesis draws.
EDGES = (
    " \u00a0\u3000\t\n\r\u0085\u2028\u2029\u200b\u200c\u200d\u202e\u2066\u00ad\ufeff\u3164"
    "\u0301\u0302\u0303\u0304\u20e3\ufe0f\u0e49\u05bc"
    "aeE\u00e9\u2640\u2764\u2b1b\u2620\U0001f3f3\U0001f308\U0001f469\U0001f3fd\U0001f4bb\U000e0041"
)
EDGY = st.text(st.sampled_from(EDGES) | st.characters(blacklist_categories=("Cs",)), max_size=16)
BMP = st.text(st.sampled_from(EDGES[: EDGES.index("\U0001f3f3")]) | st.characters(max_codepoint=0xFFFF,
              blacklist_categories=("Cs",)), max_size=16)  # fmt: skip


def allowed(raw: str) -> str | None:
    """What the rule stores for `raw` (None: refused), the fields' lengths apart."""
    try:
        stored = text.free_text(raw)
    except text.TextRefused:
        return None
    return stored or None


@settings(max_examples=1500, deadline=None)
@given(raw=BMP)
def test_the_documents_pattern_is_the_rule_on_the_basic_multilingual_plane(raw: str) -> None:
    """For any text of the BMP: the document's pattern matches it exactly when the server's rule
    takes it as sent (and it is not only spaces)."""
    try:
        text.check(raw)
        keeps = raw.strip() != ""
    except text.TextRefused:
        keeps = False
    assert (PATTERN.search(raw) is not None) == keeps


@settings(max_examples=1000, deadline=None)
@given(raw=EDGY)
def test_what_the_rule_takes_the_pattern_takes(raw: str) -> None:
    """For any text: a text the server keeps as sent matches the pattern (beyond the BMP the
    pattern is the laxer of the two: astral format characters and marks are refused by the server
    alone, as the document says)."""
    try:
        text.check(raw)
    except text.TextRefused:
        return
    if raw.strip():
        assert PATTERN.search(raw)


def _table_name(client: FlaskClient, raw: str) -> Any:
    body = four_players()
    body["players"][0]["name"] = raw
    answer = client.post("/api/tables", json=body)
    return answer, lambda: answer.get_json()["table"]["players"][0]["name"]


def _score_name(client: FlaskClient, raw: str) -> Any:
    body = copy.deepcopy(SCORE_EXAMPLE)
    body["players"][0]["name"] = raw
    answer = client.post("/api/magellan/score", json=body)
    return answer, lambda: next(r["name"] for r in answer.get_json()["ranking"] if r["seat"] == 0)


def _group(client: FlaskClient, name: str, player: dict[str, Any]) -> Any:
    return client.post("/api/groups", json={"name": name, "players": [{"name": "Ann", **player}]})


def _group_name(client: FlaskClient, raw: str) -> Any:
    answer = _group(client, raw, {})
    return answer, lambda: answer.get_json()["group"]["name"]


def _group_player(key: str) -> Callable[[FlaskClient, str], Any]:
    def attempt(client: FlaskClient, raw: str) -> Any:
        answer = _group(client, "Thursdays", {key: raw})
        return answer, lambda: answer.get_json()["group"]["players"][0][key]

    return attempt


def _sheet_name(client: FlaskClient, raw: str) -> Any:
    answer = client.post("/api/sheets", json={"game": "magellan", "name": raw, "data": blank(client)})
    return answer, lambda: client.get(f"/api/sheets/{answer.get_json()['id']}").get_json()["name"]


def _edition(client: FlaskClient, raw: str) -> Any:
    sheet = client.post(
        "/api/sheets", json={"game": "magellan", "name": "Ours", "data": filled(blank(client))}
    )
    headers = {"Authorization": f"Bearer {sheet.get_json()['edit_token']}"}
    answer = client.post(
        f"/api/sheets/{sheet.get_json()['id']}/publish", json={"edition": raw}, headers=headers
    )
    return answer, lambda: answer.get_json()["publication"]["edition"]


FIELDS: dict[str, Callable[[FlaskClient, str], Any]] = {
    "table player name": _table_name,
    "Magellan score name": _score_name,
    "group name": _group_name,
    "group player name": _group_player("name"),
    "group player colour": _group_player("colour"),
    "group player emoji": _group_player("emoji"),
    "sheet name": _sheet_name,
    "edition": _edition,
}


def outcome(client: FlaskClient, field: str, raw: str) -> tuple[int, str | None, str | None]:
    answer, stored = FIELDS[field](client, raw)
    if answer.status_code in (200, 201):
        return answer.status_code, None, stored()
    return answer.status_code, answer.get_json()["code"], None


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=EDGY)
def test_every_free_text_field_keeps_the_one_rule(client: FlaskClient, raw: str) -> None:
    """For any text of at most 16 characters (every field's shortest bound): each free-text field
    refuses it with the documented code — 400 control-character / format-character /
    combining-marks, 422 invalid-request when nothing is left once trimmed — or stores exactly the
    normalised form (NFC, trimmed) the rule allows; and all fields answer alike."""
    expected = allowed(raw)
    if expected in ("Martin", "Eva", "David", "Andrea", "Ann", "Red", "Blue", "Green"):
        return  # a player named like another at the same table: refused by the game, not the rule
    for field in FIELDS:
        status, code, stored = outcome(client, field, raw)
        if expected is None:
            assert status in (400, 422), (field, status, code)
            assert code in CODES or (status == 422 and code == "invalid-request"), (field, code)
            if status == 422 and code == "combining-marks":  # only the NFC form breaks the bound
                with pytest.raises(text.TextRefused) as split:
                    text.free_text(raw)
                assert split.value.stored, field
            if status == 400:
                with pytest.raises(text.TextRefused) as refused:
                    text.free_text(raw)
                assert refused.value.code == code and not refused.value.stored, field
        else:
            assert status in (200, 201), (field, status, code)
            assert stored == expected, field


REFUSED = {
    "right-to-left override": ("Eva loses to \u202eTom", "format-character"),
    "left-to-right isolate": ("\u2066Eva", "format-character"),
    "zero-width space": ("E\u200bva", "format-character"),
    "zero-width joiner between letters": ("E\u200dva", "format-character"),
    "tag character": ("\U0001f3f4\U000e0067\U000e0062\U000e007f", "format-character"),
    "Hangul filler": ("\u3164", "format-character"),
    "tab": ("Eva\tTom", "control-character"),
    "newline": ("Eva\nTom", "control-character"),
    "carriage return": ("Eva\r", "control-character"),
    "line separator": ("Eva\u2028Tom", "control-character"),
    "four marks in a row": ("Zalgo\u0300\u0301\u0302\u0303", "combining-marks"),
    "a mark first": ("\u0301Eva", "combining-marks"),
    "39 combining marks": ("E" + "\u0301\u0300\u0302" * 13, "combining-marks"),
}


def test_a_text_whose_nfc_form_breaks_the_marks_bound_is_refused_as_a_rule(client: FlaskClient) -> None:
    """'ù' and three marks, the last a Tibetan vowel sign NFC splits in two: valid as sent (the
    pattern matches), four marks once stored: 422, so no stored name ever breaks the pattern."""
    raw = "\u00f9\u0741\u0612\u0f73"
    assert PATTERN.search(raw)
    for field in FIELDS:
        assert outcome(client, field, raw)[:2] == (422, "combining-marks"), field


TAKEN = {
    "rainbow flag": ("\U0001f3f3\ufe0f\u200d\U0001f308", "\U0001f3f3\ufe0f\u200d\U0001f308"),
    "technologist with a skin tone": ("\U0001f469\U0001f3fd\u200d\U0001f4bb",) * 2,
    "family": ("\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",) * 2,
    "keycap": ("1\ufe0f\u20e3",) * 2,
    "heart on fire": ("\u2764\ufe0f\u200d\U0001f525",) * 2,
    "decomposed accent": (" Zoe\u0301 ", "Zo\u00e9"),
    "Thai vowel and tone": ("\u0e19\u0e49\u0e33",) * 2,
    "three marks": ("a\u0323\u0302\u0303", unicodedata.normalize("NFC", "a\u0323\u0302\u0303")),
}


@pytest.mark.parametrize("field", sorted(FIELDS))
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_issues_texts_are_refused_by_every_field(client: FlaskClient, field: str, case: str) -> None:
    raw, code = REFUSED[case]
    status, answered, _ = outcome(client, field, raw)
    # 400 for what the document's pattern refuses; 422 (the same code) for what it allows but the
    # rule does not: a format character beyond the Basic Multilingual Plane, such as a tag.
    assert (status, answered) == (422 if TEXT_REGEX.match(raw) else 400, code)
    assert (status == 422) == (case == "tag character")


@pytest.mark.parametrize("field", sorted(FIELDS))
@pytest.mark.parametrize("case", sorted(TAKEN))
def test_emoji_and_real_writing_are_taken_by_every_field(client: FlaskClient, field: str, case: str) -> None:
    raw, stored = TAKEN[case]
    assert outcome(client, field, raw)[::2] in ((201, stored), (200, stored))


def test_a_refused_text_leaves_the_group_as_it_was(client: FlaskClient) -> None:
    created = _group(client, "Thursdays", {"emoji": "\U0001f642"}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    players = [{"id": created["group"]["players"][0]["id"], "name": "Ann", "colour": "red\u202e"}]
    refused = client.put(
        f"/api/groups/{created['id']}",
        json={"name": "T", "players": players, "expected_version": 1},
        headers=headers,
    )
    assert refused.status_code == 400 and refused.get_json()["code"] == "format-character"
    group = client.get(f"/api/groups/{created['id']}").get_json()
    assert group["name"] == "Thursdays" and group["players"][0]["colour"] is None and group["version"] == 1


def test_every_free_text_field_of_the_document_says_the_one_rule() -> None:
    """The inventory: every request field a person types text into carries the same pattern and
    the same words, each with its own bounds."""
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    schemas = document["components"]["schemas"]
    fields = {
        ("PlayerSetup", "name"): 40,
        ("MagellanScorePlayer", "name"): 40,
        ("GroupCreate", "name"): 80,
        ("GroupUpdate", "name"): 80,
        ("GroupPlayer", "name"): 40,
        ("GroupPlayer", "colour"): 20,
        ("GroupPlayer", "emoji"): 16,
        ("SheetCreate", "name"): 80,
        ("SheetUpdate", "name"): 80,
        ("Publish", "edition"): 80,
        **{(f"Create{game}Table", "name"): 40 for game in ("Mahe", "Magellan", "Mhing")},
    }
    for (schema, name), longest in fields.items():
        properties = schemas[schema]["properties"]
        field = properties[name] if name in properties else properties["players"]["items"]["properties"][name]
        assert field["pattern"] == TEXT_PATTERN, (schema, name)
        assert TEXT_RULE in field["description"], (schema, name)
        assert (field["minLength"], field["maxLength"]) == (1, longest), (schema, name)


def test_javascript_reads_the_pattern_as_python_does() -> None:
    """The pattern means the same to an ECMA-262 reader without the `u` flag (emoji are surrogate
    pairs there) as to Python's re, on the issue's texts and emoji sequences."""
    samples = [raw for raw, _ in REFUSED.values()] + [raw for raw, _ in TAKEN.values()]
    samples += ["Eva", "  Eva  ", "   ", "Eva\n", "\U0001f642", "\U0001f642\u200d", "a\u200d\U0001f642"]
    samples.append(EDGES)
    script = (
        f"const p = new RegExp({json.dumps(TEXT_PATTERN)});"
        f"console.log(JSON.stringify({json.dumps(samples)}.map((s) => p.test(s))));"
    )
    answer = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(answer.stdout) == [PATTERN.search(s) is not None for s in samples]


def test_the_contract_fuzzer_keeps_the_pattern() -> None:
    """Schemathesis drops a pattern its Rust-based validator cannot compile (a surrogate range is one)
    and then sends any text as valid: the pattern must be kept whole."""
    from schemathesis.core.jsonschema.patterns import enforced_pattern

    assert enforced_pattern(TEXT_PATTERN) == TEXT_PATTERN
