// @ts-check
// Tableside calculators: one generic UI for every calculator in rules_pkg's registry.
//
// Every `<div class="ts-calc" data-calc="<id>" data-preset='{json}'>` on a page becomes a
// form built from the registry entries the page carries (or registry.json); Python
// (self-hosted Pyodide, in a worker: python/boot.mjs) loads once per visit and survives
// Material's instant navigation, which keeps the document.
// No inline JS: ready for a strict CSP. Python's start is python/boot.mjs's (one promise).

import { engineNote, failure, fetchJSON, onProgress, python, PY_SLOW_MS } from "./python/boot.mjs";
import { fragmentTarget, pinFragment } from "./forms/anchor.mjs";
import { h, painted, uid } from "./dom.mjs";
import { fieldsOf, MAX_FIELD, readInputs } from "./forms/form.mjs";
import { urlState, writeUrl } from "./forms/url-state.mjs";
import { highlightRows, offerPush, renderResult, revealResult } from "./forms/result.mjs";
import { addToLog, mountLog, refreshLog } from "./forms/rolllog.mjs";
import { answerAhead } from "./forms/ahead.mjs";
import { groupDecks, pending, selectTab, shortTitle, tableCaption } from "./forms/decks.mjs";
import {
  checkLink, checkLinkTarget, clearStale, FRAMED, FRAMED_TEXT, framedNotice, linkNotes,
  markStale, quote, wholeNumber,
} from "./guards.mjs";

// The encounter tracker (issue 12) listens for `tableside:result` (dispatched below) and
// adds "Apply to …"; loaded on the side, so the calculators never depend on it.
import("./encounter/apply.js").catch((err) => { console.warn("Tableside encounter:", err); });

const HERE = new URL(".", import.meta.url);
// This code ran (it passed its integrity check): guards.mjs fills the slots otherwise.
document.documentElement.dataset.tsUi = "ready";

const root = document.documentElement;
// Material 9's search dialog has no accessible name (axe: aria-dialog-name); the header,
// and so the dialog, stays across instant navigation. Its name is the search box's own.
const searchDialog = document.querySelector('.md-search[role="dialog"]:not([aria-label])');
searchDialog?.setAttribute("aria-label",
  searchDialog.querySelector(".md-search__input")?.getAttribute("aria-label") || "Search");
// A calculator page asks for Python now, before Material's document$ calls onPage; python/boot.mjs
// starts it once the page's first frame is drawn (its `settled`). Framed: no engine
// (guards.mjs).
if (document.querySelector(".ts-calc") && !FRAMED) python();
onProgress((what) => {
  for (const el of document.querySelectorAll(".ts-calc .ts-status[data-loading]")) {
    el.textContent = `Loading the rules engine… (${what})`;
  }
});
/** @param {Registry.Calculator[]} list */
const byId = (list) => new Map(list.map((c) => [c.id, c]));
/** registry.json: every calculator, by id (its shape: rules_pkg/shapes.py, generated types).
 * Fetched only for a page that lacks some of its own entries (see pageRegistry).
 * @type {Promise<Map<string, Registry.Calculator>> | null} */
let registryP = null;
const fullRegistry = () => (registryP ||= fetchJSON(new URL("registry.json", HERE)).then(byId));

/**
 * The page's own entries (scripts/site/page_registry.py), when they cover every host: no
 * fetch to wait for between the steps of buildPage (a fetch here once let a busy phone
 * paint the pinned heading over empty boxes, and the forms built after it shifted the page:
 * issue 11).
 * @param {HTMLElement[]} hosts
 * @returns {Map<string, Registry.Calculator> | null}
 */
function pageRegistry(hosts) {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(".ts-registry[data-registry]"));
  if (!el) return null;
  let own;
  try { own = byId(JSON.parse(el.dataset.registry || "[]")); } catch { return null; }
  return hosts.every((host) => own.has(host.dataset.calc || "")) ? own : null;
}

