// @ts-check
// Tableside offline mode: registers the service worker (sw.js at the site root, built by
// scripts/sw/build_sw.mjs), asks before a new build takes over an open tab, and says when
// the calculators cannot work offline because their runtime was never saved.
//
// Served as assets/calculators/offline.js (copied by scripts/sw/offline.py); every URL is
// relative to this file, so the site works under a sub-path (e.g. /tableside/).
// The reading pages are saved on any visit (the worker's precache); the Python runtime
// (~20 MB) when a calculator page first needs it, or all of it when the reader asks: a
// control in the footer says "Save everything for offline (N MB)" (issue #13). An
// installed app saves everything by itself.
// State for people and tests: <html data-ts-sw="off|registered|ready|failed"> (ready: the
// reading precache is complete) and <html data-ts-saved="none|saving|all"> (the runtime).
// (The bench and the tests read them through scripts/page_states.py.)

import { h } from "./dom.mjs";
import { FRAMED } from "./guards.mjs";
import { HASH_HEADER, RUNTIME_CACHE } from "./python/runtime-cache.mjs";

const ROOT = new URL("../../", import.meta.url);
const SW_URL = new URL("sw.js", ROOT);
// The biggest runtime file: without it in the runtime cache, the calculators cannot start.
const RUNTIME_PROBE = new URL("assets/runtime/pyodide/pyodide.asm.wasm", ROOT);
const UPDATE_EVERY_MS = 60 * 60 * 1000;
const html = document.documentElement;

// --- a small banner at the bottom of the window, outside Material's swapped content ------
function banner(id, text, ...buttons) {
  let el = document.getElementById(id);
  if (!el) {
    el = document.createElement("div");
    el.id = id;
    el.className = "ts-banner";
    el.setAttribute("role", "status");
    // CSSOM styles (not a <style> tag): fine under a strict Content-Security-Policy.
    Object.assign(el.style, {
      position: "fixed", insetInline: "0", bottom: "0", zIndex: "10", display: "flex",
      flexWrap: "wrap", gap: ".5rem 1rem", alignItems: "center", justifyContent: "center",
      padding: ".6rem 1rem", font: "inherit", fontSize: ".8rem",
      background: "var(--md-default-fg-color, #222)", color: "var(--md-default-bg-color, #fff)",
    });
    document.body.append(el);
  }
  const p = document.createElement("p");
  p.style.margin = "0";
  p.textContent = text;
  el.replaceChildren(p, ...buttons);
  return el;
}

function removeBanner(id) {
  document.getElementById(id)?.remove();
}

// --- "the calculators need one visit online" --------------------------------------------
async function runtimeCached() {
  if (!("caches" in window)) return false;
  try {
    const hit = await caches.match(RUNTIME_PROBE.href, { cacheName: RUNTIME_CACHE });
    return Boolean(hit && hit.headers.get(HASH_HEADER));
  } catch {
    return false; // storage blocked: nothing is cached
  }
}

let checking = Promise.resolve();

// Shown only on a page with calculators, while offline, when the rules engine is not
// already running and its runtime is not cached: it cannot load. Tables need nothing.
function checkRuntime() {
  checking = checking.then(async () => {
    const needed = document.querySelector(".ts-calc") !== null && !navigator.onLine
      && html.dataset.tsPython !== "ready" && !(await runtimeCached());
    if (needed) {
      banner("ts-offline-banner", "You are offline and the calculators are not saved on this "
        + "device yet: they need one visit online. The tables on this page still work.");
    } else {
      removeBanner("ts-offline-banner");
    }
  });
  return checking;
}

addEventListener("online", checkRuntime);
addEventListener("offline", checkRuntime);
// The calculators' start (python/boot.mjs) reports its state in <html data-ts-python>.
new MutationObserver(checkRuntime).observe(html, { attributeFilter: ["data-ts-python"] });
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => { checkRuntime(); }); // each instant-navigation page
} else {
  checkRuntime();
}

// --- "Save everything for offline" ---------------------------------------------------------
const MB = (/** @type {number} */ b) => (b / 1e6).toFixed(1);
/** The worker's last word on the runtime: {saved, total} bytes, and a save's progress. */
let saved = { saved: 0, total: 0 };
/** @type {{done: number, total: number} | null} */
let progress = null;
let failed = false;
let asked = false; // this page asked the worker to save everything

function ask(/** @type {string} */ type) {
  navigator.serviceWorker?.controller?.postMessage({ type });
}

function saveEverything() {
  if (progress || !navigator.serviceWorker?.controller) return;
  asked = true;
  failed = false;
  progress = { done: saved.saved, total: saved.total };
  ask("SAVE_EVERYTHING");
  render();
}

