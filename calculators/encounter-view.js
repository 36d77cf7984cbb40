// @ts-check
// The encounter tracker's rendering: the folded state (from Python) as DOM. Nothing here
// computes a rule; it shows what rules_pkg.encounter.view.state_dict gives.

import { h, uid } from "./dom.mjs";

/**
 * @typedef {{key: string, label: string, value: number, lo: number, hi: number, tracked: boolean}} Value
 * @typedef {{name: string, rounds: number | null, level: string}} Cond
 * @typedef {{id: string, name: string, kind: string, initiative: number | null, values: Value[],
 *   conditions: Cond[], injuries: string[], status: string[]}} Fighter
 * @typedef {{event: number, round: number, summary: string, steps: string[], notes: string[]}} Entry
 * @typedef {{game: string, round: number, turn: number, current: string | null, order: string[],
 *   combatants: Fighter[], history: Entry[], history_total?: number}} State
 * @typedef {{key: string, label: string, default: number, lo: number, hi: number | string,
 *   tracked: boolean, source: string, kinds?: string[]}} Stat
 * @typedef {{name: string, effect: string, rounds: number | null, levels: string[]}} CondDef
 * @typedef {{game: string, title: string, stats: Stat[], conditions: CondDef[], kinds: string[],
 *   initiative: string, hit: string, notes: string[]}} Sheet
 */


/** @param {Cond} c */
export function condText(c) {
  const name = c.level ? `${c.name} (${c.level})` : c.name;
  return c.rounds === null ? name : `${name}, ${c.rounds} rd left`;
}

/** @param {State} state */
export function roundLine(state) {
  if (!state.combatants.length) return "No combatants yet: add them below.";
  if (!state.round) return `${state.combatants.length} combatant(s): roll initiative to start.`;
  const cur = state.combatants.find((c) => c.id === state.current);
  return `Round ${state.round} · ${cur ? `${cur.name}'s turn` : "—"}`;
}

/** @param {Fighter} c */
function brief(c) {
  return c.values.filter((v) => v.tracked).slice(0, 3).map((v) => `${v.label} ${v.value}`).join(" · ");
}

/** @param {State} state @param {string | null} selected @param {(id: string) => void} onSelect */
export function orderList(state, selected, onSelect) {
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  const ids = state.order.length ? [...state.order,
    ...state.combatants.map((c) => c.id).filter((i) => !state.order.includes(i))]
    : state.combatants.map((c) => c.id);
  return h("ol", { class: "ts-enc-order", "aria-label": "Turn order" }, ids.map((id) => {
    const c = /** @type {Fighter} */ (byId.get(id));
    const current = id === state.current;
    return h("li", { class: `ts-enc-row${current ? " ts-current" : ""}${id === selected ? " ts-selected" : ""}`,
      "aria-current": current ? "true" : null, "data-id": id },
    h("button", { type: "button", class: "ts-enc-who", "aria-pressed": String(id === selected),
      onclick: () => onSelect(id) },
    h("span", { class: "ts-enc-init", text: c.initiative === null ? "–" : String(c.initiative) }),
    h("span", { class: "ts-enc-name", text: c.name }),
    h("span", { class: "ts-enc-brief", text: brief(c) })),
    c.status.length || c.conditions.length ? h("ul", { class: "ts-enc-chips" },
      c.status.map((s) => h("li", { class: "ts-chip ts-chip-status", text: s })),
      c.conditions.map((x) => h("li", { class: "ts-chip", text: condText(x) }))) : null);
  }));
}

/**
 * The chosen combatant's numbers and what can be done to them.
 * @param {Sheet} sheet @param {Fighter} c
 * @param {{push: (e: import("./encounter-store.js").EncEvent) => void, remove: () => void}} act
 */
