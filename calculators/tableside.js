// Tableside calculators: one generic UI for every calculator in rules_pkg's registry.
//
// Every `<div class="ts-calc" data-calc="<id>" data-preset='{json}'>` on a page becomes a
// form built from registry.json (written at build time), so forms show at once; Python
// (Pyodide via PyScript, self-hosted) loads once per visit and survives Material's
// instant navigation, because the elements it needs live outside the swapped container.
// No inline JS (warm.mjs and snapshot.mjs are its imports): ready for a strict CSP.

import { fetchJSON, manifestP, warmUp } from "./warm.mjs";
import { pin, pinFragment } from "./anchor.mjs";
import { h } from "./dom.mjs";
import { formatValue, probabilityNode, valueNode } from "./format.mjs";
import { modulesBeside, refusal, unverified, verifiedModules } from "./integrity.mjs";
import {
  ASCII_INT, checkLink, checkLinkTarget, clearStale, FRAMED, FRAMED_TEXT, framedNotice, linkNotes,
  markStale, quote,
} from "./guards.mjs";

// The encounter tracker (issue 12) listens for `tableside:result` (dispatched below) and
// adds "Apply to …"; loaded on the side, so the calculators never depend on it.
import("./encounter-apply.js").catch((err) => { console.warn("Tableside encounter:", err); });

const HERE = new URL(".", import.meta.url);
const LOG_KEY = "tableside:log";
const LOG_MAX = 20;
const MAX_FIELD = 40; // characters per field; Python checks the real limits
// Pyodide stalls (no error) when its wasm fails to download, but a slow phone can take
// ~45 s cold: after this long the page says it may have failed, and keeps waiting.
const PY_SLOW_MS = 30000;

const root = document.documentElement;
// A calculator page starts Python as soon as it knows runtime.json (before Material's
// document$ calls onPage); warm.mjs, loaded from the head, has started its downloads.
manifestP.then((m) => {
  if (document.querySelector(".ts-calc") && !FRAMED) { // framed: no engine (guards.mjs)
    warmUp(m);
    loadPython();
  }
}).catch(() => {}); // loadPython() reports a missing manifest
const registryP = fetchJSON(new URL("registry.json", HERE))
  .then((list) => new Map(list.map((c) => [c.id, c])));

// --- the Python runtime: loaded once per visit ---------------------------------------
let pythonP = null;