// --- one calculator ----------------------------------------------------------------------
/** @param {any} host @param {Registry.Calculator} calc @param {number} index */
function mount(host, calc, index) {
  host.dataset.tsReady = "";
  let preset = {};
  try { preset = JSON.parse(host.dataset.preset || "{}"); } catch { preset = {}; }
  const q = urlState(calc.id, index);
  const start = Object.fromEntries(calc.inputs.map((i) => [i.name,
    i.name in preset ? preset[i.name] : i.default]));
  const fromLink = q ? checkLink(calc, q, (input) => start[input.name])
    : { values: {}, notes: [] };
  const initial = (input) => (input.name in fromLink.values ? fromLink.values[input.name]
    : start[input.name]);

  const status = h("p", { class: "ts-status", role: "status" });
  const error = h("p", { class: "ts-error", "aria-live": "assertive", hidden: true });
  const seedBox = calc.rolls ? h("input", { type: "text", inputmode: "numeric",
    placeholder: "random",
    id: uid("seed"), name: "seed", maxlength: 10, autocomplete: "off" }) : null;
  if (seedBox && q && q.get("roll") === "1") seedBox.value = q.get("seed") || "";
  const titleId = uid("title");
  const form = h("form", { class: "ts-form", novalidate: true, "aria-labelledby": titleId },
    h("p", { class: "ts-title", id: titleId },
      h("span", { class: "ts-kicker", text: "Calculator" }), h("strong", { text: calc.title })),
    calc.description ? h("p", { class: "ts-desc", text: calc.description }) : null,
    fieldsOf(calc, initial),
    h("div", { class: "ts-actions" },
      h("button", { type: "submit", class: "md-button md-button--primary", text: "Compute" }),
      calc.rolls ? h("button", { type: "button", class: "md-button ts-roll", text: "Roll",
        onclick: () => go(true) }) : null,
      seedBox ? h("span", { class: "ts-seedfield" },
        h("label", { for: seedBox.id, text: "Seed", title: "optional: the same seed rolls the same dice" }),
        seedBox) : null),
    linkNotes(fromLink.notes), status, error);
  const result = h("div", { class: "ts-result", hidden: true, tabindex: "-1",
    "aria-label": `Result: ${calc.title}` });
  host.dataset.tsShort = shortTitle(calc);
  // Screen readers announce changes only in a live region that was already rendered, so
  // the summary or error goes to one that always is (visually hidden), not to the result
  // box, which appears with its content (H11).
  const live = h("p", { class: "ts-live", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const announce = (text) => {
    live.textContent = ""; // the same text again is announced again
    setTimeout(() => { live.textContent = text; }, 50);
  };
  const source = calc.source ? h("p", { class: "ts-source", text: `Source: ${calc.source}` }) : null;
  host.replaceChildren(form, result, live, source);
  if (FRAMED) { // another site's frame: actions off, and no engine to load (guards.mjs)
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    status.textContent = FRAMED_TEXT;
    form.addEventListener("submit", (e) => e.preventDefault());
    return;
  }
  if (!q) answerAhead(host, calc, form, result); // the starting inputs: an answer at once
  form.addEventListener("input", () => markStale(result, announce));
  form.addEventListener("change", () => markStale(result, announce));

  const showError = (msg) => {
    error.textContent = msg;
    error.hidden = !msg;
    if (msg) announce(msg);
  };
  let busy = false;
  // a stale result next to new, refused inputs would mislead: hide it
  const refused = (msg) => {
    result.hidden = true;
    highlightRows(host, []);
    showError(msg);
  };

  // replay: a result restored from the URL (shared link, Back): shown, not logged again.
  async function go(roll, seedOverride = null, replay = false) {
    if (busy || FRAMED) return;
    showError("");
    const values = readInputs(calc, form);
    for (const input of calc.inputs) {
      const v = values[input.name];
      if (typeof v === "string" && v.length > MAX_FIELD && input.kind !== "text") {
        refused(`${input.label} is too long.`);
        return;
      }
      if (input.kind === "int" && wholeNumber(input, v) === null) { // Python's own reader
        refused(v.trim() === "" ? `${input.label} is empty: enter a whole number`
          : `${input.label} must be a whole number written with the digits 0-9, e.g. 3 or -2 `
            + `(got ${quote(v.trim())})`);
        return;
      }
    }
    /** @type {Record<string, string | boolean>} */
    const payload = { ...values };
    let seed = null;
    if (roll) {
      const typed = seedOverride ?? seedBox.value.trim();
      seed = typed !== "" ? typed : crypto.getRandomValues(new Uint32Array(1))[0];
      payload.roll = true;
      payload.seed = String(seed);
    }
    busy = true;
    host.setAttribute("aria-busy", "true");
    try {
      let run;
      if (root.dataset.tsPython !== "ready") {
        status.textContent = "Loading the rules engine…";
        status.dataset.loading = "";
      }
      try {
        run = await python();
      } catch {
        return; // the status line already says why (see below)
      }
      let reply;
      try {
        reply = JSON.parse(await run(calc.id, JSON.stringify(payload)));
      } catch (e) { // the bridge itself failed: same short message as a rule's bug
        reply = { ok: false, kind: "error", detail: String(e) };
      }
      if (!reply.ok) {
        if (reply.kind === "rules") refused(reply.message);
        else {
          console.warn(`Tableside: ${calc.id} failed:`, reply.detail);
          refused("Calculator error: this calculator could not work that out. The tables on this page are unaffected.");
        }
        return;
      }
      renderResult(host, reply.result, seed);
      clearStale(result);
      offerPush(calc, form, result, seed, () => go(true, String(seed)));
      announce(reply.result.summary);
      dispatchEvent(new CustomEvent("tableside:result", {
        detail: { calc: calc.id, inputs: payload, result: reply.result, host } }));
      // the link carries only what differs from the page's own starting values
      const changed = Object.fromEntries(Object.entries(values)
        .filter(([k, v]) => String(v) !== String(start[k])));
      if (!replay) addToLog(calc, reply.result, writeUrl(calc.id, index, changed, seed));
      // Measured last, once the log has changed too: one layout, which the frame reuses.
      revealResult(result, replay);
    } finally {
      busy = false;
      host.removeAttribute("aria-busy");
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    go(false);
  });

  // Show the engine's state: ready at once after the first page of a visit.
  if (root.dataset.tsPython !== "ready") {
    status.textContent = "Loading the rules engine…";
    status.dataset.loading = "";
  }
  const slow = root.dataset.tsPython === "ready" ? 0 : setTimeout(() => {
    delete status.dataset.loading;
    status.textContent = "The rules engine could not be loaded yet (is the connection slow " +
      "or offline?). Still trying; the tables on this page work without it.";
  }, PY_SLOW_MS);
  python().then(() => {
    clearTimeout(slow);
    status.textContent = engineNote() || ""; // Python on the page: say it may pause it
    delete status.dataset.loading;
  }, () => {
    clearTimeout(slow);
    delete status.dataset.loading;
    status.textContent = failure(); // a changed runtime file says so (python/integrity.mjs)
    host.classList.add("ts-off");
  });
  if (q) {
    const deck = host.parentElement?.closest(".ts-deck");
    if (deck) selectTab(deck, host);
    go(q.get("roll") === "1" && calc.rolls, q.get("seed"), true);
  }
}

function mountMissing(host, id) {
  host.dataset.tsReady = "";
  host.replaceChildren(h("p", { class: "ts-status", text: `No calculator called ${id} in this build.` }));
}

// --- each page (first load and every instant navigation) ---------------------------------
// A deep link's jump and the forms' build are kept in separate frames (issue 11). A built
// form grows its box and moves what is under it, and a browser counts a move as a layout
// shift unless the scroll of the same frame makes up for it. So, for `#heading`:
//   1. the forms below the heading (and the roll log, at the article's end) are built while
//      they are off screen (the page is still at its top on a full load); a frame is painted;
//   2. the page jumps to the heading: a scroll, nothing moves, and a frame is painted;
//   3. the forms above it are built, and the pin scrolls by just as much in the same frame.
// (Built in one frame with the jump, they moved the heading itself: CLS 0.8 on a phone.)
let building = Promise.resolve();
/** One page build at a time (a deep link's build waits for frames between its steps). */
function onPage() {
  building = building.then(buildPage, buildPage);
  return building;
}

async function buildPage() {
  framedNotice();
  const hosts = [.../** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll(".ts-calc:not([data-ts-ready])"))];
  const target = fragmentTarget();
  if (!hosts.length) { // still pinned: on a phone, past the release of Material's search lock
    pinFragment();
    return;
  }
  if (!FRAMED) python(); // start now: the first click is then usually instant
  let registry = pageRegistry(hosts);
  if (!registry) {
    try {
      registry = await fullRegistry();
    } catch (e) {
      console.warn("Tableside: no calculator registry:", e);
      pinFragment();
      for (const host of hosts) mountMissing(host, host.dataset.calc);
      return;
    }
  }
  // Each calculator's index among those of its id, in page order (shared links name it).
  const counts = new Map();
  const indexOf = new Map([...document.querySelectorAll(".ts-calc")].map((host) => {
    const id = /** @type {HTMLElement} */ (host).dataset.calc;
    const i = counts.get(id) || 0;
    counts.set(id, i + 1);
    return [host, i];
  }));
  const later = [];
  const buildAll = (/** @type {HTMLElement[]} */ some) => {
    groupDecks(some, registry);
    for (const host of some) buildOne(host, registry, indexOf.get(host) || 0, later);
  };
  if (target) {
    const below = hosts.filter((x) => target.compareDocumentPosition(x) & Node.DOCUMENT_POSITION_FOLLOWING);
    buildAll(below);
    mountLog(); // at the article's end: below the heading too
    await painted();
    const replace = pinFragment();
    await painted();
    buildAll(hosts.filter((x) => !below.includes(x)));
    replace();
    checkLinkTarget(counts, registry);
    mountLog(); // (once: already there after the first step)
  } else {
    pinFragment();
    // Built in the next frame, before it is drawn: not in the task of Material's own start
    // (one task of ~0.2 s on a phone, Lighthouse's TBT: issue 26). There the page is laid
    // out anyway, so finding the forms below the screen costs nothing more. Those that
    // start on the screen or above it are built at once (built later, they would move what
    // the reader sees); those that start below it (a weapon page's four decks on a phone)
    // a slice at a time just after. Every position is read before any form is built: one
    // layout (read between builds, each form built made the next read lay the page out again).
    await beforeFrame();
    groupDecks(hosts, registry);
    const lower = new Set(hosts.filter((host) => !host.hidden && startOf(host) >= innerHeight));
    const below = [];
    for (const host of hosts) {
      const index = indexOf.get(host) || 0;
      if (lower.has(host)) below.push(() => buildOne(host, registry, index, later));
      else buildOne(host, registry, index, later);
    }
    checkLinkTarget(counts, registry);
    mountLog();
    await new Promise((resolve) => inSlices(below, false, () => resolve(undefined)));
  }
  performance.mark("tableside:page-built"); // scripts/bench/next_page.py splits a next page by it
  if (later.length) inSlices(later, true, refreshLog);
}

