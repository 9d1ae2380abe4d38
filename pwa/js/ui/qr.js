// A link as a QR code a second phone's camera opens: made by qrcode-generator (npm, pinned, served
// by our own app from /vendor/ and precached, so it works offline) and drawn as SVG through the DOM
// (one path, no HTML strings, no inline styles: the app's CSP holds).
import { h, s } from "../dom.js";

/** @typedef {typeof import("/vendor/qrcode/qrcode.mjs").default} QrFactory */

/** @type {Promise<QrFactory> | null} */
let library = null;

/** @returns {Promise<QrFactory>} */
function qrcode() {
  if (!library) library = import("/vendor/qrcode/qrcode.mjs").then((module) => module.default);
  return library;
}

/**
 * A <figure> with the link's QR code (drawn when the library is there) and its caption.
 * @param {string} url
 * @param {string} caption
 * @param {string} [testid]
 * @returns {HTMLElement}
 */
export function qrFigure(url, caption, testid) {
  const box = h("div", { class: "qr-box", role: "img", "aria-label": caption, testid, "data-url": url });
  qrcode()
    .then((make) => {
      const code = make(0, "M");
      code.addData(url);
      code.make();
      const count = code.getModuleCount();
      const quiet = 4; // the margin a scanner needs around the code
      let path = "";
      for (let row = 0; row < count; row++) {
        for (let col = 0; col < count; col++) {
          if (code.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
        }
      }
      const size = count + 2 * quiet;
      box.replaceChildren(
        s(
          "svg",
          { viewBox: `0 0 ${size} ${size}`, class: "qr-svg", "shape-rendering": "crispEdges", "aria-hidden": "true" },
          s("rect", { width: size, height: size, fill: "#fff" }),
          s("path", { d: path, fill: "#000" }),
        ),
      );
      box.dataset.drawn = "true";
    })
    .catch((/** @type {unknown} */ err) => console.warn("qr", err));
  return h("figure", { class: "qr" }, box, h("figcaption", { class: "small muted" }, caption));
}