export function card(sheet, c, act) {
  const dmg = uid("dmg");
  const loc = uid("loc");
  const locations = sheet.game === "cyberpunk_red" ? ["body", "head"]
    : sheet.game === "forbidden_lands" ? ["strength", "agility", "wits", "empathy"] : [];
  const opts = sheet.game === "horizon" ? [["bypass", "Ignores Defense"]]
    : sheet.game === "cyberpunk_red" ? [["melee", "Melee"], ["critical", "Critical Injury"],
      ["bypass", "Direct to HP"]]
      : [["bypass", sheet.game === "mecha" ? "Armour already rolled" : "Ignores armour"]];
  const checks = opts.map(([k, label]) => {
    const id = uid(k);
    return h("label", { class: "ts-check", for: id }, h("input", { type: "checkbox", id, name: k }),
      h("span", { text: label }));
  });
  const hitForm = h("form", { class: "ts-enc-hit", "aria-label": `Hit ${c.name}`,
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const f = /** @type {HTMLFormElement} */ (e.target);
      const n = Number.parseInt(/** @type {HTMLInputElement} */ (f.elements.namedItem("damage")).value, 10);
      if (Number.isNaN(n) || n < 0) return;
      /** @type {import("./encounter-store.js").EncEvent} */
      const ev = { type: "hit", target: c.id, damage: n, seed: crypto.getRandomValues(new Uint32Array(1))[0] };
      const where = /** @type {HTMLSelectElement | null} */ (f.elements.namedItem("location"));
      if (where) ev.location = where.value;
      for (const [k] of opts) ev[k] = /** @type {HTMLInputElement} */ (f.elements.namedItem(k)).checked;
      act.push(ev);
    } },
  h("label", { for: dmg, text: "Damage" }),
  h("input", { id: dmg, name: "damage", type: "text", inputmode: "numeric", value: "0", maxlength: 4,
    autocomplete: "off" }),
  locations.length ? [h("label", { for: loc, text: "to" }), h("select", { id: loc, name: "location" },
    locations.map((l) => h("option", { value: l, text: l })))] : null,
  checks, h("button", { type: "submit", class: "md-button md-button--primary", text: "Hit" }));

  const cname = uid("cond");
  const crounds = uid("rounds");
  const clevel = uid("level");
  const levelSel = h("select", { id: clevel, name: "level" });
  const condSel = h("select", { id: cname, name: "name" },
    sheet.conditions.map((d) => h("option", { value: d.name, text: d.name })));
  const levels = () => {
    const d = sheet.conditions.find((x) => x.name === condSel.value);
    levelSel.replaceChildren(...(d?.levels || []).map((l) => h("option", { value: l, text: l })));
    levelSel.hidden = !d?.levels.length;
    levelSel.previousElementSibling?.toggleAttribute("hidden", !d?.levels.length);
  };
  condSel.addEventListener("change", levels);
  const condForm = h("form", { class: "ts-enc-condform", "aria-label": `Set a condition on ${c.name}`,
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const r = Number.parseInt(/** @type {HTMLInputElement} */ (condForm.elements.namedItem("rounds")).value, 10);
      act.push({ type: "condition", target: c.id, name: condSel.value,
        rounds: Number.isNaN(r) || r < 1 ? null : r, level: levelSel.hidden ? "" : levelSel.value });
    } },
  h("label", { for: cname, text: "Condition" }), condSel,
  h("label", { for: clevel, text: "Level" }), levelSel,
  h("label", { for: crounds, text: "Rounds (blank: until cleared)" }),
  h("input", { id: crounds, name: "rounds", type: "text", inputmode: "numeric", maxlength: 3, autocomplete: "off" }),
  h("button", { type: "submit", class: "md-button", text: "Set" }));
  levels();

  return h("section", { class: "ts-enc-card", "aria-label": `${c.name}'s numbers` },
    h("h3", { class: "ts-enc-cardname", text: c.name }),
    c.status.length ? h("p", { class: "ts-enc-status", text: c.status.join(", ") }) : null,
    h("dl", { class: "ts-enc-values" }, c.values.filter((v) => v.tracked).map((v) =>
      h("div", { class: "ts-enc-value" },
        h("dt", { text: v.label }),
        h("dd", {},
          h("button", { type: "button", class: "ts-step", "aria-label": `${v.label} −1`, text: "−",
            onclick: () => act.push({ type: "adjust", target: c.id, key: v.key, delta: -1 }) }),
          h("span", { class: "ts-enc-num", text: String(v.value) }),
          h("span", { class: "ts-enc-range", text: `/${v.hi}` }),
          h("button", { type: "button", class: "ts-step", "aria-label": `${v.label} +1`, text: "+",
            onclick: () => act.push({ type: "adjust", target: c.id, key: v.key, delta: 1 }) }))))),
    c.conditions.length ? h("ul", { class: "ts-enc-conds", "aria-label": "Conditions" },
      c.conditions.map((x) => h("li", {}, h("span", { text: condText(x) }),
        h("button", { type: "button", class: "ts-link", text: "Clear",
          "aria-label": `Clear ${x.name}`,
          onclick: () => act.push({ type: "clear", target: c.id, name: x.name }) })))) : null,
    c.injuries.length ? h("p", { class: "ts-enc-injuries", text: `Injuries: ${c.injuries.join(", ")}` }) : null,
    hitForm, condForm,
    h("button", { type: "button", class: "ts-link ts-enc-remove", text: `Remove ${c.name} from the fight`,
      onclick: act.remove }));
}

