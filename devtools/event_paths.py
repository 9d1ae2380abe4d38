"""How far one Magellan event travels: for every event of the recorded corpus, the modules of
api/rules/magellan its `apply` runs code in (distinct) and how often it enters one from another.
Prints the module count and the longest paths (issue 13's "few rooms" figure).

    python -m devtools.event_paths [checkout]   # another checkout of the project, e.g. an old commit
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def measure(checkout: Path) -> dict[str, Any]:
    sys.path.insert(0, str(checkout))
    for name in [n for n in sys.modules if n == "api" or n.startswith("api.")]:
        del sys.modules[name]
    game = importlib.import_module("api.rules.magellan.game").MAGELLAN
    replay = importlib.import_module("api.rules.replay")
    sys.path.insert(0, str(ROOT))
    corpus = importlib.import_module("tests.rules.magellan_corpus").recorded()
    package = str(checkout / "api" / "rules" / "magellan")
    modules = sorted(p.stem for p in Path(package).glob("*.py") if p.stem != "__init__")
    trail: list[str] = []

    def profile(frame: FrameType, event: str, _: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(package):
            module = Path(frame.f_code.co_filename).stem
            if not trail or trail[-1] != module:
                trail.append(module)

    longest = (0, 0, "")
    for recorded in corpus:
        options = game.normalize_options(recorded["options"])
        states = [game.new_game(recorded["players"], options, recorded["seed"])]
        for event in recorded["events"]:
            if event["type"] != "undo":
                trail.clear()
                sys.setprofile(profile)
                game.apply(states[-1], event)
                sys.setprofile(None)
                entries = len(trail)
                longest = max(longest, (len(set(trail)), entries, event["type"]))
            states = replay.advance(game, states, event)
    return {"modules": len(modules), "distinct": longest[0], "entries": longest[1], "event": longest[2]}


if __name__ == "__main__":
    where = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    found = measure(where)
    print(
        f"{where}: {found['modules']} modules; longest event path ({found['event']}): "
        f"{found['distinct']} modules, entered {found['entries']} times"
    )
