// @ts-check
// Deep links land on their heading (issue #11).
//
// The calculators are built after the first paint, and Material's instant navigation
// scrolls to `#heading` before it tells us the page changed, so a calculator built above the
// heading pushes it off the screen (tableside.js builds those last, under this pin, after
// the jump: see its buildPage). Blink keeps
// its own jump "sticky" only until the load event. So, like Blink but for as long as the
// page is still settling, we keep the heading where the jump put it: after every layout
// that changed a height (ResizeObserver runs after layout, before paint, so no frame shows
// the heading elsewhere and nothing visible shifts), until the reader scrolls, types or
// taps, or PIN_MS passes.
//
// On a phone Material also locks the body while its full-screen search is open
// (`data-md-scrolllock`, position: fixed) and unlocks it 100 ms after the reader picks a
// result, by which time the new page has been swapped in and its jump to the heading has
// been swallowed by the fixed body. So the pin also re-places the heading when the lock goes.

const PIN_MS = 12000;
const USER_EVENTS = ["wheel", "touchstart", "pointerdown", "keydown"];

/** @type {null | (() => void)} */
let release = null;

/** The element the address's fragment names, if any. */
export function fragmentTarget() {
  const raw = location.hash.slice(1);
  if (!raw) return null;
  let id = raw;
  try { id = decodeURIComponent(raw); } catch { /* keep it raw */ }
  return document.getElementById(id);
}

/**
 * Keep the element named by location.hash at the top of the screen while the page settles.
 * Call it as a page opens (first load and every instant navigation), before building.
 * @returns {() => void} a function that re-pins at once (call it after a synchronous build)
 */
export function pinFragment() {
  delete root.dataset.tsInput; // a new page: "Back to top" waits for input (see below)
  const target = fragmentTarget();
  return target ? pin(target) : () => {};
}

/**
 * Keep `target` at the top of the screen (below the header) while the page settles.
 * @param {Element} target
 * @returns {() => void} a function that re-places it at once
 */
export function pin(target) {
  release?.();
  let active = true;
  const hash = location.hash;
  const place = () => {
    if (!active || !target.isConnected) return;
    // The reader followed another in-page link: the browser has scrolled to it already,
    // and "hashchange" comes only in a later task, after a layout could pull us back.
    if (location.hash !== hash) { stop(); return; }
    target.scrollIntoView({ block: "start", behavior: "instant" });
  };

  const ro = new ResizeObserver(place);
  ro.observe(document.body);
  for (const el of document.querySelectorAll(".ts-calc, .ts-deck, .md-content")) ro.observe(el);
  // later hosts (decks are made while building) are observed as they appear
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n instanceof Element && n.matches(".ts-calc, .ts-deck, .ts-result")) ro.observe(n);
      }
    }
  });
  mo.observe(document.querySelector(".md-content") || document.body,
    { childList: true, subtree: true });
  // Material's search scroll lock: its release comes after our first placing (see above)
  const lock = new MutationObserver(place);
  lock.observe(document.body, { attributes: true, attributeFilter: ["data-md-scrolllock"] });
  const stop = () => {
    if (!active) return;
    active = false;
    ro.disconnect();
    mo.disconnect();
    lock.disconnect();
    clearTimeout(timer);
    for (const t of USER_EVENTS) removeEventListener(t, stop, true);
    removeEventListener("hashchange", stop);
    if (release === stop) release = null;
  };
  const timer = setTimeout(stop, PIN_MS);
  for (const t of USER_EVENTS) addEventListener(t, stop, { capture: true, passive: true });
  addEventListener("hashchange", stop); // the reader followed another in-page link
  release = stop;
  place();
  return place;
}

// Material shows its "Back to top" button after any upward scroll. The page also scrolls
// up by itself as it settles: a pin placing its heading, or the browser's scroll anchoring
// when something above shrinks (each calculator's "Loading…" line cleared once Python is
// ready, maybe long after the pin let go on a slow phone). The button then covered the
// heading the reader came for. It is for a reader scrolling back up, so it stays hidden
// (tableside.css) until the reader's first input on the page: <html data-ts-input>.
const root = document.documentElement;
for (const t of [...USER_EVENTS, "mousedown"]) {
  addEventListener(t, () => { root.dataset.tsInput = ""; }, { capture: true, passive: true });
}

/** Stop keeping the fragment in place (something else now decides where the page is). */
export function unpinFragment() {
  release?.();
}
