// @ts-check
// The Encounter page (issue 12): a fight as a log of events, folded by Python
// (rules_pkg.encounter) into the state shown here. This file only stores and replays
// events. Each has its own id and the log is only appended to: Undo appends an event that
// cancels the newest action, Redo one that cancels that undo (rules_pkg/encounter/log.py).

import { h } from "./dom.mjs";
import { EncounterError, migrated, py } from "./encounter-apply.js";
import { sriFor, verifiedModules } from "./integrity.mjs";
import {
  activeEncounter, deleteEncounter, encountersOf, newEid, newEncounter, presetsOf,
  saveEncounter, savePreset, seed, setActive,
} from "./encounter-store.js";
import { addForm, card, historyList, orderList, roundLine } from "./encounter-view.js";

const CSS_URL = new URL("encounter.css", import.meta.url).href;

export function mountAll() {
  for (const el of document.querySelectorAll(".ts-encounter:not([data-ts-enc])")) {
    mount(/** @type {HTMLElement} */ (el));
  }
}

function ensureCss() {
  if (!document.querySelector(`link[href="${CSS_URL}"]`)) {
    // The stylesheet is this build's or nothing (integrity from the page's list).
    const integrity = sriFor(CSS_URL);
    if (integrity) document.head.append(h("link", { rel: "stylesheet", href: CSS_URL, integrity }));
  }
}

/** Phone: the calculators in a bottom sheet; desktop: beside the tracker. @param {HTMLElement} el */
function layout(el) {
  const calcs = /** @type {HTMLElement | null} */ (el.parentElement?.querySelector(".ts-enc-calcs"));
  const wrap = h("div", { class: "ts-enc-layout" });
  el.before(wrap);
  wrap.append(el);
  if (!calcs) return null;
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
  wrap.append(calcs, toggle);
  return calcs;
}

