"""One rule for every text a person types (player and group names, emoji, colours, sheet names and
editions), stdlib only, so the server and the phone's referee refuse the same texts.

The rule, said once in TEXT_RULE (the document repeats it on every such field):
- stored in Unicode NFC with spaces trimmed from both ends, and at least one visible character;
- no control character (Unicode Cc, tab, newline and CR included) and no line or paragraph
  separator (Zl, Zp): a name is one line (`control-character`);
- no invisible formatting character (Unicode Cf: bidi overrides and isolates that run "Eva loses
  to Tom" backwards, zero-width spaces, soft hyphens, tag characters) nor the blank Hangul fillers
  that make a name look empty (`format-character`). One exception: a zero-width joiner (U+200D)
  between two symbols, each with its marks, so emoji sequences such as 🏳️‍🌈 or 👩🏽‍💻 (a single picture)
  can be typed. "Symbols" are U+2190 to U+2BFF (arrows, ♀, ❤, ☠, ⬛) and every code point beyond
  U+FFFF (all pictographic emoji): a range a regular expression of the document can say alike in
  ECMAScript and Python (api.contract.text_pattern). A joiner between letters stays refused: it is invisible
  there and makes two seats look alike. (ZWNJ, which Persian uses between letters, is refused too:
  the words read the same without it, and it would let "Eva" and "E+ZWNJ+va" be two players.)
- combining marks (Unicode M: accents, vowel signs, variation selectors such as U+FE0F) only after
  a visible character (not first, not after a space), at most MAX_MARKS in a row
  (`combining-marks`). Three covers real writing once composed to NFC (Vietnamese composes to
  one; Thai vowel and tone, Arabic shadda and vowel, Hebrew dagesh, vowel and shin dot, Tibetan
  stacks, a keycap's U+FE0F U+20E3) and stops "Zalgo" text, whose dozens of stacked marks draw
  over the rows above and below.
"""

from __future__ import annotations

import unicodedata

from api.rules.errors import term

MAX_MARKS = 3
ZWJ = "\u200d"
# Blank letters (category Lo) that render as nothing: a name made of them looks empty.
FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
# Where a joiner may stand next to: symbols (U+2190 … U+2BFF) and everything beyond the BMP.
SYMBOLS_FROM, SYMBOLS_TO = 0x2190, 0x2BFF


class TextRefused(ValueError):
    """A text the rule refuses: `code` as the HTTP answer names it, `detail` in English (the catalogs
    say it in other languages)."""

    def __init__(self, code: str, detail: str, *, stored: bool = False) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.stored = stored  # only the NFC form breaks the rule (the text as sent keeps it)


# term(): the sentences are extracted into the message catalogs (devtools.messages).
CONTROL_DETAIL = term("Text must be one line without control characters (such as tabs or line breaks).")
FORMAT_DETAIL = term(
    "Text must not contain invisible formatting characters (such as right-to-left marks or zero-width "
    "spaces); a zero-width joiner only inside an emoji."
)
MARKS_DETAIL = term(
    "Text may put at most 3 accents or other combining marks on a character, and none on a space or "
    "before the first character."
)


def is_control(char: str) -> bool:
    """Cc, and the line and paragraph separators: what breaks a line or means nothing on screen."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp")


def is_invisible(char: str) -> bool:
    """Cf (the joiner included: where it may stand is decided by its neighbours) and the fillers."""
    return unicodedata.category(char) == "Cf" or char in FILLERS


def is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def is_space(char: str) -> bool:
    """The spaces trimming removes (Zs; the other whitespace is refused as control characters)."""
    return unicodedata.category(char) == "Zs"


def is_symbol(char: str) -> bool:
    """What a zero-width joiner may join: U+2190 … U+2BFF, or beyond the BMP."""
    code = ord(char)
    return SYMBOLS_FROM <= code <= SYMBOLS_TO or code > 0xFFFF


def free_text(raw: str) -> str:
    """`raw` as stored (NFC, trimmed), or TextRefused. The rule holds for the text as sent (what the
    document's pattern reads) and as stored: NFC brings no control or format character, but may
    split a Tibetan vowel sign into two marks, so a text the pattern allows can break the marks
    bound once stored (TextRefused with `stored`; the HTTP answer is then 422, never 400 for a
    text the document calls valid). Lengths are the field's own business."""
    check(raw)
    text = unicodedata.normalize("NFC", raw).strip()
    try:
        check(text)
    except TextRefused as error:
        raise TextRefused(error.code, error.detail, stored=True) from None
    return text


def check(text: str) -> None:
    """TextRefused unless `text` keeps the rule (trimming and NFC apart)."""
    if any(is_control(c) for c in text):
        raise TextRefused("control-character", CONTROL_DETAIL)
    base = ""  # the last character that is not a mark, and how many marks followed it
    marks = 0
    for index, char in enumerate(text):
        if is_mark(char):
            marks += 1
            if not base or is_space(base) or marks > MAX_MARKS:
                raise TextRefused("combining-marks", MARKS_DETAIL)
            continue
        if char == ZWJ:
            after = text[index + 1 : index + 2]
            if not (base and is_symbol(base) and after and is_symbol(after)):
                raise TextRefused("format-character", FORMAT_DETAIL)
        elif is_invisible(char):
            raise TextRefused("format-character", FORMAT_DETAIL)
        base, marks = char, 0
