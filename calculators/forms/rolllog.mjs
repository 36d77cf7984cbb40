// @ts-check
// The roll log: the last results of this tab, kept across pages (sessionStorage), each
// with "Use <value>" to chain a number into a fitting input on this page (issue #11); and
// "Keep the screen awake" at the table (Wake Lock API, where the browser has it).

import { h, uid } from "../dom.mjs";
import { formatValue } from "./format.mjs";
import { numericOf } from "./form.mjs";
import { pending, selectTab } from "./decks.mjs";
import { FRAMED } from "../guards.mjs";

const LOG_KEY = "tableside:log";
const LOG_MAX = 20;

/** Why stored entries were left out ("" when none was): said under the log. */
let logNote = "";

/** An entry as addToLog stores it: anything else in session storage (another script's,
 * a hand-edited or corrupt value) is left out, never drawn (issue 24). @param {any} e */
function entryOk(e) {
  const text = (/** @type {any} */ x) => typeof x === "string";
  if (!e || typeof e !== "object" || !Number.isFinite(e.t) || !text(e.id) || !text(e.title)
      || !text(e.summary) || !text(e.href) || !text(e.dice) || !Array.isArray(e.values)) return false;
  try { // a link of this site only (no javascript:, no other site)
    if (new URL(e.href, location.href).origin !== location.origin) return false;
  } catch { return false; }
  return e.values.every((/** @type {any} */ v) => Array.isArray(v) && text(v[0]) && text(v[1])
    && (v[2] === null || Number.isFinite(v[2])) && (v[3] === undefined || v[3] === null || text(v[3])));
}

/** The stored log, its unreadable entries left out (and said in `logNote`). */
function readLog() {
  let raw = null;
  try { raw = sessionStorage.getItem(LOG_KEY); } catch { return []; } // storage blocked
  if (raw === null) return [];
  let list;
  try { list = JSON.parse(raw); } catch { list = null; }
  const all = Array.isArray(list) ? list : [];
  const good = all.filter(entryOk);
  if (!Array.isArray(list) || good.length < all.length) {
    logNote = "The roll log kept in this tab could not be read in full: what could not be "
      + "read is left out.";
  }
  return good.slice(0, LOG_MAX);
}

/** @param {Registry.Calculator} calc @param {Registry.Result} result @param {string} href */
export function addToLog(calc, result, href) {
  const entry = {
    t: Date.now(), id: calc.id, title: calc.title, summary: result.summary, href,
    values: result.values.map(([k, v, kind]) => [k, formatValue(v, kind), numericOf(v), kind]),
    dice: result.dice.map((d) => `${d.value}${d.label ? ` ${d.label}` : ""}`).join(", "),
  };
  const log = [entry, ...readLog()].slice(0, LOG_MAX);
  try { sessionStorage.setItem(LOG_KEY, JSON.stringify(log)); } catch { /* private mode */ }
  renderLog();
}

/**
 * Every whole-number input of the calculators built on this page, with a readable name,
 * its limits and its words, read once per render of the log (a log of 20 entries asks
 * about every value of each: reading the page again for each cost a phone a long task).
 * @typedef {{ el: HTMLInputElement, host: HTMLElement, label: string, text: string,
 *   min: number, max: number, words: Set<string>, shown: boolean, i: number }} Target
 * @returns {Target[]}
 */
function intTargets() {
  const inputs = /** @type {NodeListOf<HTMLInputElement>} */ (
    document.querySelectorAll(".ts-calc[data-ts-ready] input[data-int]"));
  return [...inputs].map((el, i) => {
    const host = /** @type {HTMLElement} */ (el.closest(".ts-calc"));
    const calc = host.querySelector(".ts-title strong")?.textContent || "";
    // looked up in its own calculator (el.labels searches the whole page for each input)
    const label = host.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent || el.name;
    const where = host.dataset.tsContext ? `${host.dataset.tsContext}: ` : "";
    return {
      el, host, label, text: `${where}${calc} › ${label}`, i,
      min: el.dataset.min === undefined ? -Infinity : Number(el.dataset.min),
      max: el.dataset.max === undefined ? Infinity : Number(el.dataset.max),
      words: words(`${label} ${el.name.replace(/_/g, " ")}`),
      shown: !host.hidden && !host.closest("[hidden]"),
    };
  });
}

const WORD = /[a-z0-9]{2,}/g;
/** @param {string} text */
const words = (text) => new Set((text.toLowerCase().match(WORD) || [])
  .map((w) => (w.length > 3 ? w.replace(/s$/, "") : w)));

/** Whole numbers only: counts, and table cells that read as one ("22" from a profile row);
 * never a probability, a mean or dice. @param {string | undefined} kind */
const chainable = (kind) => !kind || kind === "count" || kind === "text";

/** The calculator on this page that made a log entry (its link names it), if any.
 * @param {string} href @returns {Element | null} */
function madeBy(href) {
  const url = new URL(href, location.href);
  const id = url.searchParams.get("calc");
  if (url.pathname !== location.pathname || !id) return null;
  const n = Number(url.searchParams.get("n") || 0);
  return document.querySelectorAll(`.ts-calc[data-calc="${CSS.escape(id)}"]`)[n] || null;
}

// Chaining (issue #11): the inputs on this page that can take `value` (a whole number of
// the kind "count", or an entry without a kind), the most relevant first: an input whose
// name shares words with the value's name ("Damage" → "Damage taken"), then inputs beside
// the calculator that made it (the same table's deck: the same weapon), then calculators
// whose panel is in view, then page order. Inputs whose limits refuse the value are left out.
/** @param {string} name @param {number} value @param {string | undefined} kind
 * @param {Element | null} from @param {Target[]} targets */
