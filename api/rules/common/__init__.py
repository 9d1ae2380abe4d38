"""Plumbing every game's rules share (event shape, setup options, player lists); no game's rules live here."""
