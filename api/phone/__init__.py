"""The phone app's build and serving: pwa/, Pyodide, the rules and the catalogs under
content-hashed names in var/static/, served by WhiteNoise in front of the API
(tests/contract/test_rooms.py)."""