function chainTargets(name, value, kind, from, targets = intTargets()) {
  if (!chainable(kind)) return [];
  const want = words(name);
  const deck = from?.closest(".ts-deck") || from;
  return targets
    .filter((t) => value >= t.min && value <= t.max)
    .map((t) => {
      const shared = [...t.words].filter((w) => want.has(w)).length;
      const beside = deck !== null && deck.contains(t.host);
      return { ...t, score: shared * 10 + (beside ? 2 : 0) + (t.shown ? 1 : 0) };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i);
}

/** @param {HTMLElement} entryEl @param {string} name @param {number} value
 * @param {string | undefined} kind @param {string} href the entry's link */
function useChooser(entryEl, name, value, kind, href) {
  entryEl.querySelector(".ts-use")?.remove();
  // Panels behind tabs are built when the page is idle; the reader asked for every input
  // that fits, so those not built yet are built now (else the best fit may be missing).
  for (const build of [...pending.values()]) build();
  const targets = chainTargets(name, value, kind, madeBy(href));
  const id = uid("use");
  const select = h("select", { id }, targets.map((t, i) => h("option", { value: i, text: t.text })));
  const box = h("div", { class: "ts-use" },
    h("label", { for: id, text: `Use ${name} ${value} as` }), select,
    h("button", { type: "button", class: "md-button md-button--primary", text: "Apply",
      onclick: () => {
        const t = targets[Number(select.value)];
        if (!t) return;
        const host = t.host;
        const deck = host.parentElement?.closest(".ts-deck");
        if (deck) selectTab(deck, host);
        const more = /** @type {HTMLDetailsElement | null} */ (t.el.closest("details.ts-more"));
        if (more) more.open = true;
        t.el.value = String(value);
        t.el.dispatchEvent(new Event("input", { bubbles: true }));
        box.remove();
        t.el.scrollIntoView({ behavior: "smooth", block: "center" });
        t.el.focus({ preventScroll: true });
      } }),
    h("button", { type: "button", class: "md-button", text: "Cancel", onclick: () => box.remove() }));
  entryEl.append(box);
  select.focus();
}

/** @type {Intl.DateTimeFormat | null} */
let clockFormat = null;
/** The entries' times (one formatter: toLocaleTimeString makes one per call). */
const clock = () => (clockFormat ||= new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit" }));

/** Draw the log again once the panels behind tabs are built (their inputs may take values
 * no input in view takes), unless the reader has a chooser open in it. */
export function refreshLog() {
  if (!document.querySelector(".ts-log .ts-use")) renderLog();
}

export function renderLog() {
  const panel = document.querySelector(".ts-log");
  if (!panel) return;
  const list = panel.querySelector(".ts-log-list");
  const log = readLog();
  const targets = intTargets();
  list.replaceChildren(...log.map((e) => {
    const li = h("li", { class: "ts-log-entry" },
      h("p", {}, h("a", { href: e.href, text: e.title }), " ",
        h("time", { datetime: new Date(e.t).toISOString(), text: clock().format(e.t) })),
      h("p", { class: "ts-log-summary", text: e.summary }),
      e.dice ? h("p", { class: "ts-log-dice", text: `Dice: ${e.dice}` }) : null);
    const usable = e.values.filter(([, , n, kind]) => n !== null && chainable(kind)
      && targets.some((t) => n >= t.min && n <= t.max));
    if (usable.length) {
      li.append(h("p", { class: "ts-log-use" }, usable.map(([k, , n, kind]) =>
        h("button", { type: "button", class: "ts-chip", text: `Use ${k} ${n}`,
          disabled: FRAMED, onclick: () => useChooser(li, k, n, kind, e.href) }))));
    }
    return li;
  }));
  const note = /** @type {HTMLElement} */ (panel.querySelector(".ts-log-note"));
  note.textContent = logNote;
  note.hidden = !logNote;
  /** @type {HTMLElement} */ (panel.querySelector(".ts-log-empty")).hidden = log.length > 0;
  /** @type {HTMLElement} */ (panel.querySelector(".ts-log-clear")).hidden = log.length === 0;
}

// Keep the screen on at the table, only where the browser can (Wake Lock API).
let wakeWanted = false;
let wakeLock = null;

async function setWake(on) {
  wakeWanted = on;
  try {
    if (on && !wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch (e) {
    console.warn("Tableside: wake lock refused:", e);
  }
}

document.addEventListener("visibilitychange", () => {
  if (wakeWanted && document.visibilityState === "visible") setWake(true);
});

export function mountLog() {
  const article = document.querySelector("article.md-content__inner") || document.querySelector("main");
  if (!article || article.querySelector(".ts-log")) return;
  const wakeId = uid("wake");
  const wake = "wakeLock" in navigator ? h("label", { class: "ts-check ts-wake", for: wakeId },
    h("input", { type: "checkbox", id: wakeId, checked: wakeWanted,
      onchange: (e) => setWake(e.target.checked) }),
    h("span", { text: "Keep the screen awake" })) : null;
  const panel = h("section", { class: "ts-log", "aria-labelledby": `${wakeId}-h` },
    h("h2", { id: `${wakeId}-h`, text: "Roll log" }),
    wake,
    h("p", { class: "ts-log-empty", text: "Results you compute or roll on any page appear here (last 20, this tab only)." }),
    h("p", { class: "ts-log-note", role: "status", hidden: true }),
    h("ol", { class: "ts-log-list", reversed: true }),
    h("button", { type: "button", class: "md-button ts-log-clear", text: "Clear the log",
      onclick: () => {
        try { sessionStorage.removeItem(LOG_KEY); } catch { /* storage blocked */ }
        logNote = "";
        renderLog();
      } }));
  article.append(panel);
  renderLog();
}
