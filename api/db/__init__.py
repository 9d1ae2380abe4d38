"""Storage: SQLAlchemy Core tables, engine setup and Alembic migrations."""
