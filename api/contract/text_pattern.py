"""The rule for typed text (api.rules.common.text) as the document says it: in words (TEXT_RULE,
repeated on every such field) and as a regular expression every client can check before sending
(TEXT_PATTERN; the server checks the same pattern, api.http.strict)."""

from __future__ import annotations

from collections.abc import Callable

from api.rules.common import text

TEXT_RULE = (
    "Stored in Unicode NFC with spaces trimmed from both ends; at least one visible character. "
    "Refused with control characters, tab and line breaks included (400 `control-character`); with "
    "invisible formatting characters (Unicode Cf: bidi controls, zero-width spaces, soft hyphens, "
    "tags; Hangul fillers), save a zero-width joiner U+200D between two symbols (U+2190 to U+2BFF or "
    "beyond U+FFFF, each with its marks) as in emoji sequences (400 `format-character`); with a "
    "combining mark first, after a space or more than 3 in a row (400 `combining-marks`). 422 with the "
    "same code where the pattern allows the text: only its NFC form has 4 marks (a Tibetan vowel sign "
    "split in two), or a format character or mark lies beyond the Basic Multilingual Plane. "
    "Lengths count characters (code points) as sent and as stored. The pattern says this for the Basic "
    "Multilingual Plane; format characters and combining marks beyond it are refused the same."
)


def _class(test: Callable[[str], bool], stop: int = 0x10000) -> str:
    """The BMP code points `test` holds for, as the inside of a regex character class (\\u escapes,
    read alike by ECMA-262 without the `u` flag and by Python's re)."""
    ranges: list[tuple[int, int]] = []
    for code in range(stop):
        if test(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))

    def char(code: int) -> str:
        return f"\\u{code:04x}"

    return "".join(char(a) if a == b else f"{char(a)}-{char(b)}" for a, b in ranges)


def _text_pattern() -> str:
    """api.rules.common.text as a regular expression, built from the same tests. Astral code points
    are one character to Python and a surrogate pair to ECMA-262 without the `u` flag: both read
    them as symbols (E) here, so the two agree; the astral Cf and marks the server refuses are left
    out (a range of surrogate pairs is no valid regex). Unambiguous, so checking it never backtracks
    far: a unit starts with a symbol (E, which a joiner may chain) or another visible character (N,
    not a symbol: the lookahead keeps Python's astral code points and ECMA's surrogates out of N)."""
    symbols = f"\\u{text.SYMBOLS_FROM:04x}-\\u{text.SYMBOLS_TO:04x}"

    def refused(char: str) -> bool:
        return text.is_control(char) or text.is_invisible(char) or text.is_mark(char) or text.is_space(char)

    assert not any(refused(chr(c)) for c in range(text.SYMBOLS_FROM, text.SYMBOLS_TO + 1))
    space = _class(text.is_space)
    mark = _class(text.is_mark)
    bases = _class(refused)
    e = f"[^\\u0000-\\u{text.SYMBOLS_FROM - 1:04x}\\u{text.SYMBOLS_TO + 1:04x}-\\ud7ff\\ue000-\\uffff]"
    n = f"(?!{e})[^{bases}{symbols}]"  # no surrogate range: Rust-based validators refuse one
    m = f"[{mark}]{{0,{text.MAX_MARKS}}}"
    # The end is `(?![\\s\\S])`, not `$`: Python's `$` also matches before a final newline.
    return f"^[{space}]*(?:(?:{n}|{e}(?:{m}\\u200d{e})*){m}[{space}]*)+(?![\\s\\S])"


TEXT_PATTERN = _text_pattern()
