"""Mhing (Suntex): the pure rules, MH-1 … MH-10 of the referee's reading.

* `cards` — the 150 cards and the MH-10 notation (parser, formatter);
* `hand` — a winning hand as typed: laid-out groups (jokers declared), hidden cards, flowers;
* `premiums` — MH-6 / MH-7 premiums of one reading and the MH-8 points table;
* `search` — the best reading of a hand (jokers assigned to score best, MH-5);
* `scoring` / `waits` — the scorer and the waits of a 13-card hand, as JSON;
* `claims` — who takes a claimed discard (MH-4);
* `game` — `MHING`, the table game (rounds, dealer rotation, MH-9 settlements).
"""