/** Where a host not built yet starts on the screen: `.ts-calc:empty` is not drawn, so the
 * bottom of what is drawn before it in its parent (a deck's tabs), else its parent's top.
 * Below the screen (Infinity) when its parent is not drawn either (the Encounter page's
 * closed sheet on a phone): built, it moves nothing the reader sees.
 * @param {HTMLElement} host @returns {number} */
function startOf(host) {
  for (let n = host.previousElementSibling; n; n = n.previousElementSibling) {
    const box = n.getBoundingClientRect();
    if (box.width || box.height) return box.bottom;
  }
  const box = host.parentElement?.getBoundingClientRect();
  return box && (box.width || box.height) ? box.top : Infinity;
}

/** Resolves in the next frame's animation callbacks, before that frame's layout and paint
 * (at once in a hidden tab, which draws no frame). @returns {Promise<void>} */
function beforeFrame() {
  return new Promise((resolve) => {
    if (document.visibilityState === "hidden") { resolve(); return; }
    const timer = setTimeout(resolve, 1000); // no frame coming (rAF paused): go on anyway
    requestAnimationFrame(() => { clearTimeout(timer); resolve(); });
  });
}

/** Build one calculator now, or, for a panel behind a tab, when the page is idle.
 * @param {HTMLElement} host @param {Map<string, Registry.Calculator>} registry
 * @param {number} index @param {(() => void)[]} later */
