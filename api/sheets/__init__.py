"""Board sheets: game data printed on the players' own boards (never invented), stored by name."""
