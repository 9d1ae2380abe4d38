"""Which games Kibitz referees."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from api.http.compression import compressed
from api.http.schemas import GameInfoSchema
from api.rules.registry import GAMES

blp = Blueprint("games", __name__, url_prefix="/api/games", description="The games Kibitz referees")


@blp.route("")
class Games(MethodView):
    @blp.response(200, GameInfoSchema(many=True))
    @compressed
    def get(self) -> list[dict[str, Any]]:
        """List the games

        Each game's API name, title, player counts and option defaults, and rules as data where a
        game has them (Magellan's explorer powers by side and field, MG-8).
        """
        return [
            {
                "name": game.name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": game.normalize_options({}),
                **game.rule_tables(),
            }
            for game in GAMES.values()
        ]
