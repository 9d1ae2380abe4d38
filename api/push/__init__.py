"""The push: one read and one render per change of a table, shared by every live stream of a
process, and the press that writes those bytes to every socket that keeps up. It imports no
handler (tests/contract/test_rooms.py)."""
