"""Behaviour pinned: every recorded Magellan game (all 64 side combinations, both depths, both chance
modes, undos) replays to byte-identical states, legal actions, views and results."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.magellan_corpus import recorded, replay_digest

GAMES = recorded()


def test_the_corpus_covers_every_side_combination_depth_and_chance() -> None:
    assert len({tuple(sorted(g["options"]["sides"].items())) for g in GAMES}) == 64
    assert Counter((g["options"]["depth"], g["options"]["chance"]) for g in GAMES) == {
        (depth, chance): 16 for depth in ("outcomes", "ledger") for chance in ("physical", "digital")
    }
    assert any(e["type"] == "undo" for g in GAMES for e in g["events"])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"seed{g['seed']}")
def test_recorded_game_replays_identically(game: dict) -> None:
    assert replay_digest(game) == game["digest"]