function loadPython() {
  if (pythonP) return pythonP;
  root.dataset.tsPython = "loading";
  pythonP = (async () => {
    const m = await manifestP;
    const ready = Promise.race([new Promise((resolve, reject) => {
      addEventListener("tableside:python-ready", resolve, { once: true });
      addEventListener("tableside:python-failed", (e) => reject(new Error(String(e.detail))),
        { once: true });
    }), unverified.then((r) => { throw new Error(r.message); })]);
    ready.catch(() => {}); // awaited below
    const bundle = new URL(m.bundle, HERE);
    bundle.searchParams.set("v", m.bundle_sha256.slice(0, 16));
    // JSON config (no TOML parser), our own Pyodide (no CDN), no `packages` (no micropip),
    // and none of PyScript's optional plugins: they would load code we do not use.
    const config = {
      interpreter: new URL(m.pyodide, HERE).href,
      files: { [bundle.href]: "./tableside.zip" },
      plugins: ["!error", "!codemirror", "!deprecations-manager", "!donkey", "!py-editor",
        "!py-game", "!py-terminal"],
    };
    // Appended to <body> outside Material's container: instant navigation keeps them.
    // PyScript loads its plugins once per type (py and mpy): both configs must opt out.
    document.body.append(h("py-config", { hidden: true, text: JSON.stringify(config) }),
      h("mpy-config", { hidden: true, text: JSON.stringify({ plugins: config.plugins }) }));
    warmUp(m); // if the page did not already (it had no calculators when it opened)
    const bridgeURL = new URL(m.bridge, HERE);
    const bridgeSrc = fetch(bridgeURL).then((r) => {
      if (!r.ok) throw new Error(`${bridgeURL}: HTTP ${r.status}`);
      return r.text();
    });
    bridgeSrc.catch(() => {}); // reported below, when it is needed
    // Python's modules (PyScript, the interpreter module, Pyodide) get in only checked
    // (integrity.mjs): a changed one stops here, before any of them runs.
    const coreURL = new URL(m.pyscript, HERE);
    await Promise.race([ready, verifiedModules([new URL(m.pyodide, HERE),
      ...modulesBeside(coreURL), ...modulesBeside(new URL(m.pyodide_plain || m.pyodide, HERE))])]);
    const core = await import(coreURL.href);
    // PyScript builds its *worker* hooks with Function() (eval) whenever it starts Python,
    // even on the main thread; its one default worker hook is for workers we never start.
    // Emptying them keeps the site working under a CSP without 'unsafe-eval' (H11).
    for (const set of Object.values(core.hooks.worker)) set.clear();
    // The bridge runs in PyScript's onReady hook, straight in the interpreter PyScript has
    // just loaded (config, files and all). PyScript would next run the <py-script>'s code
    // behind its own Python package (pyscript/*.py: ~4,000 lines compiled and imported
    // before any script, 0.2 s on a desktop and ~0.8 s on a phone, blocking the page),
    // which the bridge never uses. So our element carries no code, and the hook never
    // hands it back to PyScript: that run, and the package with it, never happen.
    const trigger = h("py-script", { hidden: true, text: "# Tableside: see bridge.py" });
    core.hooks.main.onReady.add(async (wrap, element) => {
      if (element !== trigger) return;
      try {
        wrap.interpreter.runPython(await bridgeSrc, { filename: "bridge.py" });
      } catch (e) { // bridge.py reports its own errors; this is a missing or broken file
        dispatchEvent(new CustomEvent("tableside:python-failed", { detail: String(e) }));
      }
      await new Promise(() => {}); // see above: the element's (empty) run never starts
    });
    document.body.append(trigger);
    await ready;
    if (typeof window.tablesideRun !== "function") throw new Error("bridge missing");
    root.dataset.tsPython = "ready";
    return window.tablesideRun;
  })();
  pythonP.catch((e) => {
    root.dataset.tsPython = "failed";
    console.warn("Tableside: the rules engine could not load:", e);
  });
  return pythonP;
}

addEventListener("py:progress", (e) => {
  for (const el of document.querySelectorAll(".ts-calc .ts-status[data-loading]")) {
    el.textContent = `Loading the rules engine… (${e.detail})`;
  }
});

// --- reading and writing form values -------------------------------------------------
function numericOf(v) {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^[+-]?\d{1,9}$/.test(v.trim())) return Number(v);
  return null;
}

let seq = 0;

