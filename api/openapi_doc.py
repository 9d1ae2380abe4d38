"""`python -m api.openapi_doc > openapi.yaml`: the committed document, rendered from the app that
api.app makes (on an in-memory database). The command lives here, at the top beside the app, so that
the contract's room (api.contract) never imports the app it documents."""

from __future__ import annotations

from api.app import create_app
from api.contract.document import render_openapi


def openapi_yaml() -> str:
    """openapi.yaml as the sources say it now."""
    return render_openapi(create_app("sqlite://"))


if __name__ == "__main__":
    print(openapi_yaml(), end="")
