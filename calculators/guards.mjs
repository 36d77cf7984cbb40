// @ts-check
// What the calculators refuse, and say so (#9): a link's values that the calculator would
// not accept (each shown with its reason, the page's own value kept), a link to a
// calculator the page does not have, a result whose inputs changed since (marked out of
// date until computed again), and a page framed by another site (its actions off: GitHub
// Pages cannot send frame-ancestors, and a <meta> policy cannot carry it).
// Used by tableside.js; small DOM work only, no state of its own.

import { h } from "./dom.mjs";

// A link's values are checked before they reach the form: one that the calculator would
// refuse is not silently swapped for another; the form keeps the page's own value and
// says which value of the link was not used, and why (#9).
const LINK_KEYS = new Set(["calc", "n", "roll", "seed"]);
const BOOL_WORDS = new Set(["1", "true", "yes", "on", "0", "false", "no", "off", ""]);
/**
 * The whole number `raw` reads as, or null: the engine's one reader (rules_pkg/registry.py
 * WHOLE_NUMBER, given to every int input as `pattern`), so a link's value is used exactly
 * when Python would take it ("0x10", "1e3", 30 digits: neither does).
 * @param {Registry.Input} input @param {string} raw @returns {number | null}
 */
export function wholeNumber(input, raw) {
  const m = new RegExp(`^(?:${input.pattern || "(?!)"})$`).exec(raw);
  return m ? Number(m[1]) : null;
}
export const quote = (v) => `“${String(v).slice(0, 40)}”`;

/** Why `raw` (from a link) cannot be `input`'s value, or "" when it can. */
/** @param {Registry.Input} input @param {string} raw */
function linkValueProblem(input, raw) {
  if (input.kind === "choice") {
    return (input.choices || []).some(([v]) => v === raw) ? "" : "is not one of the choices";
  }
  if (input.kind === "bool") {
    return BOOL_WORDS.has(raw.trim().toLowerCase()) ? "" : "is not yes or no (1 or 0)";
  }
  if (input.kind === "int") {
    const n = wholeNumber(input, raw);
    if (n === null) return "is not a whole number written with the digits 0-9";
    if (input.min != null && n < input.min) return `is below the smallest value, ${input.min}`;
    if (input.max != null && n > input.max) return `is above the largest value, ${input.max}`;
    return "";
  }
  return raw.length > 200 ? "is too long" : "";
}

/** The link's value for each input it may set, and a note for each value it may not. */
/** @param {Registry.Calculator} calc @param {URLSearchParams} q
 * @param {(input: Registry.Input) => unknown} fallback */
export function checkLink(calc, q, fallback) {
  const values = {};
  const notes = [];
  const names = new Set(calc.inputs.map((i) => i.name));
  for (const input of calc.inputs) {
    if (!q.has(input.name)) continue;
    const raw = q.get(input.name);
    const why = linkValueProblem(input, raw);
    if (!why) values[input.name] = raw;
    else {
      notes.push(`${input.label}: ${quote(raw)} ${why}; the page's own value `
        + `(${shownValue(input, fallback(input))}) is used instead.`);
    }
  }
  for (const key of new Set(q.keys())) {
    if (!LINK_KEYS.has(key) && !names.has(key)) {
      notes.push(`${quote(key)} is not an input of this calculator; it was ignored.`);
    }
  }
  const roll = q.get("roll");
  if (roll !== null && roll !== "1" && roll !== "0") {
    notes.push(`roll: ${quote(roll)} is not 1 or 0; nothing was rolled.`);
  }
  return { values, notes };
}

/** @param {Registry.Input} input @param {unknown} value */
function shownValue(input, value) {
  if (input.kind === "choice") {
    const hit = (input.choices || []).find(([v]) => v === String(value));
    return hit ? hit[1] : String(value);
  }
  if (input.kind === "bool") return value === true || String(value) === "1" ? "yes" : "no";
  return String(value ?? "");
}

export function linkNotes(notes) {
  if (!notes.length) return null;
  return h("div", { class: "ts-link-notes", role: "status" },
    h("p", { text: "Some values in the link you followed were not used:" }),
    h("ul", {}, notes.map((n) => h("li", { text: n }))));
}

/** Which of the page's calculators of that id a link is for: `n`, 0 to 9999 in plain
 * digits (absent: 0), or null (then no calculator takes the link's values, and the note
 * says so). forms/url-state.mjs reads it here too: one reader. @param {URLSearchParams} q */
