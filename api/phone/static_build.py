"""The folder the phone app is served from (var/static/), built from pwa/, Pyodide, the rules and the
server's catalogs: every file under a content-hashed name (served immutable, never asked for again)
with brotli and gzip siblings beside it (WhiteNoise sends the one the browser accepts).

The page finds hashed names through an import map the build writes into index.html: the sources
keep importing `./dom.js`, the browser fetches `js/dom.<hash>.js`, and a release that changes one
module changes one name (plus the small index.html and sw.js) — nothing else is downloaded again.
Every file also keeps its plain name (revalidated on every load) for the entry points (`/`, the
manifest, icons, the rules pages, which have no import map) and for browsers without import maps.

Builds are incremental and content-addressed: a hashed file that exists is complete (its compressed
siblings are written before it), so only changed files are compressed again (brotli takes ~30 s on
Pyodide's WebAssembly, once). Several processes may build at once: each file is written under a
temporary name and renamed into place. `python -m api.phone.static_build` builds (`make` does it).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import posixpath
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from whitenoise.compress import Compressor

from api.i18n import available, messages_json
from api.phone import pyc, stdlib_cut
from api.phone.bundle import PYODIDE_DIR, PYODIDE_FILES, ROOT, rules_zip
from api.phone.stdlib_cut import cut_stdlib, traced_modules
from api.rules.registry import GAME_FOLDERS, GAMES

# Where the app's sources are and where the build goes; another release can be built and served
# beside this one (benchmarks/first_visit.py does, to measure what a release costs a phone).
PWA_DIR = Path(os.environ.get("KIBITZ_PWA_DIR", ROOT / "pwa"))
STATIC_DIR = Path(os.environ.get("KIBITZ_STATIC_DIR", ROOT / "var" / "static"))
ENTRY = "index.html"
SERVICE_WORKER = "sw.js"
# Shell files that are sources of the project rather than part of the app.
NOT_SHELL = {SERVICE_WORKER, "icons/make_icons.py"}
# The rules pages' sources: the pages are built from them (devtools.rules_pages), the sources not served.
NOT_SHELL_FOLDERS = ("rules/src/",)
PYODIDE_URL = "vendor/pyodide/"  # the plain name the sources use; the build serves it hashed
# Browser libraries from npm (pinned in package-lock.json), served as they are: the charts' uPlot,
# the join links' QR codes (qrcode-generator).
VENDOR_FILES = {
    "vendor/uplot/uPlot.esm.js": ROOT / "node_modules" / "uplot" / "dist" / "uPlot.esm.js",
    "vendor/uplot/uPlot.min.css": ROOT / "node_modules" / "uplot" / "dist" / "uPlot.min.css",
    "vendor/qrcode/qrcode.mjs": ROOT / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs",
}
# A hashed name: `<stem>.<12 hex>.<ext>`, or a file in the hashed Pyodide folder.
HASHED = re.compile(r"\.[0-9a-f]{12}(?:\.[^/]+|/[^/]+)$")
# The compressed siblings are skipped where they do not pay (WhiteNoise keeps one only when it is at
# least 5 % smaller). The zips are built uncompressed on purpose: brotli packs them whole.
COMPRESSOR = Compressor(extensions=("png", "gz", "br"), quiet=True)


@dataclass(frozen=True)
class Asset:
    """One file of the app: the name its sources use, the name it is served under, its bytes."""

    logical: str
    hashed: str
    data: bytes
    plain: bool  # also served under its logical name (revalidated); all but sw.js are


@dataclass(frozen=True)
class Build:
    assets: tuple[Asset, ...]
    import_map: str  # the JSON text of index.html's import map
    csp_hash: str  # the import map's hash, for the page's Content-Security-Policy

    def hashed(self, logical: str) -> str:
        return next(asset.hashed for asset in self.assets if asset.logical == logical)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def hashed_name(logical: str, data: bytes) -> str:
    path = PurePosixPath(logical)
    return str(path.with_name(f"{path.stem}.{digest(data)}{path.suffix}"))


def shell_files() -> list[str]:
    return sorted(
        path.relative_to(PWA_DIR).as_posix()
        for path in PWA_DIR.rglob("*")
        if path.is_file()
        and path.relative_to(PWA_DIR).as_posix() not in NOT_SHELL
        and not path.relative_to(PWA_DIR).as_posix().startswith(NOT_SHELL_FOLDERS)
    )


# Where the phone's worker keeps them (pwa/js/referee/worker.js, Pyodide's loader).
RULES_AT = "/home/pyodide/kibitz"
STDLIB_AT = "/lib/python311.zip"
PYODIDE_LOCK = PYODIDE_DIR / "pyodide-lock.json"


def referee_rules(compiled: bool = False) -> bytes:
    """The rules zip: sources (compiled=True: with their `.pyc`, what benchmarks/referee_start.py
    compares)."""
    if compiled and pyc.same_python(PYODIDE_LOCK):
        return pyc.with_pycache(rules_zip(), RULES_AT, pyc.cache_tag())
    return rules_zip()


@lru_cache(maxsize=4)
def referee_stdlib(compiled: bool = True, lines: bool = False) -> bytes:
    """Pyodide's standard library cut to what the referee imports, compiled ahead when this CPython
    is Pyodide's (api/phone/pyc.py: the referee's cold start)."""
    # Cutting (docstrings out, every module parsed and written back) takes seconds of CPU, paid by
    # every server start: kept beside the build too, by what it is made of.
    full = (PYODIDE_DIR / "python_stdlib.zip").read_bytes()
    names = traced_modules()
    cut_of = full + "\n".join(names).encode() + Path(stdlib_cut.__file__).read_bytes() + sys.version.encode()
    cut = _kept("stdlib-cut", cut_of, lambda: cut_stdlib(full, names))
    if not compiled or not pyc.same_python(PYODIDE_LOCK):
        return cut
    # Compiling takes a fresh interpreter a second or two.
    made_of = cut + Path(pyc.__file__).read_bytes() + sys.version.encode() + bytes([lines])
    return _kept("stdlib", made_of, lambda: pyc.sourceless_stable(cut, STDLIB_AT, lines))


def _kept(kind: str, made_of: bytes, make: Callable[[], bytes]) -> bytes:
    """`make()`'s bytes, kept in var/pyc-cache under the hash of what they are made of."""
    kept = STATIC_DIR.parent / "pyc-cache" / f"{kind}-{hashlib.sha256(made_of).hexdigest()[:16]}.zip"
    if kept.is_file():
        return kept.read_bytes()
    data = make()
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        temporary = kept.with_name(f"{kept.name}.tmp{os.getpid()}")
        temporary.write_bytes(data)
        os.replace(temporary, kept)
    except OSError:
        pass  # a read-only checkout: made again next time
    return data