function buildOne(host, registry, index, later) {
  if (!host.isConnected || host.dataset.tsReady !== undefined) return;
  const id = host.dataset.calc || "";
  const build = () => {
    pending.delete(host);
    if (!host.isConnected || host.dataset.tsReady !== undefined) return;
    const calc = registry.get(id);
    const caption = tableCaption(host);
    if (caption) host.dataset.tsContext = caption;
    if (calc) mount(host, calc, index);
    else mountMissing(host, id);
  };
  if (host.hidden) { // a panel behind a tab: see whenIdle()
    pending.set(host, build);
    later.push(build);
  } else {
    build();
  }
}

// Panels behind a deck's tabs are built when the page is idle, not as it opens: a weapon
// page has 28 calculators, 4 of them in view, and building all of them up front delayed
// Python's start (same main thread) by ~0.1 s on a desktop and ~0.4 s on a phone.
// Selecting a tab builds its panel at once if it is still waiting (selectTab).

// A slice stops before SLICE_MS, so that a phone (4x slower than this machine in
// Lighthouse's model) sees no task over 50 ms: an idle period may last 50 ms, and one
// filled with forms was a long task on a phone (TBT, issue 26). A job starts only when
// the longest one so far still fits: one form took ~5 ms here, and a second one started
// at 7 ms of an 8 ms slice made a task of 12 ms, ~50 ms on the phone.
const SLICE_MS = 10;

