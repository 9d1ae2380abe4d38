// Kibitz phone app: start-up, routes, service worker.
import { present } from "./js/dom.js";
import { initI18n, onLanguageChange, t } from "./js/i18n.js";
import { toast } from "./js/toast.js";
import { addRoute, startRouter, render } from "./js/router.js";
import { initHeader } from "./js/ui/header.js";
import { mountHome } from "./js/views/home.js";
import { mountSetup } from "./js/views/setup.js";
import { mountTable } from "./js/views/table.js";
import { mountGroup, mountNewGroup } from "./js/views/group.js";
import { mountPlayer } from "./js/views/player.js";
import { startReferee } from "./js/referee/client.js";
import { initOfflineReady } from "./js/ui/offline-ready.js";
import { flushPendingGroups } from "./js/groups/filing.js";
import { onConnectivity } from "./js/api.js";
import { GAMES } from "./js/games/registry.js";

/**
 * Keyboard players keep their place: a table redraws its controls after every entry, which would
 * drop the focus to the page's start. When the focused control is replaced, its successor (same
 * data-testid) takes the focus, else the action bar's first enabled control.
 * @returns {void}
 */
function keepFocusAcrossRedraws() {
  /** @type {HTMLElement | null} */
  let focused = null;
  document.addEventListener("focusin", (e) => {
    focused = /** @type {HTMLElement} */ (e.target);
  });
  new MutationObserver(() => {
    if (!focused || focused.isConnected) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const id = focused.dataset?.testid;
    const same = id ? document.querySelector(`[data-testid="${CSS.escape(id)}"]:not(:disabled)`) : null;
    const next = /** @type {HTMLElement | null} */ (same || document.querySelector("[data-testid=actionbar] button:not(:disabled)"));
    focused = null;
    if (next) next.focus({ preventScroll: true });
  }).observe(document.body, { childList: true, subtree: true });
}

/** @returns {Promise<void>} */
async function main() {
  keepFocusAcrossRedraws();
  // What a game needs before the first screen (its manifest's `start`: Magellan's powers table) is
  // fetched then by a phone that never saw it (it is online: it just loaded the app); later starts
  // refresh it in the background.
  const starts = GAMES.flatMap((g) => (g.start ? [g.start] : []));
  const known = starts.filter((s) => s.ready());
  await Promise.all([initI18n(), ...starts.filter((s) => !known.includes(s)).map((s) => s.refresh())]);
  initHeader();
  addRoute(/^\/$/, mountHome);
  addRoute(/^\/new\/(?<game>[\w-]+)$/, mountSetup);
  addRoute(/^\/t\/(?<id>[^/]+)$/, mountTable);
  addRoute(/^\/g\/new$/, mountNewGroup);
  addRoute(/^\/g\/(?<id>[^/]+)$/, mountGroup);
  addRoute(/^\/g\/(?<id>[^/]+)\/p\/(?<player>[^/]+)$/, mountPlayer);
  onLanguageChange(() => render());
  await startRouter(present(document.getElementById("view"), "the #view element"));
  known.forEach((s) => s.refresh()); // after a release: a screen redraws when its data changed
  // Groups started offline are created on the server as soon as it answers (their tables follow).
  const createGroups = () => flushPendingGroups().catch(() => undefined);
  createGroups();
  window.addEventListener("online", createGroups);
  onConnectivity((online) => online && createGroups());
  // The phone's referee (Pyodide, ~10 MB, cached by the service worker) boots after the first paint.
  setTimeout(startReferee, 0);
  if ("serviceWorker" in navigator) {
    // A new release's worker takes over at once (skipWaiting); offer a reload to run its code.
    const hadController = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (hadController) toast(t("app.updated"), { timeout: 15000, onClick: () => location.reload() });
    });
    const registering = navigator.serviceWorker.register("sw.js");
    registering.catch((err) => console.warn("service worker", err));
    initOfflineReady(registering);
  }
}

main();
