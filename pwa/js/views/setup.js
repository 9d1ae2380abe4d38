// "#/new/<game>": load the game's client and let it render its setup form; create the table.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { loadGame } from "../games/registry.js";
import { setRulesGame } from "../ui/header.js";
import { toast, toastError } from "../toast.js";
import { createOffline } from "../sync/session.js";

export async function mountSetup(container, { params }) {
  const game = await loadGame(params.game);
  if (!game) {
    container.append(h("p", { class: "muted" }, t("error.unknown_game")), h("a", { href: "#/", class: "btn btn-secondary" }, t("common.back")));
    return;
  }
  setRulesGame(game.name);
  /** @type {import("../games/registry.js").SetupContext["meta"]} */
  let meta = { name: game.name, title: game.title, min_players: 2, max_players: 7 };
  try {
    meta = (await api.listGames()).find((g) => g.name === game.name) || meta;
  } catch {
    /* offline: use the client's defaults; creating will report the problem */
  }
  let idempotencyKey = null;
  let lastBody = "";

  /**
   * Called by the game's form with the POST /api/tables body.
   * @param {import("kibitz-api").components["schemas"]["CreateTable"]} body
   */
  async function create(body) {
    const json = JSON.stringify(body);
    if (json !== lastBody || !idempotencyKey) {
      idempotencyKey = api.newIdempotencyKey(); // same form contents → same key on retry
      lastBody = json;
    }
    try {
      const created = await api.createTable(body, idempotencyKey);
      store.setToken(created.id, created.write_token);
      if (created.seats?.length) store.setSeatLinks(created.id, created.seats); // the players' own links
      store.rememberTable(created.table, meta.title);
      navigate(`/t/${encodeURIComponent(created.id)}`);
      return true;
    } catch (err) {
      if (err instanceof api.OfflineError) return startOffline(body);
      toastError(err, t("error.generic"));
      return false;
    }
  }

  /**
   * No network: the phone's referee checks the setup and the table starts here (created later).
   * @param {import("kibitz-api").components["schemas"]["CreateTable"]} body
   */
  async function startOffline(body) {
    try {
      const id = await createOffline(body, idempotencyKey);
      store.rememberTable({ id, game: body.game, players: body.players, finished: false }, meta.title);
      toast(t("sync.created_offline"));
      navigate(`/t/${encodeURIComponent(id)}`);
      return true;
    } catch (err) {
      toastError(err, t("offline.not_sent"));
      return false;
    }
  }

  return game.mountSetup(container, { meta, create });
}
