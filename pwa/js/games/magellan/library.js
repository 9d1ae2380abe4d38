// The shared library of board sheets (MG-2): numbers other groups typed in from the same edition of
// the board. In the setup a group picks one ("confirmed at 3 tables") instead of typing; at the
// table its players confirm the numbers against their own board, or share their own numbers for
// their edition. Kibitz never invents a number: every one here was typed in by players.
import { h, present } from "../../dom.js";
import { t } from "../../i18n.js";
import { ApiError, OfflineError } from "../../api.js";
import { getToken } from "../../store.js";
import { toast, toastError } from "../../toast.js";
import { panel } from "../../ui/panel.js";
import { whyLink } from "./common.js";
import * as sheets from "./sheets.js";

/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["MagellanTable"]} MagellanTable */

/**
 * "confirmed at 3 tables"
 * @param {number} count
 * @returns {string}
 */
export function confirmedText(count) {
  return t("magellan.library.confirmed", { count });
}

/**
 * The setup's picker: <select> of published sheets grouped by edition, and a line about the pick.
 * onPick(publication | null) is called when the choice changes.
 * @param {{onPick: (publication: Schemas["Publication"] | null) => void}} options
 * @returns {{el: HTMLElement, load: () => Promise<void>, clear: () => void}}
 */
export function libraryPicker({ onPick }) {
  const select = h("select", { id: "mg-library-select", class: "input", testid: "mg-library-select" });
  const info = h("p", { class: "small mg-library-info", testid: "mg-library-info" }, t("magellan.setup.library_hint"));
  const host = h(
    "div",
    { class: "mg-library", testid: "mg-library" },
    h("label", { class: "section-title", for: "mg-library-select" }, t("magellan.setup.library")),
    select,
    info,
  );
  host.hidden = true; // until the server lists at least one
  /** @type {Map<string, {publication: Schemas["Publication"], edition: Schemas["Edition"]}>} */
  const byId = new Map();

  /** @param {string} id */
  function describe(id) {
    const picked = byId.get(id);
    if (!picked) {
      info.replaceChildren(t("magellan.setup.library_hint"), " ", whyLink("MG-2", "why-library"));
      return;
    }
    const { publication, edition } = picked;
    const disagree = edition.disagreements.length;
    // replaceChildren writes a null as the text "null" ("confirmed at 2 tables.null", issue 33).
    info.replaceChildren(
      t("magellan.library.from", { edition: publication.edition, confirmed: confirmedText(publication.confirmations) }),
      ...(disagree ? [" ", h("span", { class: "mg-warning", testid: "mg-library-disagree" }, t("magellan.setup.library_disagree", { count: disagree }))] : []),
    );
  }

  select.addEventListener("change", () => {
    describe(select.value);
    const picked = byId.get(select.value);
    onPick(picked ? picked.publication : null);
  });

  async function load() {
    let library;
    try {
      library = await sheets.getLibrary();
    } catch (err) {
      if (!(err instanceof OfflineError)) toastError(err, t("error.generic"));
      return;
    }
    byId.clear();
    const groups = library.editions.map((edition) =>
      h(
        "optgroup",
        { label: edition.edition },
        ...edition.publications.map((publication) => {
          byId.set(publication.id, { publication, edition });
          const text = `${publication.edition} · ${confirmedText(publication.confirmations)} · ${t("magellan.library.filled", { count: publication.filled })}`;
          return h("option", { value: publication.id }, text);
        }),
      ),
    );
    select.replaceChildren(h("option", { value: "" }, t("magellan.setup.library_none")), ...groups);
    host.hidden = byId.size === 0;
    describe("");
  }

  return {
    el: host,
    load,
    /** Forget the pick (an own sheet was chosen instead). */
    clear() {
      select.value = "";
      describe("");
    },
  };
}

/**
 * Does the sheet hold any number yet?
 * @param {unknown} data
 * @returns {boolean}
 */
function hasNumbers(data) {
  if (data === null || data === undefined) return false;
  if (typeof data === "number") return true;
  return typeof data === "object" && Object.values(data).some(hasNumbers);
}

/**
 * The panel's parts: where the numbers came from, "they match", and sharing them for an edition.
 * @returns {{el: HTMLElement, editionInput: HTMLInputElement, publishButton: HTMLButtonElement, confirmButton: HTMLButtonElement, status: HTMLElement, share: HTMLDetailsElement}}
 */