/** @param {HTMLElement} el */
function mount(el) {
  el.dataset.tsEnc = "";
  const game = /** @type {string} */ (el.dataset.game);
  const sheet = JSON.parse(el.dataset.sheet || "{}");
  ensureCss();
  const calcs = layout(el);
  let doc = activeEncounter(game) || newEncounter(game, "Encounter 1");
  /** @type {any} */
  let state = null;
  /** What Undo and Redo would cancel (eids, from the last fold). */
  let next = { undo: null, redo: null };
  /** @type {string | null} */
  let selected = null;
  let checked = ""; // the encounter already read (and migrated) by Python

  const msg = h("p", { class: "ts-enc-msg", role: "alert" });
  const line = h("p", { class: "ts-enc-round", role: "status", "aria-live": "polite" });
  const pick = h("select", { id: "ts-enc-pick", class: "ts-enc-pick" });
  const file = h("input", { type: "file", accept: ".json,application/json", id: "ts-enc-file",
    class: "ts-enc-file" });
  const btn = (/** @type {string} */ text, /** @type {() => any} */ fn, primary = false) =>
    h("button", { type: "button", class: `md-button${primary ? " md-button--primary" : ""}`, text,
      onclick: () => { Promise.resolve(fn()).catch(show); } });
  const moreBtn = h("button", { type: "button", class: "md-button ts-enc-more", text: "More",
    "aria-expanded": "false", "aria-controls": "ts-enc-menu" });
  moreBtn.addEventListener("click", () => {
    const menu = /** @type {HTMLElement} */ (el.querySelector("#ts-enc-menu"));
    menu.hidden = !menu.hidden;
    moreBtn.setAttribute("aria-expanded", String(!menu.hidden));
  });
  // d100 Crippled tests only a turn of more than a Half Action: the GM says when it was less
  const half = h("input", { type: "checkbox", id: "ts-enc-half" });
  const halfBox = h("p", { class: "ts-enc-half", hidden: true }, half,
    h("label", { for: "ts-enc-half", text: " Only a Half Action this turn (Crippled: no test)" }));
  const nextTurn = () => {
    const e = { type: "next_turn", seed: seed(), ...(half.checked && !halfBox.hidden ? { half_action: true } : {}) };
    half.checked = false;
    return push(e);
  };
  const undoBtn = btn("Undo", undo);
  const redoBtn = btn("Redo", redo);
  const order = h("div", { class: "ts-enc-orderbox" });
  const cardBox = h("div", { class: "ts-enc-cardbox" });
  const addBox = h("details", { class: "ts-enc-add" }, h("summary", { text: "Add a combatant" }));
  const histBox = h("details", { class: "ts-enc-hist" }, h("summary", { text: "History" }));
  const histBody = h("div", {});
  histBox.append(histBody);
  const shareBox = h("div", { class: "ts-enc-sharebox" });
  /** @type {{update: () => void} | null} */
  let share = null;

  el.replaceChildren(
    h("div", { class: "ts-enc-bar" },
      h("label", { for: "ts-enc-pick", text: "Encounter" }), pick,
      moreBtn,
      h("div", { class: "ts-enc-menu", id: "ts-enc-menu", hidden: true },
          btn("New", () => { doc = newEncounter(game, `Encounter ${encountersOf(game).length + 1}`); return refresh(); }),
          btn("Rename", rename), btn("Export", exportDoc),
          h("label", { for: "ts-enc-file", class: "md-button ts-enc-import", text: "Import" }), file,
          btn("Delete", remove))),
    line,
    h("div", { class: "ts-enc-controls" },
      btn("Roll initiative", () => push({ type: "initiative", seed: seed() }), true),
      btn("Next turn", nextTurn, true),
      btn("Next round", () => push({ type: "next_round", seed: seed() })),
      undoBtn, redoBtn),
    halfBox,
    msg, order, cardBox, addBox, histBox, shareBox);

  pick.addEventListener("change", () => {
    const next = encountersOf(game).find((d) => d.id === pick.value);
    if (next) { doc = next; setActive(game, doc.id); refresh().catch(show); }
  });
  file.addEventListener("change", () => { importFile().catch(show); });

  /** @param {unknown} err */
  function show(err) {
    msg.textContent = err instanceof Error ? err.message : String(err);
    if (!(err instanceof EncounterError)) console.warn("Tableside encounter:", err);
  }

  /** Read the stored encounter through Python once (migrating an older schema). */
  async function check() {
    if (checked === doc.id) return;
    await migrated(doc);
    checked = doc.id;
  }

  async function refresh() {
    msg.textContent = "";
    pick.replaceChildren(...encountersOf(game).map((d) => h("option", { value: d.id, text: d.name })));
    pick.value = doc.id;
    try {
      await check();
    } catch (err) {
      show(new EncounterError(`“${doc.name}” could not be read (${err instanceof Error ? err.message : err}). `
        + "It is kept as it is: export it, or start a new encounter."));
      return;
    }
    await fold();
  }

  /** Fold the log: the state, and what Undo and Redo would cancel. */
  async function fold() {
    const reply = await py({ op: "fold", game, events: doc.events });
    state = reply.state;
    next = { undo: reply.undo, redo: reply.redo };
    render();
  }

  function render() {
    line.textContent = roundLine(state);
    undoBtn.toggleAttribute("disabled", !next.undo);
    redoBtn.toggleAttribute("disabled", !next.redo);
    if (selected && !state.combatants.some((/** @type {any} */ c) => c.id === selected)) selected = null;
    const shown = selected || state.current || state.combatants[0]?.id || null;
    const now = state.combatants.find((/** @type {any} */ x) => x.id === state.current);
    halfBox.hidden = !now?.conditions.some((/** @type {any} */ x) => x.name === "Crippled");
    order.replaceChildren(orderList(state, shown, (id) => { selected = id; render(); }));
    const c = state.combatants.find((/** @type {any} */ x) => x.id === shown);
    cardBox.replaceChildren(c ? card(sheet, c, {
      push: (e) => { push(e).catch(show); },
      remove: () => { push({ type: "remove", id: c.id }).catch(show); },
    }) : h("p", { text: "Add combatants, then roll initiative." }));
    addBox.replaceChildren(addBox.firstElementChild || "", addForm(sheet, presetsOf(game), (p, save) => {
      if (save) savePreset(game, p);
      const id = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
      push({ type: "add", id, name: p.name, kind: p.kind, values: p.values }).catch(show);
    }));
    histBody.replaceChildren(historyList(state));
    const notes = state.history.length ? state.history[state.history.length - 1].notes : [];
    if (notes.length) msg.textContent = notes.join(" ");
    if (calcs) renderAs(calcs);
    share?.update();
    el.dataset.events = String(doc.events.length);
    if (performance.getEntriesByName("tableside:apply").length) {
      const m = performance.measure("tableside:apply-to-state", "tableside:apply");
      /** @type {any} */ (window).tablesideApplyMs = m.duration;
      performance.clearMarks("tableside:apply");
    }
  }

  /** "Run as … against …": the calculators take the combatants' numbers. @param {HTMLElement} box */
  function renderAs(box) {
    let bar = box.querySelector(".ts-enc-as");
    const opts = () => [h("option", { value: "", text: "—" }),
      ...state.combatants.map((/** @type {any} */ c) => h("option", { value: c.id, text: c.name }))];
    if (!bar) {
      bar = h("div", { class: "ts-enc-as" },
        h("label", { for: "ts-enc-actor", text: "As" }), h("select", { id: "ts-enc-actor" }),
        h("label", { for: "ts-enc-target", text: "against" }), h("select", { id: "ts-enc-target" }));
      box.querySelector("h2")?.after(bar);
      for (const s of bar.querySelectorAll("select")) {
        s.addEventListener("change", () => { fillInputs(box, true).catch(show); });
      }
      // a calculator behind a tab is built when chosen: it takes the numbers then
      box.addEventListener("click", (e) => {
        if (/** @type {HTMLElement} */ (e.target).closest?.("[role=tab]")) {
          setTimeout(() => { fillInputs(box).catch(show); }, 0);
        }
      });
    }
    const [actor, target] = /** @type {HTMLSelectElement[]} */ ([...bar.querySelectorAll("select")]);
    const keep = [actor.value || state.current || "", target.value || el.dataset.target || ""];
    actor.replaceChildren(...opts());
    target.replaceChildren(...opts());
    actor.value = keep[0];
    target.value = keep[1];
    el.dataset.target = target.value;
    fillInputs(box).catch(show); // the numbers changed: the calculators follow
  }

  /**
   * The built calculators take the chosen combatants' numbers (one fold for all).
   * @param {HTMLElement} box @param {boolean} [force] also over what the player typed
   */
  async function fillInputs(box, force = false) {
    const [actor, target] = /** @type {HTMLSelectElement[]} */ ([...box.querySelectorAll(".ts-enc-as select")]);
    el.dataset.target = target.value;
    if (!actor.value && !target.value) return;
    const hosts = [...box.querySelectorAll(".ts-calc[data-calc]")].filter((x) => x.querySelector("form"));
    const { inputs: all } = await py({ op: "inputs", game, actor: actor.value, target: target.value,
      calcs: hosts.map((x) => /** @type {HTMLElement} */ (x).dataset.calc), events: doc.events });
    for (const host of hosts) {
      const form = /** @type {HTMLFormElement} */ (host.querySelector("form"));
      const inputs = all[/** @type {string} */ (/** @type {HTMLElement} */ (host).dataset.calc)] || {};
      for (const [k, v] of Object.entries(inputs)) {
        const f = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(k));
        if (!f) continue;
        const now = f.type === "checkbox" ? String(f.checked) : f.value;
        // a value the player typed since the last fill is theirs: keep it
        if (!force && f.dataset.tsFilled !== undefined && f.dataset.tsFilled !== now) continue;
        if (f.type === "checkbox") f.checked = Boolean(v);
        else f.value = String(v);
        f.dataset.tsFilled = f.type === "checkbox" ? String(f.checked) : f.value;
      }
    }
  }

  /** Append one event (a new id unless it has one) once the rules accept it.
   * @param {import("./encounter-store.js").EncEvent} event */
  async function push(event) {
    const before = doc.events;
    doc.events = [...before, { eid: newEid(), ...event }];
    try {
      await fold();
    } catch (err) {
      doc.events = before; // refused by the rules: nothing is stored
      throw err;
    }
    saveEncounter(doc);
  }

  async function undo() {
    if (next.undo) await push({ type: "undo", of: next.undo });
  }

  async function redo() {
    if (next.redo) await push({ type: "undo", of: next.redo });
  }

  function rename() {
    const name = prompt("Name of this encounter", doc.name);
    if (name && name.trim()) {
      doc.name = name.trim().slice(0, 80);
      saveEncounter(doc);
      return refresh();
    }
    return undefined;
  }

  function remove() {
    if (!confirm(`Delete “${doc.name}”? Export it first to keep a copy.`)) return undefined;
    deleteEncounter(doc.id);
    doc = activeEncounter(game) || newEncounter(game, "Encounter 1");
    setActive(game, doc.id);
    return refresh();
  }

  async function exportDoc() {
    const { text } = await py({ op: "export", game, name: doc.name, events: doc.events });
    const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
      download: `${doc.name.replace(/[^\w -]+/g, "").trim() || "encounter"}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async function importFile() {
    const f = /** @type {HTMLInputElement} */ (file).files?.[0];
    /** @type {HTMLInputElement} */ (file).value = "";
    if (!f) return;
    if (f.size > 2_000_000) throw new EncounterError("The file is too large to be an encounter.");
    const reply = await py({ op: "import", text: await f.text() });
    if (reply.game !== game) {
      throw new EncounterError(`This encounter is for another game (${reply.game}): open its Encounter page to import it.`);
    }
    doc = newEncounter(game, reply.name || f.name.replace(/\.json$/i, ""), reply.events);
    checked = doc.id;
    await refresh();
    msg.textContent = `Imported “${doc.name}” (${doc.events.length} events).`;
  }

  addEventListener("tableside:encounter-changed", (e) => {
    const d = /** @type {CustomEvent} */ (e).detail;
    if (d?.game !== game || !el.isConnected) return;
    doc = activeEncounter(game) || doc;
    fold().catch(show);
  });

  /** The log after a merge (encounter-share.js): stored once the rules accept it. @param {any[]} events */
  async function replaceEvents(events) {
    const before = doc.events;
    doc.events = events;
    try {
      await fold();
    } catch (err) {
      doc.events = before;
      throw err;
    }
    saveEncounter(doc);
  }

  // Sharing and the printed record (issue 27): modules of their own, checked before import.
  verifiedModules(["./encounter-share.js", "./player-view.js", "./share-link.mjs"]
    .map((u) => new URL(u, import.meta.url)))
    .then(() => import("./encounter-share.js"))
    .then((m) => {
      share = m.mountShare(shareBox, { game, doc: () => doc, state: () => state, py, newEid, replaceEvents });
      if (state) share.update();
    }).catch(show);

  line.textContent = "Loading the rules engine…";
  refresh().catch(show);
}
