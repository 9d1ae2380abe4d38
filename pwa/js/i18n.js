// Translations: every user-visible string goes through t(). Dictionaries live in /i18n/<lang>.json.
import * as store from "./store.js";

export const LANGUAGES = ["en", "de"];
const FALLBACK = "en";

let current = FALLBACK;
let dict = {};
let fallbackDict = {};
const listeners = new Set();

async function loadDict(lang) {
  const res = await fetch(new URL(`../i18n/${lang}.json`, import.meta.url));
  if (!res.ok) throw new Error(`i18n ${lang}: ${res.status}`);
  return res.json();
}

function pickLanguage() {
  const saved = store.getLang();
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || FALLBACK]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

export async function initI18n() {
  fallbackDict = await loadDict(FALLBACK);
  await use(pickLanguage());
}

async function use(lang) {
  dict = lang === FALLBACK ? fallbackDict : await loadDict(lang).catch(() => fallbackDict);
  current = lang;
  document.documentElement.lang = lang;
}

export function lang() {
  return current;
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  store.setLang(lang);
  await use(lang);
  listeners.forEach((fn) => fn(lang));
}

export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * t("mahe.turn_of", {name: "Eva"}) → "Eva's turn". With params.count the key ".one"/".other"
 * variant is used when present. Missing keys fall back to English, then to `fallback`, then the key.
 */
export function t(key, params = {}, fallback) {
  let text;
  if (params.count !== undefined) {
    const form = params.count === 1 ? "one" : "other";
    text = dict[`${key}.${form}`] ?? fallbackDict[`${key}.${form}`];
  }
  text = text ?? dict[key] ?? fallbackDict[key] ?? fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (params[name] === undefined ? m : String(params[name])));
}

/** Does a translation exist for this key (used for API codes with optional translations)? */
export function has(key) {
  return key in dict || key in fallbackDict;
}

/**
 * Texts the API writes (decider reasons, notes, result explanations) are English. English users
 * see them verbatim; other languages get the client's template for the same code.
 */
export function serverText(key, params, apiText) {
  if (lang() === "en" && apiText) return apiText;
  return t(key, params, apiText || "");
}

/** The client's own template for an API code when it has one, else the API's text. */
export function codeText(key, params, apiText) {
  return has(key) ? t(key, params) : apiText || "";
}

/** Format a list of words: "red, yellow and green". */
export function list(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t("common.and")} ${items[items.length - 1]}`;
}

export function percent(p) {
  return new Intl.NumberFormat(current, { style: "percent", maximumFractionDigits: 0 }).format(p);
}
