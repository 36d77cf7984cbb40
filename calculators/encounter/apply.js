// @ts-check
// The encounter tracker's hook into every calculator (issue 12). tableside.js dispatches
// `tableside:result` after each result; when the game has an encounter with combatants,
// this adds "Apply to …" under the result: Python (each game's encounter rules, through
// rules_pkg.encounter.apply) says what the result can change, the chosen combatant gets
// that event appended to the log.
// It also mounts the tracker (encounter/page.js) on a game's Encounter page.

import { SCHEMA, activeEncounter, newEid, saveEncounter } from "./store.js";
import { verifiedModules } from "../python/integrity.mjs";
import { h, uid } from "../dom.mjs";
import { EncounterError, migrated, py } from "./engine.js";
// the log the worker holds (rules_pkg/encounter/held.py): a fold sends only what is new,
// not a stored 5,000-event fight with every calculator's answer (issue 24)
import { pyHeld } from "./replay.js";

/**
 * Append one event to the game's active encounter (with a new id unless it has one).
 * @param {string} game @param {import("./store.js").EncEvent} event
 */
export function appendEvent(game, event) {
  const doc = activeEncounter(game);
  if (!doc) throw new EncounterError("No encounter for this game.");
  doc.events = [...doc.events, { eid: newEid(), ...event }];
  saveEncounter(doc).then(() => { // stored (merged), then the tracker re-reads it
    dispatchEvent(new CustomEvent("tableside:encounter-changed", { detail: { game, applied: true } }));
  });
  return doc;
}

/** @param {CustomEvent} e */
async function onResult(e) {
  const { calc, inputs, result, host } = e.detail || {};
  if (typeof calc !== "string" || !host) return;
  const game = calc.split(".")[0];
  host.querySelector(".ts-apply")?.remove();
  const doc = activeEncounter(game);
  if (!doc || !doc.events.some((x) => x.type === "add")) return;
  let reply;
  let state;
  try {
    if (doc.schema !== SCHEMA) await migrated(doc);
    reply = await py({ op: "propose", game, calc, inputs, result });
    if (!reply.proposals.length) return;
    state = (await pyHeld({ op: "fold", game }, doc.events)).state;
  } catch (err) {
    console.warn("Tableside encounter:", err);
    return;
  }
  if (!state.combatants.length) return;
  const page = /** @type {HTMLElement | null} */ (document.querySelector(`.ts-encounter[data-game="${CSS.escape(game)}"]`));
  const asActor = /** @type {HTMLSelectElement | null} */ (document.querySelector("#ts-enc-actor"))?.value;
  // whom each kind of proposal is for by default: the one hit, or the one who acted
  const preferred = {
    target: page?.dataset.target
      || state.combatants.find((/** @type {any} */ c) => c.id !== state.current)?.id || state.combatants[0].id,
    actor: asActor || state.current || state.combatants[0].id,
  };
  const said = h("p", { class: "ts-apply-said", role: "status" });
  const preview = h("p", { class: "ts-apply-for", "aria-live": "polite" });
  const rid = resultId(calc, inputs, result);
  /** @type {(() => void)[]} */
  const syncs = [];
  /** @param {string} role @param {{label: string, event: any, role?: string}[]} props */
  const row = (role, props) => {
    const id = uid("apply");
    const select = h("select", { id, class: "ts-apply-who" },
      state.combatants.map((/** @type {any} */ c) => h("option", { value: c.id, text: c.name })));
    select.value = role === "actor" ? preferred.actor : preferred.target;
    const buttons = props.map((p) => applyButton(game, p, `${rid}:${all.indexOf(p)}`, () => select.value, said));
    const sync = () => {
      for (const b of buttons) b.sync();
      if (role === "target") previewFor(game, props, `${rid}:${all.indexOf(props[0])}`, select.value, preview);
    };
    select.addEventListener("change", sync);
    syncs.push(sync);
    sync();
    return h("div", { class: "ts-apply-row", "data-role": role },
      h("label", { for: id, text: role === "actor" ? "Apply to (who acted)" : "Apply to" }), select,
      buttons.map((b) => b.el),
      role === "target" && state.combatants.length > 1 ? several(game, props, rid, all, state, said) : null);
  };
  /** @type {{label: string, event: any, role?: string}[]} */
  const all = reply.proposals;
  const roles = ["target", "actor"].filter((r) => all.some((p) => (p.role || "target") === r));
  const box = h("div", { class: "ts-apply", role: "group", "aria-label": `Apply to a combatant of ${doc.name}` },
    preview, roles.map((r) => row(r, all.filter((p) => (p.role || "target") === r))), said);
  host.querySelector(".ts-result")?.append(box);
  // Undo on the tracker, or an Apply of another result: the buttons follow the log
  const follow = (/** @type {Event} */ ev) => {
    if (!box.isConnected) { removeEventListener("tableside:encounter-changed", follow); return; }
    if (/** @type {CustomEvent} */ (ev).detail?.game === game) for (const f of syncs) f();
  };
  addEventListener("tableside:encounter-changed", follow);
}

