"""The two tables: one row per game table (with its cached state), one row per log entry."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("write_token_hash", String(64), nullable=False),
    # Number of log entries; appends compare-and-swap on it.
    Column("version", Integer, nullable=False, default=0),
    # Seq of the game event whose state is current (0 = the initial state); undo moves it back.
    Column("head", Integer, nullable=False, default=0),
    Column("initial_state", JSON, nullable=False),
    # Cached full state at `head`, so reading never replays the log.
    Column("state", JSON, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # One token hash per seat: it opens that player's private view (e.g. the own hand).
    Column("seat_token_hashes", JSON, nullable=True),
    # True when the creator chose the seed: then everyone may see it from the start (fairness).
    Column("seed_public", Boolean, nullable=False, default=False, server_default=false()),
    # A creation sent with an Idempotency-Key (api.tables.store): the key's hash (unique), the
    # request's hash, and the secret salt its tokens were derived from with the key.
    Column("creation_key_hash", String(64), nullable=True),
    Column("creation_hash", String(64), nullable=True),
    Column("creation_salt", String(64), nullable=True),
    UniqueConstraint("creation_key_hash", name="uq_game_tables_creation_key"),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # "game" or "undo"
    Column("payload", JSON, nullable=False),
    Column("undoes", Integer, nullable=True),
    Column("prev_head", Integer, nullable=False),
    Column("head_after", Integer, nullable=False),
    # The state after this entry, kept only for snapshots (api.tables.snapshots); NULL otherwise.
    Column("state", JSON(none_as_null=True), nullable=True),
    # Distance along the line of play to the nearest snapshot behind (0: this entry is one; NULL: undo).
    Column("since_snapshot", Integer, nullable=True),
    # GEN-1: True when this game entry showed a die or card the server drew (it cannot be undone);
    # NULL for undo entries.
    Column("chance_drawn", Boolean, nullable=True),
    # The record's chain (api.tables.chain): SHA-256 over the previous entry's hash, this seq and
    # this payload, and the server's Ed25519 signature of the log up to here (its key is not here).
    Column("hash", String(64), nullable=True),
    Column("signature", String(100), nullable=True),
    Column("idempotency_key", String(128), nullable=True),
    Column("request_hash", String(64), nullable=False),
    Column("summary", Text, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
    UniqueConstraint("table_id", "idempotency_key", name="uq_events_table_idem"),
)

board_sheets = Table(
    "board_sheets",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("name", String(80), nullable=False),
    Column("data", JSON, nullable=False),
    Column("edit_token_hash", String(64), nullable=False),
    Column("version", Integer, nullable=False, default=1),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# The library of board sheets (MG-2): numbers published for an edition, and the tables that
# confirmed them against their own board (once per table). One row per distinct set of numbers.
sheet_publications = Table(
    "sheet_publications",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("edition", String(80), nullable=False),
    Column("edition_key", String(320), nullable=False),
    Column("data", JSON, nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("filled", Integer, nullable=False),
    Column("sheet_id", String(32), nullable=True),
    Column("published_at", DateTime(timezone=True), nullable=False),
    # Who published it: a keyed hash of the client's address (api.http.sheets.client_tag), so one
    # client's publications take turns with everyone else's in a listing (issue 31).
    Column("publisher", String(64), nullable=True),
    UniqueConstraint("game", "edition_key", "fingerprint", name="uq_sheet_publications_values"),
)

sheet_confirmations = Table(
    "sheet_confirmations",
    metadata,
    Column(
        "publication_id",
        String(32),
        ForeignKey("sheet_publications.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("confirmed_at", DateTime(timezone=True), nullable=False),
    # Who confirmed (a keyed hash of the address): one client counts once per edition.
    Column("client", String(64), nullable=True),
    # pending: recorded, its table not scored yet; counted: the table reached the end of scoring
    # with the published numbers (MG-2, MG-10); void: it finished with other numbers.
    Column("status", String(8), nullable=False, server_default="pending", index=True),
    Column("counted_at", DateTime(timezone=True), nullable=True),
)

# A group (family, club): its players, and the tables it played with which player in which seat.
player_groups = Table(
    "player_groups",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("players", JSON, nullable=False),  # [{id, name, colour, emoji}], in the order they joined
    Column("edit_token_hash", String(64), nullable=False),
    Column("version", Integer, nullable=False, default=1),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

group_tables = Table(
    "group_tables",
    metadata,
    Column("group_id", String(32), ForeignKey("player_groups.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seats", JSON, nullable=False),  # the group player id in each seat
    # Given up unfinished: kept in the history, left out of the statistics.
    Column("abandoned", Boolean, nullable=False, default=False, server_default=false()),
    Column("added_at", DateTime(timezone=True), nullable=False),
    # Kept for the group's figures (issue 31, migration 0012): the table's game and place in the group
    # (1, 2, …: what the stream and history page by), whether it is finished, and the finished game's
    # facts (api.groups.facts) with the table version they were worked out at; `counted` when those
    # facts are in the group's figures (finished and not abandoned).
    Column("game", String(32), nullable=True),
    Column("position", Integer, nullable=True),
    Column("finished", Boolean, nullable=False, default=False, server_default=false()),
    Column("facts", JSON, nullable=True),
    Column("facts_version", Integer, nullable=True),
    Column("counted", Boolean, nullable=False, default=False, server_default=false()),
    Index("ix_group_tables_position", "group_id", "position", unique=True),
    Index("ix_group_tables_game", "group_id", "game", "position"),
    Index("ix_group_tables_table", "table_id"),
)

# A group's figures, kept as its tables change: subtractable sums and counters (api.groups.figures).
group_figures = Table(
    "group_figures",
    metadata,
    Column("group_id", String(32), ForeignKey("player_groups.id", ondelete="CASCADE"), primary_key=True),
    Column("figures", JSON, nullable=False),
    Column("version", Integer, nullable=False),
)

# Plays imported from a BG Stats export (issue 33, item 9, migration 0015): results with no event
# log, counted in the group like its finished tables and placed in the same sequence of places.
group_imports = Table(
    "group_imports",
    metadata,
    Column("group_id", String(32), ForeignKey("player_groups.id", ondelete="CASCADE"), primary_key=True),
    Column("import_key", String(64), primary_key=True),  # the play's own id, hashed: one import per play
    Column("position", Integer, nullable=False),
    Column("game", String(32), nullable=False),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True), nullable=False),  # the day plus the play's duration
    Column("names", JSON, nullable=False),  # the names in the file, seat by seat
    Column("seats", JSON, nullable=False),  # the group player id in each seat
    Column("facts", JSON, nullable=False),  # scores and winners as api.groups.figures keeps facts
    Column("imported_at", DateTime(timezone=True), nullable=False),
    Index("ix_group_imports_position", "group_id", "position", unique=True),
)

# The next game of a table (issue 33): the phones that sat at `table_id` follow it to `next_id`. The
# next table's write token is kept sealed with a key only the old table's write token gives (never
# stored), so a reader of the database learns no token and only a phone that held the old table's
# key gets the new one's.
table_next = Table(
    "table_next",
    metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("next_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
    Column("sealed_token", String(200), nullable=False),
    # Per seat of the old table: [{seat, next_seat, sealed}], each sealed under that seat's own token.
    Column("sealed_seats", JSON, nullable=False),
    Column("added_at", DateTime(timezone=True), nullable=False),
)
