"""The one-look lockout check (api.http.limits.RateLimits.no_failures_to_speak_of) never lets through
a request that the four-window check would refuse, whatever failures came before (hypothesis, real
`limits` counters in memory)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from api.http.limits import RateLimits

CONFIGURATIONS = [
    # failures per presented token, all failures of a client at a table
    ("3 per minute;5 per hour", "4 per minute;8 per hour"),
    ("2 per minute", "6 per hour"),
    ("5 per hour", "3 per minute"),  # the widest window is not a guess window: no one-look check
]


def _full_check(limits: RateLimits, token: str) -> bool:
    return limits.within(limits.token_failures, "token", "c", "t", token) and limits.within(
        limits.token_guesses, "guess", "c", "t"
    )


@settings(max_examples=60, deadline=None)
@given(
    configuration=st.sampled_from(CONFIGURATIONS),
    failures=st.lists(st.sampled_from(["stale", "guess-1", "guess-2", "guess-3"]), max_size=14),
)
def test_one_look_never_passes_what_four_would_refuse(
    configuration: tuple[str, str], failures: list[str]
) -> None:
    failure_limit, guess_limit = configuration
    limits = RateLimits("memory://", "30 per minute", failure_limit, guess_limit)
    tokens = ["stale", "guess-1", "guess-2", "guess-3", "right"]
    for failed in [None, *failures]:
        if failed is not None:  # what guard_token counts for a wrong token
            limits.hit_all(limits.token_failures, "token", "c", "t", failed)
            limits.hit_all(limits.token_guesses, "guess", "c", "t")
        if limits.no_failures_to_speak_of("guess", "c", "t"):
            assert all(_full_check(limits, token) for token in tokens), (configuration, failures)


def test_one_look_suffices_only_while_failures_are_few() -> None:
    limits = RateLimits("memory://", "30 per minute", "3 per minute;5 per hour", "4 per minute;8 per hour")
    assert limits.no_failures_to_speak_of("guess", "c", "t")
    for _ in range(2):
        limits.hit_all(limits.token_failures, "token", "c", "t", "stale")
        limits.hit_all(limits.token_guesses, "guess", "c", "t")
    assert limits.no_failures_to_speak_of("guess", "c", "t")  # 2 < 3: no window can be full
    limits.hit_all(limits.token_failures, "token", "c", "t", "stale")
    limits.hit_all(limits.token_guesses, "guess", "c", "t")
    assert not limits.no_failures_to_speak_of("guess", "c", "t")  # now look at every window
    assert not _full_check(limits, "stale") and _full_check(limits, "right")