/** @param {State} state */
export function historyList(state) {
  // a long fight's reply carries only its newest entries: numbered as in the whole history
  return h("ol", { class: "ts-enc-history", reversed: true, start: state.history_total ?? null },
    [...state.history].reverse().map((e) => h("li", {},
      h("span", { class: "ts-enc-hround", text: e.round ? `R${e.round}` : "—" }), " ",
      h("strong", { text: e.summary }),
      e.steps.length ? h("ul", { class: "ts-steps" }, e.steps.map((s) => h("li", { text: s }))) : null,
      e.notes.length ? h("ul", { class: "ts-notes" }, e.notes.map((s) => h("li", { text: s }))) : null)));
}

/**
 * The form to add a combatant (the sheet's numbers with their defaults).
 * @param {Sheet} sheet @param {import("./encounter-store.js").Preset[]} presets
 * @param {(p: import("./encounter-store.js").Preset, save: boolean) => void} onAdd
 */
export function addForm(sheet, presets, onAdd) {
  const name = uid("name");
  const kind = uid("kind");
  const save = uid("save");
  const fields = sheet.stats.map((s) => {
    const id = uid(s.key);
    return h("div", { class: "ts-field ts-int", "data-kinds": (s.kinds || []).join(" ") || null },
      h("label", { for: id, text: s.label }),
      h("input", { id, name: s.key, type: "text", inputmode: "numeric", maxlength: 5,
        value: String(s.default), autocomplete: "off", title: s.source }));
  });
  const form = h("form", { class: "ts-enc-addform", "aria-label": "Add a combatant",
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const el = (/** @type {string} */ n) => /** @type {HTMLInputElement} */ (form.elements.namedItem(n));
      /** @type {[string, number][]} */
      const values = [];
      for (const s of sheet.stats) {
        const v = Number.parseInt(el(s.key).value, 10);
        if (!Number.isNaN(v) && v !== s.default) values.push([s.key, v]);
      }
      onAdd({ name: el("name").value.trim() || "Combatant", kind: el("kind").value, values },
        el("save").checked);
    } },
  h("div", { class: "ts-field" }, h("label", { for: name, text: "Name" }),
    h("input", { id: name, name: "name", type: "text", maxlength: 60, autocomplete: "off" })),
  h("div", { class: "ts-field" }, h("label", { for: kind, text: "Kind" }),
    h("select", { id: kind, name: "kind" }, sheet.kinds.map((k) => h("option", { value: k, text: k })))),
  h("div", { class: "ts-fields" }, fields),
  h("label", { class: "ts-check", for: save }, h("input", { type: "checkbox", id: save, name: "save" }),
    h("span", { text: "Also save as a preset for the next fight" })),
  h("button", { type: "submit", class: "md-button md-button--primary", text: "Add to the fight" }));
  const kindSel = /** @type {HTMLSelectElement} */ (form.elements.namedItem("kind"));
  const showKind = () => { // a horde carries magnitude, a character wounds (the sheet says)
    for (const f of form.querySelectorAll("[data-kinds]")) {
      /** @type {HTMLElement} */ (f).hidden = !(/** @type {HTMLElement} */ (f).dataset.kinds || "")
        .split(" ").includes(kindSel.value);
    }
  };
  kindSel.addEventListener("change", showKind);
  showKind();
  const pid = uid("preset");
  const presetSel = h("select", { id: pid }, presets.map((p, i) => h("option", { value: String(i), text: p.name })));
  const fromPreset = presets.length ? h("div", { class: "ts-enc-presets" },
    h("label", { for: pid, text: "Preset" }), presetSel,
    h("button", { type: "button", class: "md-button", text: "Add from preset",
      onclick: () => onAdd(presets[Number(presetSel.value)], false) })) : null;
  return h("div", {}, fromPreset, form);
}