function field(calc, input, value) {
  const id = `ts-${++seq}-${input.name}`;
  const help = input.help ? h("small", { class: "ts-help", id: `${id}-help`, text: input.help }) : null;
  const described = help ? `${id}-help` : undefined;
  if (input.kind === "bool") {
    const box = h("input", { type: "checkbox", id, name: input.name, "aria-describedby": described });
    box.checked = value === true || ["1", "true", "yes", "on"].includes(String(value).toLowerCase());
    return h("div", { class: "ts-field ts-bool" },
      h("label", { class: "ts-check", for: id }, box, h("span", { text: input.label })), help);
  }
  const label = h("label", { for: id, text: input.label });
  if (input.kind === "choice" && input.choices?.length) {
    const select = h("select", { id, name: input.name, "aria-describedby": described },
      input.choices.map(([v, l]) => h("option", { value: v, text: l })));
    select.value = String(value);
    if (select.selectedIndex < 0) select.value = String(input.default); // never the first by chance
    const longest = Math.max(...input.choices.map(([, l]) => l.length));
    return h("div", { class: `ts-field ts-choice${longest > 28 ? " ts-wide" : ""}` },
      label, select, help);
  }
  if (input.kind === "int") {
    const box = h("input", {
      type: "text", inputmode: "numeric", id, name: input.name, autocomplete: "off",
      maxlength: 12, "aria-describedby": described, "data-int": "",
      "data-min": input.min, "data-max": input.max,
    });
    box.value = String(value);
    const step = (d) => () => {
      const n = Number.parseInt(box.value, 10);
      let next = Number.isNaN(n) ? Number(input.default) || 0 : n + d;
      if (input.min !== undefined) next = Math.max(input.min, next);
      if (input.max !== undefined) next = Math.min(input.max, next);
      box.value = String(next);
      box.dispatchEvent(new Event("input", { bubbles: true }));
    };
    return h("div", { class: "ts-field ts-int" }, label,
      h("div", { class: "ts-stepper" },
        h("button", { type: "button", class: "ts-step", "aria-label": `Decrease ${input.label}`,
          "aria-controls": id, text: "−", onclick: step(-1) }),
        box,
        h("button", { type: "button", class: "ts-step", "aria-label": `Increase ${input.label}`,
          "aria-controls": id, text: "+", onclick: step(1) })),
      help);
  }
  const box = h("input", { type: "text", id, name: input.name, maxlength: 200,
    "aria-describedby": described });
  box.value = String(value ?? "");
  return h("div", { class: "ts-field ts-text" }, label, box, help);
}

function readInputs(calc, form) {
  const values = {};
  for (const input of calc.inputs) {
    const el = form.elements.namedItem(input.name);
    if (!el) continue;
    values[input.name] = input.kind === "bool" ? el.checked : el.value;
  }
  return values;
}

// --- URL state: ?calc=<id>[&n=<k>]&<name>=<value>…[&roll=1&seed=<s>] --------------------
function urlState(calcId, index) {
  const q = new URLSearchParams(location.search);
  if (q.get("calc") !== calcId || Number(q.get("n") || 0) !== index) return null;
  return q;
}

function writeUrl(calcId, index, values, seed) {
  const q = new URLSearchParams();
  q.set("calc", calcId);
  if (index) q.set("n", String(index));
  for (const [k, v] of Object.entries(values)) q.set(k, v === true ? "1" : v === false ? "0" : v);
  if (seed !== null) {
    q.set("roll", "1");
    q.set("seed", String(seed));
  }
  const url = new URL(location.href);
  url.search = q.toString();
  history.replaceState(history.state, "", url); // keep Material's scroll state
  return url.href;
}

// --- rendering a result ----------------------------------------------------------------
function renderOdds(odds) {
  const rows = odds.rows;
  const max = Math.max(...rows.map((r) => r.exactly.value), 0) || 1;
  const table = h("table", { class: "ts-odds" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: "Outcome" }),
      h("th", { scope: "col", text: "P(exactly)" }),
      h("th", { scope: "col", text: "P(at least)" }))),
    h("tbody", {}, rows.map((r) => {
      const bar = h("span", { class: "ts-bar", "aria-hidden": "true" });
      bar.style.width = `${(100 * r.exactly.value) / max}%`;
      return h("tr", {},
        h("th", { scope: "row", text: r.outcome }),
        h("td", {}, h("span", { class: "ts-p" }, probabilityNode(r.exactly)), bar),
        h("td", {}, r.at_least ? probabilityNode(r.at_least) : "—"));
    })));
  // phone first: a long table starts folded on a small screen (the answer comes first)
  const room = matchMedia("(max-width: 44.9375em)").matches ? 6 : 12;
  return h("details", { class: "ts-odds-box", open: rows.length <= room },
    h("summary", { text: odds.title }), h("div", { class: "ts-scroll" }, table));
}

