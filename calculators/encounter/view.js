// @ts-check
// The encounter tracker's rendering: the folded state (from Python) as DOM. Nothing here
// computes a rule; it shows what rules_pkg.encounter.view.state_dict gives. On a phone the
// whole turn order fits one screen (#25 item 6): a compact row each, the chosen one's
// actions opening under its row.

import { h, uid } from "../dom.mjs";

/**
 * @typedef {{key: string, label: string, value: number, lo: number, hi: number, full: boolean,
 *   tracked: boolean}} Value
 * @typedef {{name: string, rounds: number | null, level: string, costs?: string}} Cond
 * @typedef {{id: string, name: string, kind: string, initiative: number | null, values: Value[],
 *   conditions: Cond[], injuries: string[], status: string[], out: string, main: string,
 *   wound: string, actions?: number | null}} Fighter
 * @typedef {{id: string, name: string, sides: number, count: number, says: string}} Ask
 * @typedef {{event: number, round: number, summary: string, steps: string[], notes: string[],
 *   eid?: string}} Entry
 * @typedef {{game: string, round: number, turn: number, current: string | null, order: string[],
 *   combatants: Fighter[], asks: Ask[], history: Entry[], history_total?: number,
 *   pass?: number, passes?: number}} State
 * @typedef {{key: string, label: string, default: number, lo: number, hi: number | string,
 *   tracked: boolean, source: string, kinds?: string[]}} Stat
 * @typedef {{name: string, effect: string, rounds: number | null, levels: string[],
 *   loses_turn?: boolean}} CondDef
 * @typedef {{game: string, title: string, stats: Stat[], conditions: CondDef[], kinds: string[],
 *   initiative: string, hit: string, notes: string[], cards: number, surprise: string,
 *   lowest_first: boolean}} Sheet
 * @typedef {import("./store.js").EncEvent} EncEvent
 */

/** "2 turns left": a duration counts its bearer's own turns. @param {Cond} c */
export function condText(c) {
  const name = c.level ? `${c.name} (${c.level})` : c.name;
  if (c.rounds === null) return name;
  return `${name}, ${c.rounds} turn${c.rounds === 1 ? "" : "s"} left`;
}

/** @param {State} state */
export function roundLine(state) {
  if (!state.combatants.length) return "No combatants yet: add them below.";
  if (!state.round) return `${plural(state.combatants.length, "combatant")}: roll or type initiative to start.`;
  const cur = state.combatants.find((c) => c.id === state.current);
  // the mecha game's passes: a second and a third action, in the same order
  const pass = (state.passes || 1) > 1 ? ` · Pass ${state.pass} of ${state.passes}` : "";
  return `Round ${state.round}${pass} · ${cur ? `${cur.name}'s turn` : "—"}`;
}

/** @param {number} n @param {string} word */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The value as read at a glance: "HP 35/40" when it has a real maximum. @param {Value} v */
function valueText(v) {
  return v.full ? `${v.label} ${v.value}/${v.hi}` : `${v.label} ${v.value}`;
}

/** The tracked numbers, the main one first (the others are left out on a phone); a count
 * with no maximum is left out at 0 ("Actions lost 0" on every row says nothing).
 * @param {Fighter} c */
function brief(c) {
  const tracked = c.values.filter((v) => v.tracked);
  const main = tracked.find((v) => v.key === c.main) || tracked[0];
  const rest = tracked.filter((v) => v !== main && (v.full || v.value !== 0)).slice(0, 2);
  return h("span", { class: "ts-enc-brief" },
    main ? h("span", { class: "ts-enc-main", text: valueText(main) }) : null,
    rest.length ? h("span", { class: "ts-enc-rest", text: ` · ${rest.map(valueText).join(" · ")}` }) : null);
}

const WOUND_ICON = { out: "✖", bad: "▲", hurt: "●", ok: "" };

/** The word and icon of how a combatant stands: out of the fight, or its wound state.
 * @param {Fighter} c */
export function woundWord(c) {
  if (c.out) return `Out: ${c.out}`;
  return c.status.join(", ");
}

/**
 * The turn order, every combatant on one line or two; the chosen one's actions open under
 * its row (`cardOf`), so the order stays in view.
 * @param {State} state @param {string | null} selected @param {(id: string) => void} onSelect
 * @param {(c: Fighter) => HTMLElement | null} cardOf
 */
