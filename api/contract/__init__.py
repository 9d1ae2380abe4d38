"""The API's contract: the OpenAPI document's machinery (vocabulary, view schemas, conventions,
examples, problem codes). It imports no handler and not the app: the document is rendered from an
app handed to it (tests/contract/test_rooms.py)."""
