"""A game is its own folders (issue 34, item 1): no product file outside them names a game, except
the one list of games per runtime and the exceptions below, each with its reason. A new file that
names a game fails here: read the game through its manifest instead (api.rules.registry,
api.games, pwa/js/games/registry.js)."""

from __future__ import annotations

from devtools.game_names import ALLOWED, javascript_hits, offenders, python_hits

# Files that still name a game, and why. Shrink this list; never grow it.
EXCEPTIONS = {
    # The OpenAPI document's worked example is one Mahé table (its create body, log and record) and
    # one Magellan board sheet, and each game's own endpoints are shown with a request of that game:
    # example data written in a game's words (api.games.server.GameServer.examples could carry them).
    "api/contract/examples.py",
    "api/contract/response_examples.py",
}


def test_no_file_outside_the_game_folders_names_a_game() -> None:
    found = offenders()
    unexpected = {name: hits[:5] for name, hits in found.items() if name not in {*ALLOWED, *EXCEPTIONS}}
    assert unexpected == {}, f"read these games through their manifest: {unexpected}"
    # An exception that no longer names a game leaves the list.
    assert set(EXCEPTIONS) <= set(found), set(EXCEPTIONS) - set(found)


def test_the_count_sees_code_and_leaves_prose_alone() -> None:
    """The scanner is not blind: names in code count, a sentence's example does not."""
    python = 'from api.rules.mahe import x\nGAMES = ("magellan",)\n"""Mahé is a game."""\n# Mhing too\n'
    assert [token for _, token in python_hits(python)] == ["mahe", '"magellan"']
    javascript = (
        'import m from "./games/mhing/manifest.js";\n'
        "// Magellan's sheet, the prose of a comment\n"
        '/** @param {"mahe" | "other"} game */\n'
        'const text = "Mahé is a game";\n'
        "if (table.game === `magellan`) x = /mhing/.test(y);\n"
    )
    hits = [token for _, token in javascript_hits(javascript)]
    assert hits == ["./games/mhing/manifest.js", '"mahe"', "magellan", "mhing"], hits