export function orderList(state, selected, onSelect, cardOf) {
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  const ids = state.order.length ? [...state.order,
    ...state.combatants.map((c) => c.id).filter((i) => !state.order.includes(i))]
    : state.combatants.map((c) => c.id);
  return h("ol", { class: "ts-enc-order", "aria-label": "Turn order" }, ids.map((id) => {
    const c = /** @type {Fighter} */ (byId.get(id));
    const current = id === state.current;
    const word = woundWord(c);
    return h("li", { class: `ts-enc-row${current ? " ts-current" : ""}${id === selected ? " ts-selected" : ""}`
      + `${c.out ? " ts-out" : ""}`, "aria-current": current ? "true" : null, "data-id": id,
    "data-wound": c.wound },
    h("button", { type: "button", class: "ts-enc-who", "aria-expanded": String(id === selected),
      onclick: () => onSelect(id) },
    h("span", { class: "ts-enc-init", text: c.initiative === null ? "–" : String(c.initiative),
      title: "Initiative" }),
    h("span", { class: "ts-enc-name", text: c.name }),
    word ? h("span", { class: "ts-enc-wound", "data-wound": c.wound },
      h("span", { class: "ts-enc-icon", "aria-hidden": "true", text: WOUND_ICON[/** @type {"ok"} */ (c.wound)] || "" }),
      h("span", { text: word })) : null,
    brief(c),
    passText(state, c)),
    c.conditions.length ? h("ul", { class: "ts-enc-chips", "aria-label": `${c.name}'s conditions` },
      c.conditions.map((x) => h("li", { class: "ts-chip" }, condText(x),
        // what it costs this turn, beside its name (Horizon Stagger "−1 action")
        x.costs ? h("span", { class: "ts-enc-cost", text: ` · ${x.costs}` }) : null))) : null,
    id === selected ? cardOf(c) : null);
  }));
}

/** "Action 2 of 3", or "Done: 1 action" once this pass is past its actions (the mecha
 * game's passes); nothing where everyone has one turn a round.
 * @param {State} state @param {Fighter} c */
function passText(state, c) {
  if ((state.passes || 1) < 2 || !c.actions || !state.round) return null;
  const pass = state.pass || 1;
  return h("span", { class: "ts-enc-pass", "data-acts": String(c.actions >= pass),
    text: c.actions >= pass ? `action ${pass} of ${c.actions}` : `done: ${plural(c.actions, "action")}` });
}

/**
 * The chosen combatant's numbers and what can be done to them: damage, heal, a number
 * typed, conditions, its place in the order, out of the fight or back, a note.
 * @param {Sheet} sheet @param {State} state @param {Fighter} c
 * @param {{push: (e: EncEvent) => void, remove: () => void, say: (text: string) => void,
 *   seed: () => number}} act
 */