export function linkIndex(q) {
  const raw = q.get("n") ?? "0";
  return /^[0-9]{1,4}$/.test(raw) ? Number(raw) : null;
}

// A link to a calculator this page does not have (a wrong id, or n=99): said once, at the
// top of the page, instead of nothing.
/** @param {Map<string, number>} counts @param {Map<string, Registry.Calculator>} registry */
export function checkLinkTarget(counts, registry) {
  const q = new URLSearchParams(location.search);
  const id = q.get("calc");
  if (id === null) return;
  const nRaw = q.get("n") ?? "0";
  const n = linkIndex(q);
  const have = counts.get(id) || 0;
  let note = "";
  if (!have) {
    note = `The link you followed names a calculator ${quote(id)} that is not on this page.`;
  } else if (n === null || n >= have) {
    const title = registry.get(id)?.title || id;
    note = `The link you followed asks for calculator n=${quote(nRaw)} of “${title}”, but this `
      + `page has ${have} of them (n=0${have > 1 ? `…${have - 1}` : ""}); its values were not used.`;
  }
  if (!note) return;
  const article = document.querySelector("article.md-content__inner") || document.querySelector("main");
  const h1 = article?.querySelector("h1");
  const el = linkNotes([note]);
  if (h1) h1.after(el);
  else article?.prepend(el);
}

// --- stale results: a result whose inputs changed is marked until computed again -------
export function markStale(result, announce) {
  // an answer worked out ahead is never out of date: forms/ahead.mjs shows it for its own inputs
  // only (issue 13)
  if (result.hidden || result.dataset.stale !== undefined
      || result.dataset.tsAhead !== undefined) return;
  result.dataset.stale = "";
  const text = "Out of date: the inputs have changed since this result. Compute again to update it.";
  result.prepend(h("p", { class: "ts-stale-note", text }));
  announce(text);
}

export function clearStale(result) {
  delete result.dataset.stale;
  result.querySelector(":scope > .ts-stale-note")?.remove();
}

// --- framing: another site showing this page in a frame gets no working buttons ------------
// GitHub Pages cannot send frame-ancestors, and a <meta> policy cannot carry it: so a framed
// page says so, and its actions (Compute, Roll, Use as…) are off (#9).
export const FRAMED = (() => {
  try {
    return window.top !== window.self;
  } catch {
    return true; // a cross-origin parent: certainly framed
  }
})();
export const FRAMED_TEXT = "This page is shown inside another site, so its calculators are switched "
  + "off here. Open the page on its own to use them.";

export function framedNotice() {
  if (!FRAMED || document.querySelector(".ts-framed")) return;
  document.documentElement.dataset.tsFramed = "";
  const article = document.querySelector("article.md-content__inner") || document.querySelector("main")
    || document.body;
  const open = h("a", { href: location.href, target: "_blank", rel: "noopener",
    text: "Open this page on its own" });
  article.prepend(h("div", { class: "ts-framed", role: "alert" },
    h("p", { text: FRAMED_TEXT }), h("p", {}, open)));
}

// The calculators' own code refused: tableside.js (or a module it imports) is not the
// file this site was built with, so the browser's integrity check never ran it (#9), or it
// could not be fetched. Its calculator slots would stay empty; each says why instead. This
// module is also imported by offline.js, which runs whether or not tableside.js did; module
// scripts have all run by DOMContentLoaded, so tableside.js's mark is there if it ran.
export const UI_MISSING_TEXT = "The calculators could not be loaded: their code is not the "
  + "code this site was built with, or it could not be fetched. Reload the page to try "
  + "again; the tables on this page still work.";

function uiMissing() {
  if (document.documentElement.dataset.tsUi !== undefined) return; // tableside.js ran
  for (const host of document.querySelectorAll(".ts-calc:not([data-ts-ready])")) {
    /** @type {HTMLElement} */ (host).dataset.tsReady = "";
    host.replaceChildren(h("p", { class: "ts-status", role: "status", text: UI_MISSING_TEXT }));
  }
}

if (globalThis.document) {
  document.addEventListener("DOMContentLoaded", () => {
    uiMissing();
    window.document$?.subscribe(() => { uiMissing(); }); // each instant-navigation page
  }, { once: true });
}