/** Run `jobs` in slices of at most about SLICE_MS (at least one job each), each a task of
 * its own: when the page is idle (`idle`), else as soon as the browser has done what it had
 * queued; then `done`, once every job has run.
 * @param {(() => void)[]} jobs @param {boolean} idle @param {() => void} done */
function inSlices(jobs, idle, done) {
  let longest = 0; // the longest job so far (ms)
  const next = (/** @type {IdleDeadline | undefined} */ deadline) => {
    const end = performance.now() + SLICE_MS;
    let now;
    do {
      const start = performance.now();
      jobs.shift()?.();
      now = performance.now();
      longest = Math.max(longest, now - start);
      if (deadline && deadline.didTimeout) break; // one per forced turn, then yield again
    } while (jobs.length && now + longest < end
      && (!deadline || deadline.timeRemaining() > longest));
    if (jobs.length) schedule();
    else done();
  };
  const schedule = () => (idle && window.requestIdleCallback
    ? requestIdleCallback(next, { timeout: 1000 }) : setTimeout(next, idle ? 50 : 0));
  if (jobs.length) schedule();
  else done();
}

// Each page, the first included, once Material has mounted its own components (its
// document$): built earlier, our forms' `title`s became Material tooltips, which drop the
// deck tabs' aria-controls.
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => { onPage(); });
} else {
  onPage();
}
