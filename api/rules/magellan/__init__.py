"""Magellan (Tom Lehmann): the pure rules engine, MG-1 … MG-12 of the referee's reading.

Import the game object from `api.rules.magellan.game` (`MAGELLAN`); board sheets (MG-2) live in
`api.rules.magellan.sheet`, scoring and the Pizarro odds in `scoring`, scoring without a table in
`stateless`. What winning each explorer card does (MG-8) is one table, `powers`; nothing else names
an explorer to decide what happens.
"""