def _pyodide_assets() -> list[Asset]:
    """Pyodide loads its files from one folder (`indexURL`): the folder's name carries the hash."""
    files = {name: (PYODIDE_DIR / name).read_bytes() for name in PYODIDE_FILES}
    folder = digest(
        b"".join(name.encode() + b"\0" + hashlib.sha256(data).digest() for name, data in files.items())
    )
    return [
        Asset(PYODIDE_URL + name, f"vendor/pyodide.{folder}/{name}", data, plain=True)
        for name, data in files.items()
    ]


def _sources() -> list[Asset]:
    assets = [
        Asset(name, hashed_name(name, data), data, plain=True)
        for name in shell_files()
        if name != ENTRY
        for data in [(PWA_DIR / name).read_bytes()]
    ]
    # The rules pages, built from their sources (one per game and language, the shared parts once).
    from devtools.rules_pages import built  # noqa: PLC0415 - a build step of the checkout, not the app's

    for name, data in built().items():
        assets.append(Asset(name, hashed_name(name, data), data, plain=True))
    for language in available():
        if language != "en":
            name, data = f"referee/messages/{language}.json", messages_json(language)
            assets.append(Asset(name, hashed_name(name, data), data, plain=True))
    for game in GAMES.values():
        # A game's rules as data for screens without a table (Magellan's board sheet form, MG-2).
        if (tables := getattr(game, "phone_tables", None)) is not None:
            name = f"referee/{game.name}.json"
            data = json.dumps(tables(), sort_keys=True, separators=(",", ":")).encode()
            assets.append(Asset(name, hashed_name(name, data), data, plain=True))
    rules = referee_rules()
    assets.append(Asset("referee/rules.zip", hashed_name("referee/rules.zip", rules), rules, True))
    for name, path in VENDOR_FILES.items():
        if path.is_file():
            data = path.read_bytes()
            assets.append(Asset(name, hashed_name(name, data), data, plain=True))
    if all((PYODIDE_DIR / name).is_file() for name in (*PYODIDE_FILES, "python_stdlib.zip")):
        stdlib = referee_stdlib()
        assets.append(Asset("referee/stdlib.zip", hashed_name("referee/stdlib.zip", stdlib), stdlib, True))
        assets.extend(_pyodide_assets())
    return assets


