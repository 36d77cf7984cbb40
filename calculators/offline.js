// @ts-check
// Tableside offline mode: registers the service worker (sw.js at the site root, built by
// scripts/sw/build_sw.mjs), asks before a new build takes over an open tab, and says when
// the calculators cannot work offline because their runtime was never saved.
//
// Served as assets/calculators/offline.js (copied by scripts/sw/hook.py); every URL is
// relative to this file, so the site works under a sub-path (e.g. /tableside/).
// State for people and tests: <html data-ts-sw="off|registered|ready|failed">.

import { FRAMED } from "./guards.mjs";

const ROOT = new URL("../../", import.meta.url);
const SW_URL = new URL("sw.js", ROOT);
// The biggest runtime file: if it is cached, the worker's install finished (all or nothing).
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
    return Boolean(await caches.match(RUNTIME_PROBE.href, { ignoreSearch: true }));
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
// The calculators' loader (tableside.js) reports its state in <html data-ts-python>.
new MutationObserver(checkRuntime).observe(html, { attributeFilter: ["data-ts-python"] });
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => { checkRuntime(); }); // each instant-navigation page
} else {
  checkRuntime();
}

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
  await sw.ready; // active: the precache is complete
  html.dataset.tsSw = "ready";
  checkRuntime();
}

// A page in another site's frame saves nothing for offline use (its calculators are off).
if ("serviceWorker" in navigator && window.isSecureContext && !FRAMED) {
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true }); // after the page's own downloads
} else {
  html.dataset.tsSw = "off";
}
