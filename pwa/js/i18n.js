// Translations: every user-visible string goes through t(). Dictionaries live in /i18n/<lang>.json.
import * as store from "./store.js";
import { present } from "./dom.js";

// The languages of Mahé's rule book (Magellan and Mhing were published in German).
export const LANGUAGES = ["en", "de", "fr", "it", "nl", "es"];
/** Each language named in itself, for the chooser. */
export const LANGUAGE_NAMES = { en: "English", de: "Deutsch", fr: "Français", it: "Italiano", nl: "Nederlands", es: "Español" };
const FALLBACK = "en";

/** A catalog: key (or English template) → sentence. @typedef {Record<string, string>} Catalog */
/** A sentence's values. @typedef {Record<string, unknown>} Params */
/**
 * A refusal's sentence as the phone's referee gives it: the template, its values, and values that
 * are sentences of their own.
 * @typedef {{template?: string, params?: Params, parts?: Record<string, Said | undefined>}} Said
 */

let current = FALLBACK;
/** @type {Catalog} */
let dict = {};
/** @type {Catalog} */
let fallbackDict = {};
/** @type {Catalog} */
let serverMessages = {}; // the server's catalog for this language: {English template: sentence}
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();
/**
 * A file's URL through the page's import map: its content-hashed name (api/phone/static_build.py).
 * @param {string} url
 * @returns {string}
 */
const asset = (url) => (typeof import.meta.resolve === "function" ? import.meta.resolve(url) : new URL(url, import.meta.url).href);

/** @param {string} lang @returns {Promise<Catalog>} */
async function loadDict(lang) {
  const res = await fetch(asset(`../i18n/${lang}.json`));
  if (!res.ok) throw new Error(`i18n ${lang}: ${res.status}`);
  return res.json();
}

/** @returns {string} the saved language, else the phone's, else English */
function pickLanguage() {
  const saved = store.getLang();
  if (saved !== null && LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || FALLBACK]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

/** @returns {Promise<void>} */
export async function initI18n() {
  fallbackDict = await loadDict(FALLBACK);
  await use(pickLanguage());
}

/**
 * The server's catalog (api/i18n/<lang>.po as JSON), for refusals the phone's own referee makes.
 * @param {string} lang
 * @returns {Promise<Catalog>}
 */
async function loadServerMessages(lang) {
  if (lang === FALLBACK) return {};
  try {
    const res = await fetch(asset(`/referee/messages/${lang}.json`));
    return res.ok ? await res.json() : {};
  } catch {
    return {};
  }
}

/** @param {string} lang @returns {Promise<void>} */
async function use(lang) {
  [dict, serverMessages] = await Promise.all([lang === FALLBACK ? fallbackDict : loadDict(lang).catch(() => fallbackDict), loadServerMessages(lang)]);
  current = lang;
  document.documentElement.lang = lang;
}

/** @returns {string} the language on screen */
export function lang() {
  return current;
}

/**
 * The locale for dates and numbers (issue 33): the phone's own region when it speaks the app's
 * language (an en-GB phone gets 28/11/2026 and 28 Nov, not the US 11/28/26), else the language.
 * @returns {string}
 */
export function locale() {
  const tags = typeof navigator === "undefined" ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  const mine = tags.find((tag) => String(tag || "").toLowerCase().split("-")[0] === current);
  if (mine) {
    try {
      return Intl.getCanonicalLocales(mine)[0];
    } catch {
      return current;
    }
  }
  return current;
}

/** @param {string} lang @returns {Promise<void>} */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  store.setLang(lang);
  await use(lang);
  listeners.forEach((fn) => fn(lang));
}

/**
 * @param {(lang: string) => void} fn called after another language was chosen
 * @returns {() => boolean} forgets fn
 */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * A number as the language writes it (Intl): "1234.5" → "1234,5" in German; groups from 10 000.
 * @param {number} value
 * @returns {string}
 */
export function number(value) {
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: 2, useGrouping: "min2" }).format(value);
}

/**
 * t("setup.need_one", {name: "Eva"}) → "Eva needs a turtle colour". With params.count the plural form the language
 * asks for (Intl.PluralRules: ".one", ".other", …) is used when present, else ".other". Numbers are
 * written the language's way. Missing keys fall back to English, then to `fallback`, then the key.
 * @param {string} key
 * @param {Params} [params]
 * @param {string} [fallback]
 * @returns {string}
 */
export function t(key, params = {}, fallback) {
  /** @type {string | undefined} */
  let text;
  if (params.count !== undefined) {
    const form = typeof params.count === "number" ? new Intl.PluralRules(current).select(params.count) : "other";
    text = dict[`${key}.${form}`] ?? dict[`${key}.other`] ?? fallbackDict[`${key}.${form}`] ?? fallbackDict[`${key}.other`];
  }
  text = text ?? dict[key] ?? fallbackDict[key] ?? fallback ?? key;
  const filled = text.replace(/\{(\w+)\}/g, (m, name) => {
    const value = params[name];
    if (value === undefined) return m;
    return typeof value === "number" && Number.isFinite(value) ? number(value) : String(value);
  });
  return current === "fr" ? elide(text, filled, params) : filled;
}

