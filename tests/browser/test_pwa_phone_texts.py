"""Texts as a phone shows them (issue 20): a count of 1 and of 5 in every language, the Mhing
honour tiles' captions whole (German "GRÜN" keeps its dots), Undo and Cancel two words on one
sheet, and a browser without JavaScript told so in every language."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.docs.test_catalogs import offered_languages, plural_forms

from .helpers import PWA, ApiTable, tap

LANGUAGES = ["en", "de", "fr", "it", "nl", "es"]
# The face-up egg card (MA-7) as the undo toast says it: a count of 1, and of 5.
EGG_CARD = {
    "en": ("shows 1 egg.", "shows 5 eggs."),
    "de": ("zeigt 1 Ei.", "zeigt 5 Eier."),
    "fr": ("montre 1 œuf.", "montre 5 œufs."),
    "it": ("mostra 1 uovo.", "mostra 5 uova."),
    "nl": ("toont 1 ei.", "toont 5 eieren."),
    "es": ("muestra 1 huevo.", "muestra 5 huevos."),
}


def test_every_language_is_checked() -> None:
    assert sorted(LANGUAGES) == sorted(offered_languages()) == sorted(EGG_CARD)


def _mahe(base: str) -> ApiTable:
    players = [{"name": "Eva", "colours": ["red", "green"]}, {"name": "Tom", "colours": ["yellow", "purple"]}]
    return ApiTable(base, "mahe", players, {"chance": "physical"})


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_egg_card_says_1_egg_and_5_eggs(live_server: str, new_phone: Any, language: str) -> None:
    """On screen: the undo toast after the egg card is turned up (1, then 5 after an undo). In the
    page: the app's t() picks Intl.PluralRules' form, and the browser's CLDR categories for the
    language are the very forms the catalog has (Babel's, tests/docs/test_catalogs.py)."""
    one, five = EGG_CARD[language]
    page = new_phone(locale=language)
    page.goto(_mahe(live_server).link)
    expect(page.locator("html")).to_have_attribute("lang", language)
    tap(page, "card-1")
    told = page.get_by_test_id("undo-toast")
    expect(told).to_contain_text(one)
    told.get_by_test_id("toast-undo").tap()
    expect(page.get_by_test_id("card-5")).to_be_visible()
    tap(page, "card-5")
    expect(page.get_by_test_id("undo-toast")).to_contain_text(five)
    expect(page.get_by_test_id("face-up")).to_contain_text("5")

    said = page.evaluate(
        """async () => {
          const i18n = await import("/js/i18n.js");
          const counts = [0, 1, 2, 5, 21, 1000000];
          return {
            categories: new Intl.PluralRules(i18n.lang()).resolvedOptions().pluralCategories,
            eggs: counts.map((count) => i18n.t("sum.reveal", { count })),
            fields: counts.map((count) => i18n.t("mahe.fields", { count })),
          };
        }"""
    )
    catalog = json.loads((PWA / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    assert {frozenset(forms) for forms in plural_forms(catalog).values()} == {frozenset(said["categories"])}
    assert said["eggs"][1].endswith(one) and said["eggs"][3].endswith(five)
    assert said["eggs"][2].endswith(five.replace("5", "2"))
    # French counts 0 as one ("0 œuf"); the others say 0 in the plural.
    assert said["eggs"][0].endswith(one.replace("1", "0") if language == "fr" else five.replace("5", "0"))
    assert said["eggs"][5].endswith(five.split("5")[1])  # a million: French "many", English "other"
    assert said["fields"][1] != said["fields"][2].replace("2", "1")  # "1 field", "2 fields"


# Each wind's and dragon's caption: its box, the box of its text (the font's full height, accents
# included), and the inside of its tile (within the border).
CAPTIONS = """() => [...document.querySelectorAll(".mh-wind .mh-tile-sub, .mh-dragon .mh-tile-sub")]
  .map((el) => {
    const rect = (r) => [r.left, r.top, r.right, r.bottom];
    const range = document.createRange();
    range.selectNodeContents(el);
    const tile = el.closest(".mh-tile");
    const t = tile.getBoundingClientRect();
    const left = t.left + tile.clientLeft;
    const top = t.top + tile.clientTop;
    return { caption: el.textContent, tile: tile.className, box: rect(el.getBoundingClientRect()),
             text: rect(range.getBoundingClientRect()), clipped: el.scrollWidth > el.clientWidth,
             inside: [left, top, left + tile.clientWidth, top + tile.clientHeight] };
  })"""
# What the captions would show if nothing could cut them.
UNCLIP = "() => document.querySelectorAll('.mh-tile-sub').forEach((el) => { el.style.overflow = 'visible'; })"


def _within(inner: list[float], outer: list[float]) -> bool:
    left, top, right, bottom = inner
    return (
        left >= outer[0] - 0.01
        and top >= outer[1] - 0.01
        and right <= outer[2] + 0.01
        and bottom <= outer[3] + 0.01
    )


def _steady(shoot: Callable[[], bytes]) -> bytes:
    """A screenshot once the screen has settled: the same twice in a row."""
    last = shoot()
    for _ in range(20):
        shot = shoot()
        if shot == last:
            return shot
        last = shot
    raise AssertionError("the screen never settled")


@pytest.mark.parametrize("language", LANGUAGES)
def test_honour_captions_are_not_clipped(live_server: str, new_phone: Any, language: str) -> None:
    """The winds' and dragons' captions ("GRÜN", "VIENTO", "BLANCO") on the picker's tiles, the hand's
    tiles and the breakdown's small tiles: each caption's text lies inside its box and its tile, and
    the screen looks the same when nothing may clip a caption — the umlaut's dots are drawn."""
    table = ApiTable(
        live_server, "mhing", [{"name": "Eva"}, {"name": "Tom"}], {"settlement": 1, "first_seat": 0}
    )
    page = new_phone(locale=language)
    page.goto(table.link)
    tap(page, "went-out")
    tap(page, "winner-1")
    tap(page, "from-stack")
    # Nothing fits, with every honour once (MH-7): seven honour tiles in the hand and the breakdown.
    for tab, cards in (("tab-b", ["b1", "b4", "b7"]), ("tab-c", ["c2", "c5"]), ("tab-k", ["k3", "k9"])):
        tap(page, tab)
        for card in cards:
            tap(page, f"pick-{card}")
    tap(page, "tab-h")
    for card in ("we", "ws", "ww", "wn", "dr", "dg", "dw"):
        tap(page, f"pick-{card}")
    expect(page.get_by_test_id("reading")).to_have_attribute("data-kind", "nothing-fits")
    captions = page.evaluate(CAPTIONS)
    sizes = {
        size for c in captions for size in ("mh-pick", "mh-hand-tile", "mh-tile-small") if size in c["tile"]
    }
    assert sizes == {"mh-pick", "mh-hand-tile", "mh-tile-small"}
    assert len(captions) == 21  # seven honours on the picker, in the hand, in the breakdown
    if language == "de":
        assert "Grün" in {c["caption"] for c in captions}
    cut = [
        c
        for c in captions
        if c["clipped"] or not _within(c["text"], c["box"]) or not _within(c["text"], c["inside"])
    ]
    assert cut == [], cut

    # Each honour tile looks the same when nothing may clip its caption (tile by tile: the rest of
    # the screen — the sync badge, the referee arriving — may change meanwhile).
    tiles = page.locator(".mh-tile-sub").locator("xpath=..")
    shown = [_steady(tiles.nth(i).screenshot) for i in range(tiles.count())]
    dragon = page.get_by_test_id("pick-dg").screenshot()
    page.evaluate(UNCLIP)
    assert page.get_by_test_id("pick-dg").screenshot() == dragon, "the green dragon's caption is cut"
    assert [tiles.nth(i).screenshot() for i in range(tiles.count())] == shown, "a caption is cut"


@pytest.mark.parametrize("language", LANGUAGES)
def test_undo_and_cancel_are_two_words_on_the_undo_sheet(
    live_server: str, new_phone: Any, language: str
) -> None:
    """Mhing asks before it takes a round back: a sheet with an Undo and a Cancel button. In French
    both once said "Annuler", in Italian "Annulla mossa" and "Annulla"; no word may be in both."""
    table = ApiTable(
        live_server, "mhing", [{"name": "Eva"}, {"name": "Tom"}], {"settlement": 1, "first_seat": 0}
    )
    table.post({"type": "round_points", "winner": 0, "points": 16, "discarder": None})
    version = table.table["version"]
    page = new_phone(locale=language)
    page.goto(table.link)
    expect(page.locator("html")).to_have_attribute("lang", language)
    undo_in_bar = page.get_by_test_id("undo").inner_text()
    tap(page, "undo")
    sheet = page.get_by_test_id("sheet")
    expect(sheet).to_be_visible()
    undo = sheet.get_by_test_id("confirm").inner_text()
    cancel = sheet.get_by_test_id("cancel").inner_text()

    def words(label: str) -> set[str]:
        return set(re.findall(r"\w+", label.lower()))

    assert words(undo) and words(cancel)
    assert not words(undo) & words(cancel), (undo, cancel)
    assert not words(undo_in_bar) & words(cancel), (undo_in_bar, cancel)
    assert not words(sheet.get_by_test_id("sheet-body").inner_text()) & words(cancel)
    sheet.get_by_test_id("cancel").tap()
    expect(page.get_by_test_id("sheet")).to_have_count(0)
    assert table.refresh()["version"] == version  # Cancel took nothing back


NOSCRIPT = {
    "en": "Kibitz needs JavaScript",
    "de": "Kibitz braucht JavaScript",
    "fr": "Kibitz a besoin de JavaScript",
    "it": "Kibitz ha bisogno di JavaScript",
    "nl": "Kibitz heeft JavaScript nodig",
    "es": "Kibitz necesita JavaScript",
}


def test_without_javascript_the_page_says_so_in_every_language(live_server: str, new_phone: Any) -> None:
    """No script runs, so no language is chosen: the static page says it in all six, each line
    marked with its language (a screen reader reads each in its own voice)."""
    page = new_phone(java_script_enabled=False, locale="de-DE")
    page.goto(live_server + "/")
    told = page.get_by_test_id("noscript")
    expect(told).to_be_visible()
    lines = told.locator("[lang]")
    assert sorted(lines.evaluate_all("els => els.map((el) => el.lang)")) == sorted(offered_languages())
    for language, sentence in NOSCRIPT.items():
        expect(told.locator(f"[lang={language}]")).to_contain_text(sentence)
