// The top bar: home link, "Rules" link for the game on screen, language switch; offline banner.
import { h, present } from "../dom.js";
import { t, lang, LANGUAGES, LANGUAGE_NAMES, setLanguage, onLanguageChange } from "../i18n.js";
import { openSheet } from "./sheet.js";
import { onConnectivity, isOnline } from "../api.js";

/** @type {string | null} */
let rulesGame = null;

/**
 * @param {string} game
 * @param {string} [anchor]
 * @returns {string}
 */
export function rulesUrl(game, anchor) {
  return `rules/${game}.${lang()}.html${anchor ? `#${anchor}` : ""}`;
}

/**
 * Show the header "Rules" link for a game (or hide it with null).
 * @param {string | null} game
 * @returns {void}
 */
export function setRulesGame(game) {
  rulesGame = game;
  refresh();
}

/** @returns {void} */
function refresh() {
  const link = /** @type {HTMLAnchorElement | null} */ (document.getElementById("rules-link"));
  if (link) {
    link.hidden = !rulesGame;
    link.textContent = t("header.rules");
    if (rulesGame) {
      link.href = rulesUrl(rulesGame);
      link.target = "_blank";
      link.rel = "noopener";
    }
  }
  const button = document.getElementById("lang-switch");
  if (button) {
    button.textContent = lang().toUpperCase();
    // The name starts with what the button shows ("DE"), so voice control finds it by its text.
    button.setAttribute("aria-label", `${lang().toUpperCase()}: ${t("header.language_choose")}`);
    button.setAttribute("aria-haspopup", "dialog");
  }
  const banner = document.getElementById("offline-banner");
  if (banner) {
    banner.textContent = t("offline.banner");
    banner.hidden = isOnline();
  }
}

/** The language chooser: every language named in itself; the app follows the browser until one is chosen. @returns {void} */
function chooseLanguage() {
  const sheet = openSheet({
    title: t("header.language_choose"),
    confirm: false,
    testid: "language-sheet",
    body: h(
      "div",
      { class: "language-list", role: "group", "aria-label": t("header.language_choose") },
      ...LANGUAGES.map((code) =>
        h(
          "button",
          {
            type: "button",
            class: ["btn", code === lang() ? "btn-primary" : "btn-secondary"],
            testid: `lang-${code}`,
            lang: code,
            "aria-pressed": String(code === lang()),
            onclick: async () => {
              sheet.close();
              await setLanguage(code);
            },
          },
          LANGUAGE_NAMES[/** @type {keyof typeof LANGUAGE_NAMES} */ (code)],
        ),
      ),
    ),
  });
}

/** @returns {void} */
export function initHeader() {
  present(document.getElementById("lang-switch"), "the language switch").addEventListener("click", chooseLanguage);
  onLanguageChange(refresh);
  onConnectivity(refresh);
  window.addEventListener("online", refresh);
  refresh();
}