/** The control, in Material's footer (swapped by instant navigation: drawn again). */
function render() {
  if (html.dataset.tsSw !== "ready" || !saved.total) return;
  const all = saved.saved >= saved.total;
  html.dataset.tsSaved = all ? "all" : progress ? "saving" : "none";
  let body;
  if (all) {
    body = [h("p", { text: "Offline ready: pages and calculators are saved on this device." })];
  } else if (progress) {
    body = [
      h("p", { text: `Saving… ${MB(progress.done)} of ${MB(progress.total)} MB` }),
      h("progress", { max: String(progress.total), value: String(progress.done),
        "aria-label": "Saving for offline" }),
    ];
  } else {
    body = [
      h("p", { text: failed ? "Saving for offline failed (the connection?); pages are saved "
        + "for offline reading." : "Pages are saved for offline reading." }),
      h("button", { type: "button", class: "md-button ts-save-button", onclick: saveEverything,
        text: `Save everything for offline (${MB(saved.total - saved.saved)} MB)` }),
    ];
  }
  let el = document.getElementById("ts-save");
  if (!el) {
    el = h("div", { id: "ts-save", role: "status" }); // styled in tableside.css
    const footer = document.querySelector(".md-footer-meta__inner");
    if (footer) footer.prepend(el);
    else document.body.append(el);
  }
  el.replaceChildren(...body);
}

function onWorkerMessage(/** @type {MessageEvent} */ event) {
  const m = event.data || {};
  if (m.type === "SAVE_PROGRESS") {
    if (asked) progress = { done: m.done, total: m.total };
  } else if (m.type === "RUNTIME_STATUS" || m.type === "SAVED" || m.type === "SAVE_FAILED") {
    saved = { saved: m.saved, total: m.total };
    if (m.type !== "RUNTIME_STATUS") {
      failed = asked && m.type === "SAVE_FAILED";
      progress = null;
      asked = false;
    }
  } else {
    return;
  }
  render();
  standalone();
}

// An installed app saves everything by itself, once per page.
let autoSaved = false;
function standalone() {
  if (autoSaved || !saved.total || saved.saved >= saved.total) return;
  if (!matchMedia("(display-mode: standalone)").matches) return;
  autoSaved = true;
  saveEverything();
}

// A page that used Python downloaded the runtime before the worker controlled it: the
// files it fetched are saved already (python/integrity.mjs); the modules it imported are saved
// now from the browser's copy (the worker asks with force-cache), once.
let pythonSaved = false;
function savePythonsFiles() {
  if (pythonSaved || html.dataset.tsPython !== "ready" || !navigator.serviceWorker?.controller) {
    return;
  }
  pythonSaved = true;
  ask("SAVE_EVERYTHING");
}

new MutationObserver(savePythonsFiles).observe(html, { attributeFilter: ["data-ts-python"] });

// --- the service worker and the update prompt --------------------------------------------
function promptUpdate(worker) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "md-button md-button--primary";
  button.textContent = "Reload";
  button.addEventListener("click", () => {
    button.disabled = true;
    worker.postMessage({ type: "SKIP_WAITING" }); // then "controllerchange" reloads
  });
  banner("ts-update-banner", "A new version is available — Reload to use it.", button);
}

async function register() {
  const sw = navigator.serviceWorker;
  // A page that was already controlled reloads when the controller changes (the user asked
  // for the new version, maybe in another tab), so it never mixes two builds. The first
  // visit's page is merely claimed (clientsClaim): nothing to reload.
  let controlled = Boolean(sw.controller);
  let reloading = false;
  sw.addEventListener("controllerchange", () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    if (reloading) return;
    reloading = true;
    location.reload();
  });
  let reg;
  try {
    reg = await sw.register(SW_URL.href, { scope: ROOT.pathname, updateViaCache: "none" });
  } catch (e) {
    reg = null;
    console.warn("Tableside: offline mode unavailable:", e);
  }
  if (!reg) { // refused (e.g. storage blocked); the site still works online
    html.dataset.tsSw = "failed";
    return;
  }
  html.dataset.tsSw = "registered";
  const watch = (worker) => {
    if (!worker) return;
    const check = () => {
      if (worker.state === "installed" && sw.controller) promptUpdate(worker);
    };
    worker.addEventListener("statechange", check);
    check();
  };
  watch(reg.waiting);
  reg.addEventListener("updatefound", () => watch(reg.installing));
  // Instant navigation means few real page loads: look for a new build now and then.
  const update = () => { reg.update().catch(() => { /* offline */ }); };
  setInterval(update, UPDATE_EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") update();
  });
  sw.addEventListener("message", onWorkerMessage);
  await sw.ready; // active: the precache is complete
  html.dataset.tsSw = "ready";
  checkRuntime();
  if (!sw.controller) { // the first visit's page is claimed by the new worker
    await new Promise((resolve) => sw.addEventListener("controllerchange", resolve, { once: true }));
  }
  ask("RUNTIME_STATUS");
  savePythonsFiles();
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => render()); // each instant-navigation page
  }
}

// A page in another site's frame saves nothing for offline use (its calculators are off).
if ("serviceWorker" in navigator && window.isSecureContext && !FRAMED) {
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true }); // after the page's own downloads
} else {
  html.dataset.tsSw = "off";
}
