"""The committed openapi.yaml is exactly what the schemas generate, and a valid OpenAPI 3 document."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient
from openapi_spec_validator import validate

from api.openapi_doc import openapi_yaml
from tests.openapi_document import openapi_document

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_committed_openapi_is_not_stale() -> None:
    assert COMMITTED.read_text() == openapi_yaml(), "run `make openapi` and commit openapi.yaml"


def test_document_is_valid_and_every_operation_is_documented() -> None:
    document = openapi_document()
    validate(document)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            where = f"{method.upper()} {path}"
            assert operation.get("summary"), f"{where} has no summary"
            assert operation.get("description"), f"{where} has no description"
            errors = [code for code in operation["responses"] if code[0] in "45" or code == "default"]
            if "{" in path or method == "post":
                assert any(code[0] == "4" for code in errors), f"{where} documents no 4xx response"
            if method == "post":
                body = operation["requestBody"]["content"]["application/json"]
                assert "example" in body or "examples" in body, f"{where} has no request example"
            for code in errors:
                ref = operation["responses"][code].get("$ref", "")
                content = (
                    operation["responses"][code].get("content")
                    or document["components"]["responses"][ref.rsplit("/", 1)[-1]]["content"]
                )
                assert "application/problem+json" in content, f"{where} {code} is not problem+json"


def test_document_and_interactive_docs_are_served(client: FlaskClient) -> None:
    served = client.get("/api/openapi.json").get_json()
    assert served["info"]["title"] == "Kibitz"
    page = client.get("/api/docs")
    assert page.status_code == 200 and b"swagger-ui" in page.data
    assert client.get("/api/docs/assets/swagger-ui-bundle.js").status_code == 200