function renderDice(dice) {
  return h("ul", { class: "ts-dice", "aria-label": "Dice rolled" }, dice.map((d) => {
    const name = `d${d.sides}: ${d.value}${d.label ? ` ${d.label}` : ""}${d.kind ? ` (${d.kind})` : ""}`;
    return h("li", { class: "ts-die", "data-kind": d.kind || null, "aria-label": name, title: name },
      h("span", { class: "ts-die-value", text: String(d.value) }),
      d.label ? h("span", { class: "ts-die-label", text: d.label }) : null,
      d.kind ? h("span", { class: "ts-die-kind", text: d.kind }) : null);
  }));
}

// Each calculator's highlight replaces its own earlier one (never another's) and names the
// calculator, so two highlights in one table say which is which. The name is shown by CSS
// from the first cell's data-ts-hl (generated content: the cell's own text is unchanged).
function markRow(row, label, on) {
  row._tsHlBy ||= new Map();
  const n = (row._tsHlBy.get(label) || 0) + (on ? 1 : -1);
  if (n > 0) row._tsHlBy.set(label, n); else row._tsHlBy.delete(label);
  row.classList.toggle("ts-hl", row._tsHlBy.size > 0);
  const cell = row.cells[0];
  if (!cell) return;
  if (row._tsHlBy.size) cell.dataset.tsHl = [...row._tsHlBy.keys()].join(" · ");
  else delete cell.dataset.tsHl;
}

function highlightRows(host, highlights) {
  const label = host.dataset.tsShort || "";
  for (const row of host._tsRows || []) markRow(row, label, false);
  host._tsRows = [];
  const found = [];
  for (const hl of highlights) {
    const row = document.querySelector(
      `table[data-table="${CSS.escape(hl.table)}"] tr[data-row="${CSS.escape(String(hl.row))}"]`);
    if (row) {
      markRow(row, label, true);
      host._tsRows.push(row);
      found.push([hl, row]);
    }
  }
  return found;
}

function rowName(row, hl) {
  const cell = row.cells[0];
  if (!cell) return String(hl.row + 1);
  const copy = cell.cloneNode(true);
  copy.querySelectorAll(".ts-flag").forEach((t) => t.remove());
  return copy.textContent.trim();
}

function renderResult(host, result, seed) {
  const out = host.querySelector(".ts-result");
  const found = highlightRows(host, result.highlight);
  out.replaceChildren(...[
    h("p", { class: "ts-summary", text: result.summary }),
    result.dice.length ? renderDice(result.dice) : null,
    result.values.length ? h("dl", { class: "ts-values" }, result.values.map(([k, v, kind]) =>
      h("div", { "data-kind": kind }, h("dt", { text: k }), h("dd", {}, valueNode(v, kind)))))
      : null,
    found.length ? h("p", { class: "ts-rows" }, found.map(([hl, row]) =>
      h("button", { type: "button", class: "ts-link",
        text: `Show the row “${rowName(row, hl)}” in the table`,
        onclick: () => row.scrollIntoView({ behavior: "smooth", block: "center" }) }))) : null,
    result.steps.length ? h("details", { class: "ts-steps-box" },
      h("summary", { text: `How it is worked out (${result.steps.length} steps)` }),
      h("ol", { class: "ts-steps" }, result.steps.map((s) => h("li", { text: s })))) : null,
    result.odds.map(renderOdds),
    result.notes.length ? h("ul", { class: "ts-notes" },
      result.notes.map((n) => h("li", { text: n }))) : null,
    seed !== null ? h("p", { class: "ts-seed", text: `Seed ${seed}: the link to this page rolls the same dice.` }) : null,
  ].flat().filter(Boolean));
  out.hidden = false;
  // Fast start (H10): marks read by scripts/bench.py (navigation → first result).
  performance.mark("tableside:result");
  if (!performance.getEntriesByName("tableside:first-result").length) {
    performance.mark("tableside:first-result");
  }
}

// --- phone first: long forms, results in view ---------------------------------------------
const COMMON_INPUTS = 6; // a form longer than LONG_FORM shows these first
const LONG_FORM = 10;

