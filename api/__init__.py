"""Kibitz: a referee and scorekeeper that sits beside a physical game."""