function libraryPanelParts() {
  const editionInput = h("input", {
    type: "text",
    class: "input",
    id: "mg-library-edition",
    testid: "mg-library-edition",
    maxlength: 80,
    autocomplete: "off",
    placeholder: t("magellan.library.edition_placeholder"),
  });
  const publishButton = h("button", { type: "button", class: "btn btn-secondary", testid: "mg-library-publish" }, t("magellan.library.publish"));
  const confirmButton = h("button", { type: "button", class: "btn btn-secondary", testid: "mg-library-confirm" }, t("magellan.library.confirm"));
  const status = h("p", { class: "small", testid: "mg-library-status" });
  const share = h(
    "details",
    { class: "mg-library-share", testid: "mg-library-share" },
    h("summary", {}, t("magellan.library.share")),
    h("p", { class: "muted small" }, t("magellan.library.share_hint")),
    h("label", { class: "section-title", for: "mg-library-edition" }, t("magellan.library.edition")),
    editionInput,
    publishButton,
  );
  const el = panel(
    { title: [t("magellan.library.title"), " ", whyLink("MG-2", "why-library-status")], class: "mg-library-status", testid: "mg-library-panel" },
    status,
    confirmButton,
    share,
  );
  return { el, editionInput, publishButton, confirmButton, status, share };
}

/**
 * "They match our board": the table confirms the published sheet it started from.
 * @param {import("../registry.js").Controller} ctl
 * @returns {Promise<void>}
 */
async function confirmLinked(ctl) {
  const linked = present(sheets.tablePublication(ctl.id), "the table's published sheet");
  const answer = await sheets.confirmPublication(linked.id, ctl.id, getToken(ctl.id));
  // A confirmation counts once the table's game is scored with these numbers (MG-10).
  toast(answer.counted ? t("magellan.library.thanks", { confirmed: confirmedText(answer.publication.confirmations) }) : t("magellan.library.thanks_pending"));
}

/**
 * The table's numbers as our own sheet (updated when we hold one, else a new one), published for
 * `edition`, and confirmed by this table (it typed them in from its board).
 * @param {import("../registry.js").Controller} ctl
 * @param {Schemas["BoardSheet"]} data
 * @param {string} edition
 * @returns {Promise<Schemas["Confirmed"]>}
 */
async function publishOwn(ctl, data, edition) {
  const linkedSheet = sheets.linkedSheet(ctl.id);
  const own = linkedSheet && sheets.sheetToken(linkedSheet);
  const name = sheets.knownSheets().find((s) => s.id === linkedSheet)?.name || t("magellan.sheet.default_name");
  const saved = await sheets.saveSheet(own ? linkedSheet : null, name, data);
  sheets.linkTable(ctl.id, saved.id);
  const { publication } = await sheets.publishSheet(saved.id, edition);
  sheets.linkPublication(ctl.id, { id: publication.id, edition: publication.edition, confirmed: false });
  return sheets.confirmPublication(publication.id, ctl.id, getToken(ctl.id));
}

/**
 * The table's panel: where the numbers came from, "they match our board" (counted once per table),
 * and sharing this table's numbers for its edition. One panel per screen: its input survives updates.
 * @param {import("../registry.js").Controller} ctl
 * @returns {{render: (next: MagellanTable) => HTMLElement}}
 */
export function makeLibraryPanel(ctl) {
  /** @type {MagellanTable | null} */
  let table = null;
  let busy = false;
  const { el, editionInput, publishButton, confirmButton, status, share } = libraryPanelParts();

  /**
   * @param {MagellanTable} next
   * @returns {HTMLElement}
   */
  function render(next) {
    table = next;
    const linked = sheets.tablePublication(ctl.id);
    const writable = !ctl.readOnly && !!getToken(ctl.id);
    if (linked) {
      status.textContent = linked.confirmed ? t("magellan.library.confirmed_here", { edition: linked.edition }) : t("magellan.library.from_table", { edition: linked.edition });
    } else {
      status.textContent = t("magellan.library.own_numbers");
    }
    confirmButton.hidden = !(linked && !linked.confirmed && writable);
    share.hidden = !writable || !hasNumbers(table.state.board_sheet);
    el.hidden = !linked && share.hidden;
    confirmButton.disabled = publishButton.disabled = busy;
    return el;
  }

  /** @param {() => Promise<void>} task */
  async function run(task) {
    if (busy) return;
    busy = true;
    render(present(table, "the table"));
    try {
      await task();
    } catch (err) {
      if (err instanceof ApiError && err.problem?.code === "sheet-disagrees") toast(t("magellan.library.disagrees"), { kind: "error" });
      else toastError(err, err instanceof OfflineError ? t("offline.not_sent") : t("error.generic"));
    } finally {
      busy = false;
      render(present(table, "the table"));
    }
  }

  confirmButton.addEventListener("click", () => run(() => confirmLinked(ctl)));

  publishButton.addEventListener("click", () =>
    run(async () => {
      const edition = editionInput.value.trim();
      if (!edition) {
        toast(t("magellan.library.edition_needed"), { kind: "error" });
        editionInput.focus();
        return;
      }
      const answer = await publishOwn(ctl, present(table, "the table").state.board_sheet, edition);
      share.open = false;
      toast(
        answer.counted
          ? t("magellan.library.published", { edition: answer.publication.edition, confirmed: confirmedText(answer.publication.confirmations) })
          : t("magellan.library.published_pending", { edition: answer.publication.edition }),
      );
    }),
  );

  return { render };
}
