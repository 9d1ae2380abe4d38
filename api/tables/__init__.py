"""Tables: one game being played, kept as an append-only event log with a cached state."""
