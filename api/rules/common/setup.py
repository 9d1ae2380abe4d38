"""Setup checks that are the same in every game: options are an object of known keys, seat and chance
options, the seed, the player list and each player's name. The game passes its title, keys, limits and
rule ids; the `code` and `detail` wording is fixed here because tests and the phone app match on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from api.rules.common.events import is_int
from api.rules.errors import InvalidSetup, say


def _cite(rule: str | None) -> str:
    return f" ({rule})" if rule else ""


def known_options(options: Any, title: str, keys: Sequence[str]) -> Mapping[str, Any]:
    """`options` itself, once it is an object whose keys are all among the game's `keys`."""
    if not isinstance(options, Mapping):
        raise InvalidSetup("invalid-option", "Options must be an object.")
    unknown = sorted(str(k) for k in options if k not in keys)
    if unknown:
        raise InvalidSetup(
            "unknown-option",
            say(
                "Unknown option {items}; {title} knows {items2}.",
                items=", ".join(unknown),
                title=title,
                items2=", ".join(keys),
            ),
        )
    return options


def chance_option(options: Mapping[str, Any], rule: str | None = None) -> Literal["physical", "digital"]:
    """Option `chance`: "physical" (the default; players type results in) or "digital" (the server draws)."""
    chance = options.get("chance", "physical")
    if chance not in ("physical", "digital"):
        raise InvalidSetup(
            "invalid-option",
            say('Option chance must be "physical" or "digital"{cite}.', cite=_cite(rule)),
            rule,
        )
    return "digital" if chance == "digital" else "physical"


def seat_option(options: Mapping[str, Any], key: str, detail: str, rule: str) -> int:
    """A seat-number option (default 0); its upper bound needs the player count, see `seat_in_range`."""
    seat = options.get(key, 0)
    if not is_int(seat) or seat < 0:
        raise InvalidSetup("invalid-option", detail, rule)
    return seat


def seat_in_range(key: str, seat: int, count: int, rule: str) -> None:
    """The seat option `key` names one of the `count` seats."""
    if seat >= count:
        raise InvalidSetup(
            "invalid-option",
            say(
                "Option {key} must be a seat from 0 to {value} ({rule}).", key=key, value=count - 1, rule=rule
            ),
            rule,
        )


def check_seed(seed: Any, rule: str | None = None) -> None:
    if not is_int(seed):
        raise InvalidSetup("invalid-seed", say("The seed must be an integer{cite}.", cite=_cite(rule)), rule)


def player_count(players: Any, title: str, least: int, most: int, rule: str, cite_rule: bool = False) -> int:
    """How many players, once `players` is a list of `least` to `most` entries; `cite_rule` adds the
    rule id to the count sentence."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidSetup("player-count", "Players must be a list.", rule)
    count = len(players)
    if not least <= count <= most:
        raise InvalidSetup(
            "player-count",
            say(
                "{title} is for {least} to {most} players, not {count}{value}.",
                title=title,
                least=least,
                most=most,
                count=count,
                value=_cite(rule) if cite_rule else "",
            ),
            rule,
        )
    return count


def player_name(seat: int, raw: Any, wants: str = "a name") -> str:
    """The `name` of player entry `raw` at `seat`, as given (not stripped); `wants` says what the
    object must carry."""
    if not isinstance(raw, Mapping):
        raise InvalidSetup(
            "invalid-player",
            say("Player {value} must be an object with {wants}.", value=seat + 1, wants=wants),
        )
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidSetup("invalid-player", say("Player {value} needs a name.", value=seat + 1))
    return name
