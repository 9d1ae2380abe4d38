"""How fast the Mhing scorer scores a hand (MH-5 … MH-8), against the `mahjong` package.

Random winning hands (four groups and a pair, all 14 cards hidden) with 0, 2, 4 and 6 of their
cards turned into jokers; every measured hand is different from the others and from the warm-up
hands, so the whole-hand cache never answers — only the per-suit decompositions and per-reading
premium counts that a running server has memoised. The `mahjong` package's HandDivider (which
only splits a hand, it scores nothing) runs on the same joker-free hands in the same run.

Joker-free hands are measured three ways: the full scoring with every premium itemised (name,
rule, count, groups: what the score endpoint answers, before it is rendered as JSON) — the main
figure —, the best reading and points alone, and the whole JSON answer (for information). The
joker hands are measured for the best reading and points.

Targets: joker-free scoring with itemised premiums at least as fast per hand as the divider; the
worst 6-joker hand under 50 ms, measured cold (every cache emptied before each hand). Run:
`make bench` or `python -m benchmarks.mhing_scoring`.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

from mahjong.hand_calculating.divider import HandDivider

from api.rules.mhing import blocks
from api.rules.mhing.cards import KINDS
from api.rules.mhing.hand import Hand
from api.rules.mhing.premiums import count_premiums
from api.rules.mhing.scoring import natural_counts, score_hand
from api.rules.mhing.search import best_reading, honour_options, suit_options

JOKERS = (0, 2, 4, 6)
MEASURED = {0: 4000, 2: 1500, 4: 500, 6: 300}
WARM_UP = {0: 20000, 2: 2000, 4: 500, 6: 200}
WORST_TARGET_MS = 50.0
# Our kinds → the package's 34-tile indices (bamboo → sou, circles → pin, characters → man).
TO_34 = [*range(18, 27), *range(9, 18), *range(9), 27, 28, 29, 30, 33, 32, 31]


def random_hand(rng: random.Random, jokers: int) -> Hand:
    """Four random groups and a pair (no card more than four times), `jokers` cards made jokers."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            for kind in blocks.kinds_of(rng.randrange(55)):
                counts[kind] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            break
    cards = [KINDS[k] for k in range(34) for _ in range(counts[k])]
    for index in rng.sample(range(14), jokers):
        cards[index] = "jk"
    rng.shuffle(cards)
    return Hand(hidden=tuple(cards))


def distinct_hands(rng: random.Random, jokers: int, count: int, seen: set[tuple[str, ...]]) -> list[Hand]:
    hands = []
    while len(hands) < count:
        hand = random_hand(rng, jokers)
        key = tuple(sorted(hand.hidden))
        if key not in seen:
            seen.add(key)
            hands.append(hand)
    return hands


def clear_caches() -> None:
    for cached in (best_reading, suit_options, honour_options, count_premiums):
        cached.cache_clear()


def timed(run: Callable[[], object], items: int) -> float:
    """Seconds per item of one run over `items` items."""
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / items


def score_all(hands: Sequence[Hand], itemised: bool = False) -> None:
    for hand in hands:
        result = score_hand(hand)
        assert result.wins
        if itemised:
            _ = result.items


def answer_all(hands: Sequence[Hand]) -> None:
    for hand in hands:
        assert score_hand(hand).to_json()["wins"]


def main() -> None:
    rng = random.Random(20240611)
    seen: set[tuple[str, ...]] = set()
    warm = {j: distinct_hands(rng, j, WARM_UP[j], seen) for j in JOKERS}
    # Three fresh batches per measurement: no hand is ever scored twice; the median batch counts.
    batches = {j: [distinct_hands(rng, j, MEASURED[j], seen) for _ in range(3)] for j in JOKERS}
    itemised_batches = [distinct_hands(rng, 0, MEASURED[0], seen) for _ in range(3)]
    answered_batches = [distinct_hands(rng, 0, MEASURED[0], seen) for _ in range(3)]
    tiles = []
    for hand in batches[0][0]:
        row = [0] * 34
        for kind, n in enumerate(natural_counts(hand)):
            row[TO_34[kind]] = n
        tiles.append(row)

    # Worst case first, cold: every cache emptied before each 6-joker hand.
    cold = []
    for hand in batches[6][0]:
        clear_caches()
        start = time.perf_counter()
        assert score_hand(hand).wins
        cold.append(time.perf_counter() - start)
    worst = max(cold)

    clear_caches()
    for j in JOKERS:
        score_all(warm[j])

    def divide() -> None:
        for row in tiles:
            HandDivider.divide_hand(row)

    divide()  # the same warm-up for the interpreter; its own cache holds only 128 hands
    divider = statistics.median(timed(divide, len(tiles)) for _ in range(3))
    results = {
        j: statistics.median(timed(lambda b=batch: score_all(b), len(batch)) for batch in batches[j])
        for j in JOKERS
    }
    itemised = statistics.median(
        timed(lambda b=batch: score_all(b, itemised=True), len(batch)) for batch in itemised_batches
    )
    answered = statistics.median(
        timed(lambda b=batch: answer_all(b), len(batch)) for batch in answered_batches
    )

    def line(label: str, t: float, ratio: bool = True) -> str:
        text = f"  {label:<46} {1 / t:9.0f} hands/s  {t * 1e6:8.1f} µs/hand"
        return f"{text}  ratio to divider {t / divider:6.2f}" if ratio else text

    print("Mhing scorer: random winning hands, distinct, 14 hidden cards")
    print(line("mahjong HandDivider (splits only), joker-free:", divider, ratio=False))
    print(line("scorer, 0 jokers, with itemised premiums:", itemised))
    print(line("scorer, 0 jokers, best reading + points only:", results[0]))
    print(line("scorer, 0 jokers, JSON answer (information):", answered))
    for j in JOKERS[1:]:
        print(line(f"scorer, {j} jokers, best reading + points:", results[j]))
    print(
        f"  6 jokers cold (caches emptied per hand): median {statistics.median(cold) * 1e3:.2f} ms, "
        f"worst {worst * 1e3:.2f} ms"
    )
    fast = itemised <= divider
    verdict = "met" if fast else "MISSED"
    print(f"  target joker-free, itemised premiums, at least as fast as the divider: {verdict}")
    quick = worst * 1e3 < WORST_TARGET_MS
    print(f"  target worst 6-joker hand under {WORST_TARGET_MS:.0f} ms: {'met' if quick else 'MISSED'}")


if __name__ == "__main__":
    main()
