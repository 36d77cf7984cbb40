// @ts-check
// The roll log: the last results of this tab, kept across pages (sessionStorage), each
// with "Use <value>" to chain a number into a fitting input on this page (issue #11); and
// "Keep the screen awake" at the table (Wake Lock API, where the browser has it).

import { h, uid } from "./dom.mjs";
import { formatValue } from "./format.mjs";
import { numericOf } from "./form.mjs";
import { selectTab } from "./decks.mjs";
import { FRAMED } from "./guards.mjs";

const LOG_KEY = "tableside:log";
const LOG_MAX = 20;

function readLog() {
  try { return JSON.parse(sessionStorage.getItem(LOG_KEY) || "[]"); } catch { return []; }
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

/** Every whole-number input of the calculators built on this page, with a readable name. */
function intTargets() {
  const inputs = /** @type {NodeListOf<HTMLInputElement>} */ (
    document.querySelectorAll(".ts-calc[data-ts-ready] input[data-int]"));
  return [...inputs].map((el) => {
    const host = /** @type {HTMLElement} */ (el.closest(".ts-calc"));
    const calc = host.querySelector(".ts-title strong")?.textContent || "";
    const label = document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent || el.name;
    const where = host.dataset.tsContext ? `${host.dataset.tsContext}: ` : "";
    return { el, host, label, text: `${where}${calc} › ${label}` };
  });
}

const WORD = /[a-z0-9]{2,}/g;
const words = (text) => new Set((text.toLowerCase().match(WORD) || [])
  .map((w) => (w.length > 3 ? w.replace(/s$/, "") : w)));

// Chaining (issue #11): the inputs on this page that can take `value` (a whole number of
// the kind "count", or an entry without a kind), the most relevant first: an input whose
// name shares words with the value's name ("Damage" → "Damage taken"), then calculators
// whose panel is in view, then page order. Inputs whose limits refuse the value are left out.
function chainTargets(name, value, kind) {
  // Whole numbers only: counts, and table cells that read as one ("22" from a profile
  // row); never a probability, a mean or dice.
  if (kind && kind !== "count" && kind !== "text") return [];
  const want = words(name);
  return intTargets()
    .filter(({ el }) => {
      const min = el.dataset.min === undefined ? -Infinity : Number(el.dataset.min);
      const max = el.dataset.max === undefined ? Infinity : Number(el.dataset.max);
      return value >= min && value <= max;
    })
    .map((t, i) => {
      const shared = [...words(`${t.label} ${t.el.name.replace(/_/g, " ")}`)]
        .filter((w) => want.has(w)).length;
      const shown = !t.host.hidden && !t.host.closest("[hidden]");
      return { ...t, score: shared * 10 + (shown ? 1 : 0), i };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i);
}

function useChooser(entryEl, name, value, kind) {
  entryEl.querySelector(".ts-use")?.remove();
  const targets = chainTargets(name, value, kind);
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

export function renderLog() {
  const panel = document.querySelector(".ts-log");
  if (!panel) return;
  const list = panel.querySelector(".ts-log-list");
  const log = readLog();
  const canUse = intTargets().length > 0;
  list.replaceChildren(...log.map((e) => {
    const li = h("li", { class: "ts-log-entry" },
      h("p", {}, h("a", { href: e.href, text: e.title }), " ",
        h("time", { datetime: new Date(e.t).toISOString(),
          text: new Date(e.t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) })),
      h("p", { class: "ts-log-summary", text: e.summary }),
      e.dice ? h("p", { class: "ts-log-dice", text: `Dice: ${e.dice}` }) : null);
    const usable = e.values.filter(([k, , n, kind]) => n !== null
      && chainTargets(k, n, kind).length);
    if (canUse && usable.length) {
      li.append(h("p", { class: "ts-log-use" }, usable.map(([k, , n, kind]) =>
        h("button", { type: "button", class: "ts-chip", text: `Use ${k} ${n}`,
          disabled: FRAMED, onclick: () => useChooser(li, k, n, kind) }))));
    }
    return li;
  }));
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
    h("ol", { class: "ts-log-list", reversed: true }),
    h("button", { type: "button", class: "md-button ts-log-clear", text: "Clear the log",
      onclick: () => {
        sessionStorage.removeItem(LOG_KEY);
        renderLog();
      } }));
  article.append(panel);
  renderLog();
}
