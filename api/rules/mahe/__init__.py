"""Mahé (Alex Randolph): the pure rules engine, MA-1 … MA-12 of the referee's reading.

Import the game object from `api.rules.mahe.game` (`MAHE`); the stateless move calculator lives in
`api.rules.mahe.position`.
"""
