"""Entry point for `gunicorn wsgi:app` (settings in gunicorn.conf.py)."""

from api.app import create_app

app = create_app()