// The form's fields: a long form shows its first inputs and folds the rest under "More
// modifiers" (open when one of them starts from a value other than its default).
function fieldsOf(calc, initial) {
  const make = (inputs) => h("div", { class: "ts-fields" },
    inputs.map((i) => field(calc, i, initial(i))));
  if (calc.inputs.length <= LONG_FORM) return make(calc.inputs);
  const rest = calc.inputs.slice(COMMON_INPUTS);
  const changed = rest.some((i) => String(initial(i)) !== String(i.default));
  return [make(calc.inputs.slice(0, COMMON_INPUTS)),
    h("details", { class: "ts-more", open: changed },
      h("summary", { text: `More modifiers (${rest.length})` }), make(rest))];
}

// After Compute or Roll the result is brought into view when it is not; a result restored
// from a link (replay) is scrolled to, kept there while the page settles, and focused.
function revealResult(result, replay) {
  if (replay) {
    pin(result);
    result.focus({ preventScroll: true });
    return;
  }
  const box = result.getBoundingClientRect();
  const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom || 0;
  if (box.top < header || box.top > innerHeight - 120) {
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    result.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "instant" });
  }
}

// Reroll after the fact where the game has it (issue #11): Forbidden Lands pushes after
// seeing the dice. A rolled result of a calculator with a "push" choice that can be
// "always" offers "Push": the same inputs and the same seed with push = always, so the
// engine rolls the very same first dice from the seed and then re-rolls exactly those its
// push rule allows (rules_pkg: push_roll). The form then says push = always, and the link
// reproduces both rolls.
function offerPush(calc, form, result, seed, rerun) {
  const input = calc.inputs.find((i) => i.name === "push" && i.kind === "choice"
    && i.choices?.some(([v]) => v === "always"));
  const select = input ? form.elements.namedItem("push") : null;
  if (!select || seed === null || select.value === "always") return;
  const button = h("button", { type: "button", class: "md-button ts-push",
    text: "Push: throw the dice the rule allows again", onclick: () => {
      select.value = "always";
      select.dispatchEvent(new Event("input", { bubbles: true }));
      rerun();
    } });
  const dice = result.querySelector(".ts-dice");
  (dice || result.querySelector(".ts-summary")).after(h("p", { class: "ts-push-offer" }, button));
}