export function card(sheet, state, c, act) {
  const dmg = uid("dmg");
  const loc = uid("loc");
  const locations = sheet.game === "cyberpunk_red" ? ["body", "head"]
    : sheet.game === "forbidden_lands" ? ["strength", "agility", "wits", "empathy"] : [];
  const opts = sheet.game === "horizon" ? [["bypass", "Ignores Defense"]]
    : sheet.game === "cyberpunk_red" ? [["melee", "Melee"], ["critical", "Critical Injury"],
      ["bypass", "Direct to HP"]]
      : [["bypass", sheet.game === "mecha" ? "Armour already rolled" : "Ignores armour"]];
  // the armour save is the player's roll (#25 item 2): typed here, or rolled by the page
  const armourDice = sheet.game === "forbidden_lands" || sheet.game === "mecha";
  const checks = opts.map(([k, label]) => {
    const id = uid(k);
    return h("label", { class: "ts-check", for: id }, h("input", { type: "checkbox", id, name: k }),
      h("span", { text: label }));
  });
  const main = c.values.find((v) => v.key === c.main);
  /** The damage field's number, or a message naming the field (#25 item 8). @param {HTMLFormElement} f */
  const amount = (f) => {
    const raw = /** @type {HTMLInputElement} */ (f.elements.namedItem("damage")).value.trim();
    if (!/^\d{1,3}$/.test(raw)) {
      act.say(`Damage: enter a whole number from 0 to 999 (got “${raw.slice(0, 12)}”).`);
      return null;
    }
    return Number(raw);
  };
  const hitForm = h("form", { class: "ts-enc-hit", "aria-label": `Hit ${c.name}`,
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const f = /** @type {HTMLFormElement} */ (e.target);
      const n = amount(f);
      if (n === null) return;
      /** @type {EncEvent} */
      const ev = { type: "hit", target: c.id, damage: n, seed: act.seed() };
      const where = /** @type {HTMLSelectElement | null} */ (f.elements.namedItem("location"));
      if (where) ev.location = where.value;
      for (const [k] of opts) ev[k] = /** @type {HTMLInputElement} */ (f.elements.namedItem(k)).checked;
      const typed = /** @type {HTMLInputElement | null} */ (f.elements.namedItem("armour_dice"));
      if (typed && typed.value.trim()) {
        const faces = typed.value.trim().split(/[\s,]+/);
        if (!faces.every((x) => /^\d{1,2}$/.test(x))) {
          act.say(`Armour dice: the faces as rolled, e.g. 6 1 3 (got “${typed.value.trim().slice(0, 20)}”).`);
          return;
        }
        ev.dice = faces.map(Number);
      }
      act.push(ev);
    } },
  h("label", { for: dmg, text: "Damage" }),
  h("input", { id: dmg, name: "damage", type: "text", inputmode: "numeric", value: "0", maxlength: 4,
    autocomplete: "off" }),
  locations.length ? [h("label", { for: loc, text: "to" }), h("select", { id: loc, name: "location" },
    locations.map((l) => h("option", { value: l, text: l })))] : null,
  checks,
  armourDice ? armourField() : null,
  h("button", { type: "submit", class: "md-button md-button--primary", text: "Hit" }),
  main ? h("button", { type: "button", class: "md-button", text: "Heal",
    onclick: (/** @type {Event} */ e) => {
      const n = amount(/** @type {HTMLFormElement} */ (/** @type {HTMLElement} */ (e.target).closest("form")));
      if (n !== null) act.push({ type: "adjust", target: c.id, key: main.key, delta: n, reason: "healed" });
    } }) : null);

  const cname = uid("cond");
  const crounds = uid("rounds");
  const clevel = uid("level");
  const levelSel = h("select", { id: clevel, name: "level" });
  const condSel = h("select", { id: cname, name: "name" },
    sheet.conditions.map((d) => h("option", { value: d.name, text: d.name })),
    h("option", { value: "", text: "Other (your own)…" }));
  const oname = uid("own");
  const own = h("span", { class: "ts-enc-own", hidden: true },
    h("label", { for: oname, text: "Its name" }),
    h("input", { id: oname, name: "own", type: "text", maxlength: 40, autocomplete: "off" }));
  const levels = () => {
    const d = sheet.conditions.find((x) => x.name === condSel.value);
    levelSel.replaceChildren(...(d?.levels || []).map((l) => h("option", { value: l, text: l })));
    levelSel.hidden = !d?.levels.length;
    levelSel.previousElementSibling?.toggleAttribute("hidden", !d?.levels.length);
    own.hidden = condSel.value !== "";
  };
  condSel.addEventListener("change", levels);
  const condForm = h("form", { class: "ts-enc-condform", "aria-label": `Set a condition on ${c.name}`,
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const raw = /** @type {HTMLInputElement} */ (condForm.elements.namedItem("rounds")).value.trim();
      if (raw && !/^\d{1,3}$/.test(raw)) {
        act.say(`Turns: a whole number, or blank for until cleared (got “${raw.slice(0, 12)}”).`);
        return;
      }
      const mine = condSel.value === "";
      const name = mine ? /** @type {HTMLInputElement} */ (condForm.elements.namedItem("own")).value.trim()
        : condSel.value;
      if (!name) { act.say("Its name: write the condition's name (1 to 40 characters)."); return; }
      act.push({ type: "condition", target: c.id, name, ...(mine ? { custom: true } : {}),
        rounds: raw ? Number(raw) : null, level: levelSel.hidden ? "" : levelSel.value });
    } },
  h("label", { for: cname, text: "Condition" }), condSel, own,
  h("label", { for: clevel, text: "Level" }), levelSel,
  h("label", { for: crounds, text: `Turns of ${c.name}'s (blank: until cleared)` }),
  h("input", { id: crounds, name: "rounds", type: "text", inputmode: "numeric", maxlength: 3, autocomplete: "off" }),
  h("button", { type: "submit", class: "md-button", text: "Set" }));
  levels();

  const inOrder = state.order.includes(c.id);
  const here = state.order.indexOf(c.id);
  const holding = c.id === state.current;
  const note = uid("note");
  return h("section", { class: "ts-enc-card", "aria-label": `${c.name}'s numbers` },
    h("h3", { class: "ts-enc-cardname", text: c.name }),
    // the hit first: the action of nearly every tap, right under the row tapped
    hitForm,
    h("dl", { class: "ts-enc-values" }, c.values.filter((v) => v.tracked).map((v) => valueRow(c, v, act))),
    c.conditions.length ? h("ul", { class: "ts-enc-conds", "aria-label": "Conditions" },
      c.conditions.map((x) => h("li", {}, h("span", { text: condText(x) }),
        h("button", { type: "button", class: "ts-link", text: "Clear",
          "aria-label": `Clear ${x.name}`,
          onclick: () => act.push({ type: "clear", target: c.id, name: x.name }) })))) : null,
    c.injuries.length ? h("p", { class: "ts-enc-injuries", text: `Injuries: ${c.injuries.join(", ")}` }) : null,
    condForm,
    h("div", { class: "ts-enc-place", role: "group", "aria-label": `${c.name}'s place in the fight` },
      inOrder && state.round ? [
        h("button", { type: "button", class: "md-button", text: "Move earlier", disabled: here <= 0,
          onclick: () => act.push({ type: "move", id: c.id, by: -1 }) }),
        h("button", { type: "button", class: "md-button", text: holding ? "Hold turn (act later)" : "Move later",
          disabled: here >= state.order.length - 1,
          onclick: () => act.push({ type: "move", id: c.id, by: 1, seed: act.seed() }) }),
      ] : null,
      h("button", { type: "button", class: "md-button", text: c.out ? "Bring back into the fight" : "Take out of the fight",
        onclick: () => act.push({ type: "out", target: c.id, out: !c.out }) })),
    h("form", { class: "ts-enc-noteform", "aria-label": `A note about ${c.name}`,
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const f = /** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("note"));
        if (f.value.trim()) act.push({ type: "note", text: `${c.name}: ${f.value.trim()}`.slice(0, 200) });
      } },
    h("label", { for: note, text: "Note" }),
    h("input", { id: note, name: "note", type: "text", maxlength: 150, autocomplete: "off" }),
    h("button", { type: "submit", class: "md-button", text: "Add note" })),
    h("button", { type: "button", class: "ts-link ts-enc-remove", text: `Remove ${c.name} from the fight`,
      onclick: act.remove }));
}

function armourField() {
  const id = uid("armour");
  return h("span", { class: "ts-enc-armour" },
    h("label", { for: id, text: "Armour dice as rolled (blank: the page rolls)" }),
    h("input", { id, name: "armour_dice", type: "text", inputmode: "numeric", maxlength: 30,
      autocomplete: "off" }));
}

/**
 * One tracked number: −, the number (type to set it), +; "/40" only for a real maximum.
 * @param {Fighter} c @param {Value} v @param {{push: (e: EncEvent) => void, say: (t: string) => void}} act
 */
function valueRow(c, v, act) {
  const id = uid(v.key);
  const input = h("input", { id, class: "ts-enc-num", type: "text", inputmode: "numeric", maxlength: 5,
    value: String(v.value), autocomplete: "off", "aria-label": `${v.label} of ${c.name}` });
  input.addEventListener("change", () => {
    const raw = input.value.trim();
    if (!/^-?\d{1,5}$/.test(raw)) {
      act.say(`${v.label}: enter a whole number (got “${raw.slice(0, 12)}”).`);
      input.value = String(v.value);
      return;
    }
    if (Number(raw) !== v.value) act.push({ type: "set", target: c.id, key: v.key, value: Number(raw) });
  });
  return h("div", { class: "ts-enc-value" },
    h("dt", {}, h("label", { for: id, text: v.label })),
    h("dd", {},
      h("button", { type: "button", class: "ts-step", "aria-label": `${v.label} −1`, text: "−",
        onclick: () => act.push({ type: "adjust", target: c.id, key: v.key, delta: -1 }) }),
      input,
      v.full ? h("span", { class: "ts-enc-range", text: `/${v.hi}` }) : null,
      h("button", { type: "button", class: "ts-step", "aria-label": `${v.label} +1`, text: "+",
        onclick: () => act.push({ type: "adjust", target: c.id, key: v.key, delta: 1 }) })));
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
