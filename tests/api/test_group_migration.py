"""Migration 0013 on a database with groups in it (SQLite and PostgreSQL): taken down to 0012 and
up again, each membership gets its game, its place (in the order the stream's ids were written:
when it joined, then table id) and its finished flag back; the group has no kept figures until its
first read, which builds them equal to the recount, and the stream's ids still name the same
tables."""

from __future__ import annotations

from alembic import command

from api.db.migrate import alembic_config, upgrade
from tests.api.group_builder import end, file_finished, mhing_table, new_group, stores
from tests.api.test_group_figures import assert_kept_equals_recount
from tests.conftest import make_test_app


def test_0013_backfills_places_and_figures_are_built_on_first_read(db_url: str) -> None:
    app = make_test_app(db_url)
    tables, groups = stores(app)
    gid, token, players = new_group(groups, 3)
    for i in range(3):
        file_finished(groups, gid, token, players[i % 2 : i % 2 + 2], [(i % 2, 4)])
    open_id, open_token, version = mhing_table(tables, [(0, 2)], 2)
    groups.add_table(gid, token, open_id, open_token, players[1:])
    before = groups.outcomes(gid)
    stats = app.test_client().get(f"/api/groups/{gid}/stats").get_json()
    tables.engine.dispose()

    command.downgrade(alembic_config(db_url), "0012")
    upgrade(db_url)

    app = make_test_app(db_url)
    tables, groups = stores(app)
    assert groups.outcomes(gid) == before
    assert [m.position for m in groups.memberships(gid)] == [1, 2, 3, 4]
    assert {m.game for m in groups.memberships(gid)} == {"mhing"}
    assert app.test_client().get(f"/api/groups/{gid}/stats").get_json() == stats  # rebuilt on read
    assert_kept_equals_recount(tables, groups, gid)
    end(tables, open_id, open_token, version)  # and kept from then on
    assert app.test_client().get(f"/api/groups/{gid}/stats").get_json()["counted_tables"] == 4
    assert_kept_equals_recount(tables, groups, gid)
