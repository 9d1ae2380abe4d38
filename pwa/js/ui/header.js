// The top bar: home link, "Rules" link for the game on screen, language switch; offline banner.
import { t, lang, LANGUAGES, setLanguage, onLanguageChange } from "../i18n.js";
import { onConnectivity, isOnline } from "../api.js";

let rulesGame = null;

export function rulesUrl(game, anchor) {
  return `rules/${game}.${lang()}.html${anchor ? `#${anchor}` : ""}`;
}

/** Show the header "Rules" link for a game (or hide it with null). */
export function setRulesGame(game) {
  rulesGame = game;
  refresh();
}

function refresh() {
  const link = document.getElementById("rules-link");
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
    const next = LANGUAGES[(LANGUAGES.indexOf(lang()) + 1) % LANGUAGES.length];
    button.textContent = next.toUpperCase();
    button.dataset.next = next;
    button.setAttribute("aria-label", t("header.language", { lang: t(`lang.${next}`) }));
  }
  const banner = document.getElementById("offline-banner");
  if (banner) {
    banner.textContent = t("offline.banner");
    banner.hidden = isOnline();
  }
}

export function initHeader() {
  document.getElementById("lang-switch").addEventListener("click", (e) => setLanguage(e.currentTarget.dataset.next));
  onLanguageChange(refresh);
  onConnectivity(refresh);
  window.addEventListener("online", refresh);
  refresh();
}