const VOWEL = /^[aeiouyàâäéèêëîïôöùûüœæ]/i;
/**
 * French elision before a name (issue 33: "Au tour de Anna" is "Au tour d’Anna"): "de" and "que"
 * in front of a value that starts with a vowel become "d’" and "qu’". Only where the catalog put a
 * value right after the word, so a sentence's own words are never touched.
 * @param {string} template
 * @param {string} filled
 * @param {Params} params
 * @returns {string}
 */
function elide(template, filled, params) {
  if (!/\b(de|que) \{\w+\}/i.test(template)) return filled;
  let out = "";
  let rest = template;
  // Rebuild piece by piece: the text before each placeholder, then its value.
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    const [whole, name] = match;
    const at = rest.indexOf(whole);
    let before = rest.slice(0, at);
    rest = rest.slice(at + whole.length);
    const value = params[name];
    if (value === undefined) {
      out += before + whole;
      continue;
    }
    const shown = typeof value === "number" && Number.isFinite(value) ? number(value) : String(value);
    if (typeof value === "string" && VOWEL.test(shown)) before = before.replace(/\b(d|qu)e $/i, "$1’");
    out += before + shown;
  }
  return out + rest;
}

/**
 * A refusal the phone's referee made ({detail, template, params}), said in the language on screen
 * from the server's own catalog — as the server says it for Accept-Language; English otherwise.
 * @param {(Said & {detail?: string}) | null | undefined} problem
 * @returns {string}
 */
export function refusalText(problem) {
  return said(problem?.template, problem?.params || {}, problem?.parts || {}) ?? (problem?.detail || "");
}

/**
/**
 * A referee note ({text, template, params}: api/rules/errors.py note) in the language on screen,
 * from the server's catalog like a refusal: the phone keeps no copy of the referee's sentences.
 * @param {{text?: string, template?: string, params?: Record<string, unknown>, code?: string}} note
 * @returns {string}
 */
export function noteText(note) {
  return refusalText({ detail: note?.text || note?.code, template: note?.template, params: note?.params });
}

/**
 * A catalog sentence with its values put in; a value that is a sentence or phrase of its own
 * (`parts`: "red or green") said from the catalog too. Null when the catalog lacks the sentence.
 * @param {string | undefined} template
 * @param {Params} params
 * @param {Record<string, Said | undefined>} parts
 * @returns {string | null}
 */
function said(template, params, parts) {
  const text = template ? serverMessages[template] : undefined;
  if (!text) return null;
  const filled = text.replace(/\{(\w+)\}/g, (m, name) => {
    if (!(name in params)) return m;
    const part = parts[name];
    if (part) return said(part.template, part.params || {}, part.parts || {}) ?? String(params[name]);
    const value = params[name];
    return typeof value === "string" ? serverMessages[value] ?? value : String(value);
  });
  const sentence = filled.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
  // As the server does: a translation opening with a value still starts the sentence with a capital.
  const opensWithValue = text.startsWith("{") && /^[A-Z]/.test(present(template, "the template"));
  return opensWithValue ? sentence.charAt(0).toUpperCase() + sentence.slice(1) : sentence;
}

/**
 * Does a translation exist for this key (used for API codes with optional translations)?
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) {
  return key in dict || key in fallbackDict;
}

/**
 * Texts the API writes (decider reasons, notes, result explanations) are English. English users
 * see them verbatim; other languages get the client's template for the same code.
 * @param {string} key
 * @param {Params | undefined} params
 * @param {string | null | undefined} apiText
 * @returns {string}
 */
export function serverText(key, params, apiText) {
  if (lang() === "en" && apiText) return apiText;
  return t(key, params, apiText || "");
}

/**
 * The client's own template for an API code when it has one, else the API's text.
 * @param {string} key
 * @param {Params | undefined} params
 * @param {string | null | undefined} apiText
 * @returns {string}
 */
export function codeText(key, params, apiText) {
  return has(key) ? t(key, params) : apiText || "";
}

/**
 * Format a list of words the language's way (Intl.ListFormat): "red, yellow and green".
 * @param {unknown[]} items
 * @returns {string}
 */
export function list(items) {
  // British English: no comma before "and", as the rest of the texts write it.
  return new Intl.ListFormat(current === "en" ? "en-GB" : current, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** @param {number} p a fraction (0.5 → "50 %") @returns {string} */
export function percent(p) {
  return new Intl.NumberFormat(locale(), { style: "percent", maximumFractionDigits: 0 }).format(p);
}