def _import_map(assets: list[Asset]) -> str:
    """Every file a script names (modules, JSON, the referee's zips and Pyodide's folder) → its hashed
    name. `import.meta.resolve` reads it too, so a worker is told where Pyodide is."""
    imports = {
        "/" + asset.logical: "/" + asset.hashed
        for asset in assets
        if asset.logical.endswith((".js", ".mjs", ".json", ".zip"))
    }
    pyodide = next((asset for asset in assets if asset.logical.startswith(PYODIDE_URL)), None)
    if pyodide is not None:
        imports["/" + PYODIDE_URL] = "/" + pyodide.hashed.rsplit("/", 1)[0] + "/"
    return json.dumps({"imports": imports}, indent=None, separators=(",", ":"), sort_keys=True)


# A module's static imports (`import … from "x"`, `export … from "x"`, `import "x"`); dynamic
# `import()` is left out on purpose: what it loads is not needed for the first screen.
STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\s[^'";]*?\bfrom\s*["']([^"']+)["']|^[ \t]*import\s*["']([^"']+)["']""",
    re.MULTILINE,
)
APP_MODULE = "app.js"
# The screens a first visit may open directly, and the game client whose modules they need.
GAME_MODULES = {name: f"js/games/{name}/index.js" for name in GAME_FOLDERS}


def module_graph(entry: str, sources: dict[str, bytes]) -> list[str]:
    """Every module `entry` imports statically, transitively (logical names, `entry` first)."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop(0)
        if name in seen or name not in sources:
            continue
        seen.append(name)
        for found in STATIC_IMPORT.finditer(sources[name].decode("utf-8")):
            specifier = found.group(1) or found.group(2)
            if specifier.startswith("/"):
                todo.append(specifier.lstrip("/"))
            elif specifier.startswith("."):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), specifier)))
    return seen


def _preloads(assets: list[Asset]) -> str:
    """What the first screen needs, named in the page so that the browser asks for all of it at
    once instead of one import level per round trip (issue 32, on a phone's 150 ms): the app's
    static module graph, the English texts every screen starts from, and for each game the modules
    that its screens add (read by js/route-preload.js for the screen the address opens)."""
    sources = {asset.logical: asset.data for asset in assets if asset.logical.endswith((".js", ".mjs"))}
    names = {asset.logical: "/" + asset.hashed for asset in assets}
    app = module_graph(APP_MODULE, sources)
    links = [f'<link rel="modulepreload" href="{names[name]}">' for name in app]
    if "i18n/en.json" in names:
        links.append(f'<link rel="preload" as="fetch" crossorigin href="{names["i18n/en.json"]}">')
    games = {
        game: [names[name] for name in module_graph(entry, sources) if name not in app]
        for game, entry in GAME_MODULES.items()
        if entry in sources
    }
    routes = json.dumps(games, separators=(",", ":"), sort_keys=True).replace("</", "<\\/")
    links.append(f'<script type="application/json" id="route-modules">{routes}</script>')
    return "\n  ".join(links) + "\n  "


def _entry(assets: list[Asset], import_map: str) -> bytes:
    """index.html with its stylesheets, icons and module under hashed names, the import map and the
    first screen's preloads."""
    html = (PWA_DIR / ENTRY).read_text(encoding="utf-8")
    names = {asset.logical: asset.hashed for asset in assets if asset.plain}

    def rename(found: re.Match[str]) -> str:
        attribute, url = found.group(1), found.group(2)
        if url.endswith(".webmanifest") or url not in names:
            return found.group(0)
        return f'{attribute}="{names[url]}"'

    html = re.sub(r'\b(href|src)="([^"#?:]+)"', rename, html)
    script = f'<script type="importmap">{import_map}</script>\n  ' + _preloads(assets)
    at = html.index('<script type="module"')
    return (html[:at] + script + html[at:]).encode()


def _service_worker(assets: list[Asset], entry: Asset) -> bytes:
    """sw.js with its precache list: [the URL a page asks for, the hashed URL it is kept under], and
    each kept file's size (the phone's progress bar while it precaches)."""
    routes = [["./", "/" + entry.hashed]]
    routes += [["/" + asset.logical, "/" + asset.hashed] for asset in assets]
    sizes = {hashed: len(asset.data) for asset in assets for hashed in ["/" + asset.hashed]}
    source = (PWA_DIR / SERVICE_WORKER).read_text(encoding="utf-8")
    return (
        source.replace("self.__PRECACHE_SIZES__", json.dumps(sizes, separators=(",", ":"), sort_keys=True))
        .replace("self.__PRECACHE__", json.dumps(routes, separators=(",", ":")))
        .encode()
    )


def plan() -> Build:
    """What the folder holds for the sources as they are now (nothing written)."""
    assets = _sources()
    import_map = _import_map(assets)
    entry_data = _entry(assets, import_map)
    entry = Asset(ENTRY, hashed_name(ENTRY, entry_data), entry_data, plain=True)
    worker = Asset(SERVICE_WORKER, SERVICE_WORKER, _service_worker([*assets, entry], entry), plain=True)
    csp_hash = "'sha256-" + base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode() + "'"
    return Build((*assets, entry, worker), import_map, csp_hash)


def _write(path: Path, data: bytes, compress: Callable[[Path], None]) -> None:
    """`data` at `path`, its compressed siblings renamed into place first (so a complete file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.tmp{os.getpid()}")
    temporary.write_bytes(data)
    compress(temporary)
    for suffix in (".br", ".gz"):
        sibling = Path(f"{temporary}{suffix}")
        if sibling.exists():
            os.replace(sibling, f"{path}{suffix}")
        else:
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.replace(temporary, path)


def _compress(path: Path) -> None:
    if COMPRESSOR.should_compress(path.name.split(".tmp")[0]):
        COMPRESSOR.compress(str(path))


def _copy_siblings(source: Path) -> Callable[[Path], None]:
    def copy(temporary: Path) -> None:
        for suffix in (".br", ".gz"):
            if Path(f"{source}{suffix}").exists():
                shutil.copyfile(f"{source}{suffix}", f"{temporary}{suffix}")

    return copy


def write(build: Build, folder: Path = STATIC_DIR) -> list[str]:
    """Writes what is missing or changed; returns the names written."""
    written = []
    for asset in build.assets:
        hashed = folder / asset.hashed
        # A hashed name that exists holds its content; a plain one (sw.js) is compared.
        if not hashed.exists() or (asset.hashed == asset.logical and hashed.read_bytes() != asset.data):
            _write(hashed, asset.data, _compress)
            written.append(asset.hashed)
        if asset.plain and asset.logical != asset.hashed:
            plain = folder / asset.logical
            if not plain.exists() or plain.read_bytes() != asset.data:
                _write(plain, asset.data, _copy_siblings(hashed))
                written.append(asset.logical)
    return written


def referee_bytes(build: Build | None = None) -> int:
    """What a phone downloads once for its referee (uncompressed): Pyodide, its cut standard
    library and the rules."""
    referee = ("vendor/", "referee/stdlib.zip", "referee/rules.zip")
    return sum(len(asset.data) for asset in (build or plan()).assets if asset.logical.startswith(referee))


@lru_cache(maxsize=1)
def ensure_built() -> Build:
    """The build for the sources as they are when this process starts, written if it was not."""
    build = plan()
    write(build)
    return build


def main() -> None:
    build = plan()
    written = write(build)
    size = sum(len(asset.data) for asset in build.assets)
    print(f"{STATIC_DIR}: {len(build.assets)} files ({size:,} bytes), {len(written)} written")


if __name__ == "__main__":
    main()
