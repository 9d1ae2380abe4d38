"""Magellan (Tom Lehmann): the pure rules engine, MG-1 … MG-12 of the referee's reading.

Import the game object from `api.rules.magellan.game` (`MAGELLAN`); board sheets (MG-2) live in
`api.rules.magellan.sheet`, stateless scoring in `scoring`, the Pizarro odds in `pizarro`.
"""
