// @ts-check
// The encounter tracker's hook into every calculator (issue 12). tableside.js dispatches
// `tableside:result` after each result; when the game has an encounter with combatants,
// this adds "Apply to …" under the result: Python (rules_pkg.encounter.apply) says what
// the result can change, the chosen combatant gets that event appended to the log.
// It also mounts the tracker (encounter.js) on a game's Encounter page.

import { SCHEMA, activeEncounter, fileText, newEid, saveEncounter } from "./encounter-store.js";
import { verifiedModules } from "./integrity.mjs";
import { h, uid } from "./dom.mjs";
import { python } from "./boot.mjs";
import { FRAMED } from "./guards.mjs";


export class EncounterError extends Error {}

/** Python's encounter entry point, once the rules engine is ready (boot.mjs).
 * @returns {Promise<(request: string) => string>} */
async function engine() {
  try {
    if (FRAMED) throw new Error("framed: no engine (guards.mjs)");
    await python();
  } catch {
    throw new EncounterError("The rules engine could not be loaded.");
  }
  return /** @type {any} */ (window).tablesideEncounter;
}

/** @param {Record<string, any>} req @returns {Promise<Record<string, any>>} */
export async function py(req) {
  const fn = await engine();
  const reply = JSON.parse(fn(JSON.stringify(req)));
  if (!reply.ok) {
    if (reply.kind !== "rules") console.warn("Tableside encounter:", reply.detail);
    throw new EncounterError(reply.kind === "rules" ? reply.message
      : "Encounter error: this could not be worked out.");
  }
  return reply;
}

/**
 * A stored encounter read through Python (checked, and migrated to this build's schema,
 * which is then stored). Throws an EncounterError when it cannot be read.
 * @param {import("./encounter-store.js").EncDoc} doc
 */
export async function migrated(doc) {
  const reply = await py({ op: "import", text: fileText(doc) });
  if (reply.schema !== doc.schema || JSON.stringify(reply.events) !== JSON.stringify(doc.events)) {
    doc.events = reply.events;
    doc.schema = reply.schema;
    delete doc.redo; // schema 1's redo stack: Redo is an event now
    saveEncounter(doc);
  }
  return doc;
}

/**
 * Append one event to the game's active encounter (with a new id unless it has one).
 * @param {string} game @param {import("./encounter-store.js").EncEvent} event
 */
export function appendEvent(game, event) {
  const doc = activeEncounter(game);
  if (!doc) throw new EncounterError("No encounter for this game.");
  doc.events = [...doc.events, { eid: newEid(), ...event }];
  saveEncounter(doc);
  dispatchEvent(new CustomEvent("tableside:encounter-changed", { detail: { game, applied: true } }));
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
    state = (await py({ op: "fold", game, events: doc.events })).state;
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
  /** @param {string} role @param {{label: string, event: any, role?: string}[]} props */
  const row = (role, props) => {
    const id = uid("apply");
    const select = h("select", { id, class: "ts-apply-who" },
      state.combatants.map((/** @type {any} */ c) => h("option", { value: c.id, text: c.name })));
    select.value = role === "actor" ? preferred.actor : preferred.target;
    return h("div", { class: "ts-apply-row", "data-role": role },
      h("label", { for: id, text: role === "actor" ? "Apply to (who acted)" : "Apply to" }), select,
      props.map((p) => h("button", { type: "button", class: "md-button ts-apply-go", text: `Apply: ${p.label}`,
        onclick: async () => {
          performance.mark("tableside:apply");
          const target = select.value;
          try {
            const after = appendEvent(game, { ...p.event, target });
            const s = (await py({ op: "fold", game, events: after.events })).state;
            said.textContent = `Applied in “${after.name}”: ${s.history[s.history.length - 1].summary}`;
          } catch (err) {
            said.textContent = err instanceof Error ? err.message : String(err);
          }
        } })));
  };
  /** @type {{label: string, event: any, role?: string}[]} */
  const all = reply.proposals;
  const roles = ["target", "actor"].filter((r) => all.some((p) => (p.role || "target") === r));
  const box = h("div", { class: "ts-apply", role: "group", "aria-label": `Apply to a combatant of ${doc.name}` },
    roles.map((r) => row(r, all.filter((p) => (p.role || "target") === r))), said);
  host.querySelector(".ts-result")?.append(box);
}

addEventListener("tableside:result", (e) => { onResult(/** @type {CustomEvent} */ (e)); });

function onPage() {
  if (document.querySelector(".ts-encounter:not([data-ts-enc])")) {
    // Checked copies first: a later import() only gets in through a checked preload.
    verifiedModules([new URL("./encounter.js", import.meta.url),
                     new URL("./encounter-view.js", import.meta.url)])
      .then(() => import("./encounter.js")).then((m) => m.mountAll()).catch((err) => {
      console.warn("Tableside encounter:", err);
    });
  }
  if (document.querySelector(".ts-player-view:not([data-ts-pv])")) { // issue 27: no Python there
    verifiedModules(["./player-view.js", "./share-link.mjs"].map((u) => new URL(u, import.meta.url)))
      .then(() => import("./player-view.js")).then((m) => m.mountAll()).catch((err) => {
        console.warn("Tableside player view:", err);
      });
  }
}

const doc$ = /** @type {any} */ (window).document$;
if (doc$ && typeof doc$.subscribe === "function") doc$.subscribe(() => onPage());
else if (document.readyState === "loading") addEventListener("DOMContentLoaded", onPage);
else onPage();
