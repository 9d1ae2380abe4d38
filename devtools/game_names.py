"""Product files outside the game folders that name a game (issue 34, item 1).

`python -m devtools.game_names` prints the count and each file with the lines that name a game;
tests/contract/test_game_names.py fails when a file outside the allowed list does.

A file names a game when its code does: an identifier (`mahe`, `MAGELLAN_EVENTS`, an import path),
a string without spaces (`"mhing"`, `"js/games/mahe/index.js"`, `"MaheView"`) or, in JavaScript, a
quoted name inside a comment (a JSDoc type such as `{"mahe" | "mhing"}`). Prose — comments,
docstrings, sentences for people — may still take a game as its example. The games are the folders
of api.rules.registry.GAME_FOLDERS with their titles and schema prefixes; the game folders
(`api/rules/<game>/`, `api/games/<game>/`, `pwa/js/games/<game>/`) are where they belong.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import unicodedata
from pathlib import Path

from api.rules.registry import GAME_FOLDERS, MANIFESTS

ROOT = Path(__file__).resolve().parents[1]
# The product code: the server, and the phone app (its modules, its entry point and service worker).
SCANNED = (("api", "**/*.py"), ("pwa/js", "**/*.js"), ("pwa", "*.js"))
# The one list of games per runtime (the server's and the phone's registry): justified exceptions.
ALLOWED = ("api/rules/registry.py", "pwa/js/games/registry.js")


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


WORDS = sorted({_plain(w) for m in MANIFESTS.values() for w in (m.id, m.title, m.schema_prefix)})
# A game's word inside an identifier or path: `mahe`, `MAHE_EVENTS`, `MaheView`, `games/mahe/`.
NAMING = re.compile(
    r"(?<![a-z])(" + "|".join(WORDS) + r")(?![a-z])|(" + "|".join(w.capitalize() for w in WORDS) + ")"
)
ROOMS = ("api/rules", "api/games", "pwa/js/games")  # where each game has its folder


def _names(text: str) -> bool:
    return bool(NAMING.search(_plain(text)) or NAMING.search(unicodedata.normalize("NFKD", text)))


def in_game_folder(path: str) -> bool:
    return any(path.startswith(f"{room}/{game}/") for game in GAME_FOLDERS for room in ROOMS)


def python_hits(source: str) -> list[tuple[int, str]]:
    """(line, token) for each identifier or spaceless string naming a game, docstrings left aside."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(first.lineno)
    hits = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        code = token.type == tokenize.NAME or (
            token.type == tokenize.STRING
            and token.start[0] not in docstrings
            and not re.search(r"\s", token.string)
        )
        if code and _names(token.string):
            hits.append((token.start[0], token.string))
    return hits


_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")


def javascript_hits(source: str) -> list[tuple[int, str]]:
    """(line, token) for each identifier or spaceless string naming a game, and each quoted name in a
    comment (JSDoc types live there); comments' prose and sentences left aside."""
    hits: list[tuple[int, str]] = []
    i, line, previous = 0, 1, ""

    def check(text: str, at: int, quoted_only: bool = False) -> None:
        if quoted_only:
            for found in re.finditer(r"[\"'`]([^\"'`\s]*)[\"'`]", text):
                if _names(found.group(1)):
                    hits.append((at + text[: found.start()].count("\n"), found.group(0)))
        elif not re.search(r"\s", text) and _names(text):
            hits.append((at, text))

    while i < len(source):
        c = source[i]
        if source.startswith("//", i) or source.startswith("/*", i):
            block = source[i + 1] == "*"
            end = source.find("*/" if block else "\n", i + 2)
            end = len(source) if end < 0 else end + (2 if block else 0)
            check(source[i:end], line, quoted_only=True)
            line += source.count("\n", i, end)
            i = end
            continue
        if c in "\"'`" or (c == "/" and previous in _REGEX_BEFORE | {""}):
            j = i + 1
            while j < len(source) and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            check(source[i + 1 : j], line)
            line += source.count("\n", i, j)
            i, previous = j + 1, c
            continue
        if c.isalpha() or c in "_$":
            j = i
            while j < len(source) and (source[j].isalnum() or source[j] in "_$"):
                j += 1
            check(source[i:j], line)
            i, previous = j, "a"
            continue
        if c == "\n":
            line += 1
        elif not c.isspace():
            previous = c
        i += 1
    return hits


def offenders(root: Path = ROOT) -> dict[str, list[tuple[int, str]]]:
    """Each product file outside the game folders that names a game, with its hits."""
    found = {}
    for folder, pattern in SCANNED:
        for path in sorted((root / folder).glob(pattern)):
            name = path.relative_to(root).as_posix()
            if in_game_folder(name):
                continue
            text = path.read_text(encoding="utf-8")
            hits = python_hits(text) if name.endswith(".py") else javascript_hits(text)
            if hits:
                found[name] = hits
    return found


def main() -> None:
    found = offenders()
    for name, hits in found.items():
        shown = ", ".join(f"{line}:{token}" for line, token in hits[:6])
        print(f"{name} ({len(hits)}): {shown}{' …' if len(hits) > 6 else ''}")
    others = [name for name in found if name not in ALLOWED]
    besides = ", ".join(ALLOWED)
    print(f"files outside game folders naming a game: {len(found)} ({len(others)} besides {besides})")
    sys.exit(0)


if __name__ == "__main__":
    main()