/**
 * An area hit (#25 item 7: explosives, shotgun shells, grenades, autofire spread): the
 * same result applied to each combatant ticked, each its own event (its own eid), so a
 * second tap still does nothing. Each target's own armour, SP or Defense is used.
 * @param {string} game @param {{label: string, event: any}[]} props @param {string} rid
 * @param {{label: string, event: any}[]} all @param {any} state @param {HTMLElement} said
 */
function several(game, props, rid, all, state, said) {
  const boxes = state.combatants.map((/** @type {any} */ c) => {
    const id = uid("area");
    return h("label", { class: "ts-check", for: id },
      h("input", { type: "checkbox", id, value: c.id }), h("span", { text: c.name }));
  });
  const p = props[0];
  const go = h("button", { type: "button", class: "md-button ts-apply-area", text: `Apply to each ticked: ${p.label}`,
    onclick: async () => {
      const doc = activeEncounter(game);
      if (!doc) return;
      const who = boxes.map((b) => /** @type {HTMLInputElement} */ (b.querySelector("input")))
        .filter((x) => x.checked).map((x) => x.value);
      if (!who.length) { said.textContent = "Tick the combatants the area hit reaches."; return; }
      go.setAttribute("disabled", "");
      const k = `${rid}:${all.indexOf(p)}`;
      let after = doc;
      for (const target of who) {
        const id = applyEid(k, target);
        if (isActive(after.events, id)) continue; // already applied to this one
        after = appendEvent(game, { ...p.event, target, eid: id, ...(p.event.type === "hit" ? { seed: fnv(id) } : {}) });
      }
      const s = (await pyHeld({ op: "fold", game }, after.events)).state;
      said.textContent = `Applied in “${after.name}” to ${who.length}: `
        + s.history.slice(-who.length).map((/** @type {any} */ x) => x.summary).join("; ");
      go.removeAttribute("disabled");
    } });
  return h("details", { class: "ts-apply-several" }, h("summary", { text: "Several targets (an area hit)" }),
    h("div", { class: "ts-apply-checks" }, boxes), go);
}

/** 32 bits of FNV-1a over a text: ids and seeds from a result, not a secret. @param {string} text */
function fnv(text) {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    x ^= text.charCodeAt(i);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x >>> 0;
}

/**
 * A result's own id. A rolled result is its dice: the same roll (same seed and inputs) shown
 * again is the same result, applied once. A result worked out without dice is this showing
 * of it: pressing Compute again is a new result (a second hit of the same size).
 * @param {string} calc @param {Record<string, any>} inputs @param {Record<string, any>} result
 */
function resultId(calc, inputs, result) {
  const text = JSON.stringify([calc, inputs, result.summary, (result.dice || []).map((/** @type {any} */ d) => d.value)]);
  const once = inputs.seed ? "" : `${Date.now()}.${Math.random()}`;
  return `${fnv(text).toString(36)}${fnv(text + "|" + once).toString(36)}`;
}

/** An eid from the result's id and the chosen combatant (eids: 1-64 of [A-Za-z0-9_.:-]).
 * @param {string} rid @param {string} target */
function applyEid(rid, target) {
  const who = /^[A-Za-z0-9_.-]{1,24}$/.test(target) ? target : fnv(target).toString(36);
  return `a:${rid}:${who}`;
}

/**
 * One proposal's button: "Apply: …", then "Applied" with Undo beside it. Its event's id
 * comes from the result and the target: a double tap, or the same result applied from a
 * second copy, finds it in the log and does nothing (rules_pkg/encounter/log.py).
 * @param {string} game @param {{label: string, event: any}} p @param {string} rid
 * @param {() => string} who @param {HTMLElement} said
 */
