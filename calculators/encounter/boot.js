// @ts-check
// The Encounter page's start (issue 26 item 2): its stylesheet and layout, and what it
// shows before Python has checked the fight. The fight as last folded is drawn at once
// (encounter/cache.js), and the controls that need Python are held, disabled, until
// Python's fold of the log is up to date (and so has checked what is shown: the fold
// wins), or draws a long fight as far as it got. Held rather than queued: a tap that
// showed nothing for seconds would be tapped again, and two "Next turn"s are two turns.
// What needs no Python stays live: More and Export, the storage notes, the calculators'
// sheet, scrolling. A note says what the page waits for; it floats above the turn bar,
// so neither it nor Python's arrival moves anything (tests/encounter/test_layout_shift.py).

import { h } from "../dom.mjs";
import { sriFor } from "../python/integrity.mjs";
import { storedFold } from "./cache.js";

const CSS_URL = new URL("encounter.css", import.meta.url).href;

export function ensureCss() {
  // (the Encounter page's head links it by a relative URL: compare what it resolves to)
  if (![...document.querySelectorAll("link[rel=stylesheet]")]
    .some((l) => /** @type {HTMLLinkElement} */ (l).href === CSS_URL)) {
    // The stylesheet is this build's or nothing (integrity from the page's list).
    const integrity = sriFor(CSS_URL);
    if (integrity) document.head.append(h("link", { rel: "stylesheet", href: CSS_URL, integrity }));
  }
}

/** Phone: the calculators in a bottom sheet; desktop: beside the tracker. @param {HTMLElement} el */
export function layout(el) {
  const calcs = /** @type {HTMLElement | null} */ (el.parentElement?.querySelector(".ts-enc-calcs"));
  const wrap = h("div", { class: "ts-enc-layout" });
  el.before(wrap);
  wrap.append(el);
  if (!calcs) return { calcs: null, toggle: null };
  calcs.id ||= "ts-enc-sheet";
  calcs.classList.add("ts-sheet");
  const toggle = h("button", { type: "button", class: "md-button ts-sheet-toggle",
    "aria-expanded": "false", "aria-controls": calcs.id, text: "Calculators" });
  const close = h("button", { type: "button", class: "ts-link ts-sheet-close", text: "Close",
    "aria-label": "Close the calculators" });
  const set = (/** @type {boolean} */ open) => {
    calcs.classList.toggle("ts-open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) calcs.querySelector("h2")?.focus();
  };
  toggle.addEventListener("click", () => set(!calcs.classList.contains("ts-open")));
  close.addEventListener("click", () => { set(false); toggle.focus(); });
  calcs.querySelector("h2")?.setAttribute("tabindex", "-1");
  calcs.prepend(close);
  wrap.append(calcs);
  return { calcs, toggle };
}

/**
 * Hold every control and folded panel of `el` but those in `live` (elements, or boxes of
 * them); `note`, when given, floats above `bar` until released. `say` changes its words
 * (progress); `release` (idempotent) gives the controls back.
 * @param {HTMLElement} el @param {HTMLElement} bar @param {HTMLElement[]} live @param {string} note
 */
export function holdControls(el, bar, live, note) {
  /** @type {(HTMLButtonElement | HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[]} */
  const held = [];
  for (const x of el.querySelectorAll("button, input, select, textarea")) {
    const c = /** @type {HTMLButtonElement} */ (x);
    if (c.disabled || live.some((k) => k.contains(c))) continue;
    c.disabled = true;
    held.push(c);
  }
  const panels = [...el.querySelectorAll("details")].filter((d) => !live.some((k) => k.contains(d)));
  for (const d of panels) d.inert = true; // a summary cannot be disabled
  el.setAttribute("aria-busy", "true");
  const said = note ? h("p", { class: "ts-enc-wait", role: "status", text: note }) : null;
  if (said) bar.append(said);
  let on = true;
  return {
    /** @param {string} text */
    say(text) { if (on && said) said.textContent = text; },
    release() {
      if (!on) return;
      on = false;
      for (const c of held) c.disabled = false;
      for (const d of panels) d.inert = false;
      el.removeAttribute("aria-busy");
      said?.remove();
    },
  };
}

/**
 * The start: the fight as last folded, kept for `doc`'s log, is handed to `draw` (which
 * draws it as Python's fold would be drawn), then the controls are held (holdControls).
 * `drawn`: it was; `bad`: a note for the reader when what was kept could not be used.
 * @param {HTMLElement} el @param {HTMLElement} bar @param {(HTMLElement | null)[]} live
 * @param {import("./store.js").EncDoc} doc
 * @param {(folded: import("./cache.js").Folded) => void} draw
 */
export function beforePython(el, bar, live, doc, draw) {
  const kept = storedFold(doc);
  let why = kept.bad || "";
  let drawn = false;
  if (kept.folded) {
    try {
      draw(kept.folded);
      drawn = true;
      el.dataset.drawn = "stored";
      performance.mark("tableside:encounter-stored"); // read by the bench (scripts/bench/replay.py)
    } catch (err) { // checked field by field, yet not drawable: Python's fold is drawn
      console.warn("Tableside encounter: the fight as last saved could not be drawn:", err);
      why = "it could not be drawn";
    }
  }
  const hold = holdControls(el, bar, /** @type {HTMLElement[]} */ (live.filter(Boolean)),
    drawn ? "Loading the rules engine: this is the fight as last saved." : "");
  const bad = why ? `The fight as last saved could not be shown (${why}): it was ignored, and `
    + "the fight is worked out again from its events." : "";
  return { ...hold, drawn, bad };
}

/** "Checking the fight with the rules: 1,280 of 5,000 events…"
 * @param {Record<string, any>} r a partial fold reply: folded, total */
export function checking(r) {
  return `Checking the fight with the rules: ${grouped(r.folded)} of ${grouped(r.total)} events…`;
}

/** 5000 as "5,000", as toLocaleString("en") writes it, without it: its first call on a
 * page loads the locale's data, 145 ms of the main thread on the phone profile (issue 24).
 * @param {number} n a whole number */
function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}