// --- one calculator ----------------------------------------------------------------------
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
    id: `ts-${++seq}-seed`, name: "seed", maxlength: 10, autocomplete: "off" }) : null;
  if (seedBox && q && q.get("roll") === "1") seedBox.value = q.get("seed") || "";
  const titleId = `ts-${++seq}-title`;
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
      if (input.kind === "int" && !ASCII_INT.test(v)) { // the same rule as Python's
        refused(v.trim() === "" ? `${input.label} is empty: enter a whole number`
          : `${input.label} must be a whole number written with the digits 0-9, e.g. 3 or -2 `
            + `(got ${quote(v.trim())})`);
        return;
      }
    }
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
        run = await loadPython();
      } catch {
        return; // the status line already says why (see below)
      }
      let reply;
      try {
        reply = JSON.parse(run(calc.id, JSON.stringify(payload)));
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
      revealResult(result, replay);
      announce(reply.result.summary);
      dispatchEvent(new CustomEvent("tableside:result", {
        detail: { calc: calc.id, inputs: payload, result: reply.result, host } }));
      // the link carries only what differs from the page's own starting values
      const changed = Object.fromEntries(Object.entries(values)
        .filter(([k, v]) => String(v) !== String(start[k])));
      if (!replay) addToLog(calc, reply.result, writeUrl(calc.id, index, changed, seed));
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
  loadPython().then(() => {
    clearTimeout(slow);
    status.textContent = "";
    delete status.dataset.loading;
  }, () => {
    clearTimeout(slow);
    delete status.dataset.loading;
    // A changed runtime file says so (integrity.mjs), rather than "could not be loaded".
    status.textContent = refusal()?.message ?? ("The rules engine could not be loaded, so "
      + "this calculator is off. The tables on this page still work.");
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

// --- the roll log: last results, kept across pages for this tab --------------------------
function readLog() {
  try { return JSON.parse(sessionStorage.getItem(LOG_KEY) || "[]"); } catch { return []; }
}

function addToLog(calc, result, href) {
  const entry = {
    t: Date.now(), id: calc.id, title: calc.title, summary: result.summary, href,
    values: result.values.map(([k, v, kind]) => [k, formatValue(v, kind), numericOf(v), kind]),
    dice: result.dice.map((d) => `${d.value}${d.label ? ` ${d.label}` : ""}`).join(", "),
  };
  const log = [entry, ...readLog()].slice(0, LOG_MAX);
  try { sessionStorage.setItem(LOG_KEY, JSON.stringify(log)); } catch { /* private mode */ }
  renderLog();
}

function intTargets() {
  return [...document.querySelectorAll(".ts-calc[data-ts-ready] input[data-int]")].map((el) => {
    const host = el.closest(".ts-calc");
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

// The caption of the table a calculator stands after (its deck's, when in one).
function tableCaption(host) {
  const before = (host.parentElement?.matches(".ts-deck") ? host.parentElement : host)
    .previousElementSibling;
  const table = before?.matches("table") ? before : before?.querySelector?.("table");
  const caption = (table?.querySelector("caption")?.textContent || "").trim();
  if (caption || table) return caption;
  // after a section's prose (no table): the section's heading
  for (let n = before; n; n = n.previousElementSibling) {
    if (/^H[1-4]$/.test(n.tagName)) return n.textContent.replace(/¶\s*$/, "").trim();
  }
  return "";
}

function useChooser(entryEl, name, value, kind) {
  entryEl.querySelector(".ts-use")?.remove();
  const targets = chainTargets(name, value, kind);
  const id = `ts-${++seq}-use`;
  const select = h("select", { id }, targets.map((t, i) => h("option", { value: i, text: t.text })));
  const box = h("div", { class: "ts-use" },
    h("label", { for: id, text: `Use ${name} ${value} as` }), select,
    h("button", { type: "button", class: "md-button md-button--primary", text: "Apply",
      onclick: () => {
        const t = targets[Number(select.value)];
        if (!t) return;
        const host = t.el.closest(".ts-calc");
        const deck = host.parentElement?.closest(".ts-deck");
        if (deck) selectTab(deck, host);
        const more = t.el.closest("details.ts-more");
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

function renderLog() {
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
  panel.querySelector(".ts-log-empty").hidden = log.length > 0;
  panel.querySelector(".ts-log-clear").hidden = log.length === 0;
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

function mountLog() {
  const article = document.querySelector("article.md-content__inner") || document.querySelector("main");
  if (!article || article.querySelector(".ts-log")) return;
  const wakeId = `ts-${++seq}-wake`;
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

// --- several calculators after one table: one deck with a tab per calculator -----------------
function shortTitle(calc) {
  const t = calc.title;
  const cut = t.indexOf(":");
  return cut > 3 ? t.slice(0, cut) : t;
}

function selectTab(deck, host, focus = false) {
  pending.get(host)?.(); // not built yet (see whenIdle): build it now
  for (const tab of deck.querySelectorAll(":scope > .ts-tabs > [role=tab]")) {
    const on = tab.getAttribute("aria-controls") === host.id;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
    // A narrow screen scrolls the row of tabs (not the page) to the chosen one. Never for
    // the first tab (already in view): measuring forces a layout, and every deck on the
    // page selects its first tab as it is built.
    if (on && tab.previousElementSibling
        && tab.parentElement.scrollWidth > tab.parentElement.clientWidth) {
      tab.parentElement.scrollLeft = tab.offsetLeft - tab.parentElement.offsetLeft - 16;
    }
  }
  for (const panel of deck.querySelectorAll(":scope > .ts-calc")) panel.hidden = panel !== host;
}

function groupDecks(hosts, registry) {
  const seen = new Set();
  for (const first of hosts) {
    if (seen.has(first) || first.previousElementSibling?.matches(".ts-calc")) continue;
    const run = [first];
    for (let n = first.nextElementSibling; n && n.matches(".ts-calc"); n = n.nextElementSibling) {
      run.push(n);
    }
    run.forEach((x) => seen.add(x));
    if (run.length < 2) continue;
    const where = tableCaption(first);
    const tabs = h("div", { class: "ts-tabs", role: "tablist",
      "aria-label": where ? `Calculators: ${where}` : "Calculators" });
    const deck = h("div", { class: "ts-deck" }, tabs);
    first.before(deck);
    for (const host of run) {
      host.id ||= `ts-${++seq}-panel`;
      const calc = registry.get(host.dataset.calc);
      const tab = h("button", { type: "button", role: "tab", id: `${host.id}-tab`,
        "aria-controls": host.id, text: calc ? shortTitle(calc) : host.dataset.calc,
        title: calc?.title, onclick: () => selectTab(deck, host) });
      host.setAttribute("role", "tabpanel");
      host.setAttribute("aria-labelledby", tab.id);
      tabs.append(tab);
      deck.append(host);
    }
    tabs.addEventListener("keydown", (e) => {
      const all = [...tabs.children];
      const i = all.indexOf(document.activeElement);
      if (i < 0) return;
      const j = e.key === "ArrowRight" ? (i + 1) % all.length
        : e.key === "ArrowLeft" ? (i - 1 + all.length) % all.length
          : e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : -1;
      if (j < 0) return;
      e.preventDefault();
      selectTab(deck, document.getElementById(all[j].getAttribute("aria-controls")), true);
    });
    selectTab(deck, first);
  }
}

// --- each page (first load and every instant navigation) ---------------------------------
async function onPage() {
  framedNotice();
  // A #heading stays on screen while the page builds (and, on a phone, past the release of
  // Material's search scroll lock, so pin pages without calculators too).
  const replace = pinFragment();
  const hosts = [...document.querySelectorAll(".ts-calc:not([data-ts-ready])")];
  if (!hosts.length) return;
  if (!FRAMED) loadPython(); // start now: the first click is then usually instant
  let registry;
  try {
    registry = await registryP;
  } catch (e) {
    console.warn("Tableside: no calculator registry:", e);
    for (const host of hosts) mountMissing(host, host.dataset.calc);
    return;
  }
  groupDecks(hosts, registry);
  const counts = new Map();
  const later = [];
  for (const host of hosts) {
    if (!host.isConnected || host.dataset.tsReady !== undefined) continue;
    const id = host.dataset.calc;
    const index = counts.get(id) || 0;
    counts.set(id, index + 1);
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
  checkLinkTarget(counts, registry);
  mountLog();
  replace();
  whenIdle(later);
}

// Panels behind a deck's tabs are built when the page is idle, not as it opens: a weapon
// page has 28 calculators, 4 of them in view, and building all of them up front delayed
// Python's start (same main thread) by ~0.1 s on a desktop and ~0.4 s on a phone.
// Selecting a tab builds its panel at once if it is still waiting (selectTab).
const pending = new Map(); // host element -> its build function

function whenIdle(jobs) {
  const next = (deadline) => {
    while (jobs.length && (!deadline || deadline.timeRemaining() > 4 || deadline.didTimeout)) {
      jobs.shift()();
      if (deadline && deadline.didTimeout) break; // one per forced turn, then yield again
    }
    if (jobs.length) schedule();
  };
  const schedule = () => (window.requestIdleCallback
    ? requestIdleCallback(next, { timeout: 1000 }) : setTimeout(next, 50));
  if (jobs.length) schedule();
}

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => { onPage(); });
} else {
  onPage();
}