function applyButton(game, p, rid, who, said) {
  const go = h("button", { type: "button", class: "md-button ts-apply-go", text: `Apply: ${p.label}` });
  const undo = h("button", { type: "button", class: "md-button ts-apply-undo", text: "Undo", hidden: true });
  const el = h("span", { class: "ts-apply-one" }, go, undo);
  const eid = () => applyEid(rid, who());
  const sync = () => {
    const doc = activeEncounter(game);
    const done = Boolean(doc && isActive(doc.events, eid()));
    go.textContent = done ? `Applied: ${p.label}` : `Apply: ${p.label}`;
    go.toggleAttribute("disabled", done);
    go.setAttribute("aria-pressed", String(done));
    undo.hidden = !done;
  };
  go.addEventListener("click", async () => {
    const id = eid();
    const doc = activeEncounter(game);
    if (!doc || isActive(doc.events, id)) { sync(); return; } // a second tap: nothing
    go.setAttribute("disabled", "");
    performance.mark("tableside:apply");
    try {
      const undone = undoOf(doc.events, id);
      const after = undone ? appendEvent(game, { type: "undo", of: undone }) // applied again: redo
        : appendEvent(game, { ...p.event, target: who(), eid: id, ...(p.event.type === "hit" ? { seed: fnv(id) } : {}) });
      const s = (await pyHeld({ op: "fold", game }, after.events)).state;
      said.textContent = `Applied in “${after.name}”: ${s.history[s.history.length - 1].summary}`;
    } catch (err) {
      said.textContent = err instanceof Error ? err.message : String(err);
    }
    sync();
  });
  undo.addEventListener("click", () => {
    const doc = activeEncounter(game);
    if (!doc || !isActive(doc.events, eid())) { sync(); return; }
    appendEvent(game, { type: "undo", of: eid() });
    said.textContent = `Undone in “${doc.name}”: ${p.label}`;
    sync();
    go.focus();
  });
  return { el, sync };
}

/** Whether the event `eid` is in the log and not undone (an undo undone is a redo).
 * @param {import("./store.js").EncEvent[]} events @param {string} eid */
function isActive(events, eid) {
  if (!events.some((e) => e.eid === eid && e.type !== "undo")) return false;
  return !undoOf(events, eid);
}

/** The eid of the active undo event that cancels `eid` ("" if none).
 * @param {import("./store.js").EncEvent[]} events @param {string} eid
 * @returns {string} */
function undoOf(events, eid) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "undo" && e.of === eid && !undoOf(events, e.eid)) return e.eid;
  }
  return "";
}

/**
 * What the first proposal would do to the chosen combatant, worked out against its own sheet
 * before anything is applied: the headline speaks about that target.
 * @param {string} game @param {{label: string, event: any}[]} props @param {string} rid
 * @param {string} target @param {HTMLElement} out
 */
async function previewFor(game, props, rid, target, out) {
  const doc = activeEncounter(game);
  if (!doc || !target || !props.length) return;
  const id = applyEid(rid, target);
  const p = props[0];
  const event = { ...p.event, target, eid: `${id}.p`, ...(p.event.type === "hit" ? { seed: fnv(id) } : {}) };
  const done = isActive(doc.events, id);
  try { // applied: what it did; not yet: what it would do
    const s = (await pyHeld({ op: "fold", game }, done ? doc.events : [...doc.events, event])).state;
    const who = s.combatants.find((/** @type {any} */ c) => c.id === target);
    const line = done ? s.history.find((/** @type {any} */ x) => x.eid === id) : s.history[s.history.length - 1];
    out.textContent = `Against ${who?.name || "?"}: ${line?.summary || ""}`;
  } catch (err) {
    out.textContent = err instanceof Error ? err.message : String(err);
  }
}

addEventListener("tableside:result", (e) => { onResult(/** @type {CustomEvent} */ (e)); });

function onPage() {
  if (document.querySelector(".ts-encounter:not([data-ts-enc])")) {
    // Checked copies first: a later import() only gets in through a checked preload.
    verifiedModules([new URL("./page.js", import.meta.url),
                     new URL("./view.js", import.meta.url),
                     new URL("./panels.js", import.meta.url),
                     new URL("./draw.js", import.meta.url),
                     new URL("./as.js", import.meta.url),
                     new URL("./boot.js", import.meta.url),
                     new URL("./cache.js", import.meta.url),
                     new URL("./status.js", import.meta.url),
                     new URL("./sync.js", import.meta.url)])
      .then(() => import("./page.js")).then((m) => m.mountAll()).catch((err) => {
      console.warn("Tableside encounter:", err);
    });
  }
  if (document.querySelector(".ts-player-view:not([data-ts-pv])")) { // issue 27: no Python there
    verifiedModules(["../share/player-view.js", "../share/link.mjs", "./view.js"]
      .map((u) => new URL(u, import.meta.url)))
      .then(() => import("../share/player-view.js")).then((m) => m.mountAll()).catch((err) => {
        console.warn("Tableside player view:", err);
      });
  }
}

const doc$ = /** @type {any} */ (window).document$;
if (doc$ && typeof doc$.subscribe === "function") doc$.subscribe(() => onPage());
else if (document.readyState === "loading") addEventListener("DOMContentLoaded", onPage);
else onPage();
