// @ts-check
// The encounter tracker's forms around the turn order: the players' own rolls, asked when
// the rules call for them (#25 item 2); initiative under the table's control (item 1);
// adding combatants, a crowd at once (item 7). Each builds events; Python checks them.

import { h, uid } from "../dom.mjs";
import { plural } from "./view.js";

/**
 * @typedef {import("./view.js").State} State
 * @typedef {import("./view.js").Sheet} Sheet
 * @typedef {import("./view.js").EncEvent} EncEvent
 * @typedef {import("./store.js").Preset} Preset
 */

/**
 * "V: Death Save, enter your d10 or Roll": one form per roll waiting for a player.
 * @param {State} state
 * @param {{push: (e: EncEvent) => any, seed: () => number, say: (t: string) => void}} act
 */
export function askForms(state, act) {
  const { push, seed } = act;
  const asks = state.asks || [];
  // a crowd's rolls at once (the GM's own combatants): each rolled here, in sight
  const all = asks.length > 1 ? h("button", { type: "button", class: "md-button ts-enc-rollall",
    text: `Roll the ${asks.length} waiting here`,
    onclick: async () => {
      for (const a of asks) await push({ type: "answer", target: a.id, name: a.name, seed: seed() });
    } }) : null;
  return [...asks.map((a) => {
    const who = state.combatants.find((c) => c.id === a.id)?.name || "?";
    const id = uid("ask");
    const die = a.count > 1 ? `${a.count}d${a.sides}` : `d${a.sides}`;
    const form = h("form", { class: "ts-enc-ask", "aria-label": `${who}: ${a.name}`,
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const raw = /** @type {HTMLInputElement} */ (form.elements.namedItem("faces")).value.trim();
        const faces = raw.split(/[\s,]+/).filter(Boolean);
        // as many dice as the roll has, each a face of the die (the rules check it again)
        if (faces.length !== a.count
          || !faces.every((x) => /^\d{1,3}$/.test(x) && Number(x) >= 1 && Number(x) <= a.sides)) {
          const each = a.count > 1 ? `${a.count} dice, each 1 to ${a.sides}` : `1 to ${a.sides}`;
          act.say(`${who}'s ${a.name}: enter the ${die} as rolled, ${each} (got “${raw.slice(0, 12)}”).`);
          return;
        }
        push({ type: "answer", target: a.id, name: a.name, faces: faces.map(Number) });
      } },
    h("p", { class: "ts-enc-says", text: a.says }),
    h("label", { for: id, text: `${who}: ${a.name}, enter your ${die}` }),
    h("input", { id, name: "faces", type: "text", inputmode: "numeric", maxlength: 20, autocomplete: "off",
      required: true }),
    h("button", { type: "submit", class: "md-button md-button--primary", text: "Enter" }),
    h("button", { type: "button", class: "md-button", text: "Roll",
      "aria-label": `Roll ${who}'s ${a.name} here`,
      onclick: () => push({ type: "answer", target: a.id, name: a.name, seed: seed() }) }));
    return form;
  }), ...(all ? [all] : [])];
}

/**
 * Initiative under the table's control: typed (a number, or a card in Forbidden Lands),
 * rolled for those without (a late joiner) or for all (asked first once the fight has
 * begun), Surprise where the game has it, cards exchanged.
 * @param {Sheet} sheet @param {State} state
 * @param {{push: (e: EncEvent) => Promise<void>, pushAll: (es: EncEvent[]) => Promise<void>,
 *   seed: () => number, say: (t: string) => void}} act
 */
export function initiativePanel(sheet, state, act) {
  const what = sheet.cards ? "Card" : "Initiative";
  const rows = state.combatants.map((c) => {
    const id = uid("init");
    const sid = uid("surprise");
    return h("div", { class: "ts-enc-initrow", "data-id": c.id },
      h("label", { for: id, text: `${what} of ${c.name}` }),
      h("input", { id, name: `init-${c.id}`, type: "text", inputmode: "numeric", maxlength: 3,
        value: c.initiative === null ? "" : String(c.initiative), autocomplete: "off" }),
      sheet.surprise && !state.round ? h("label", { class: "ts-check", for: sid },
        h("input", { type: "checkbox", id: sid, name: `surprise-${c.id}` }), h("span", { text: "Surprise" })) : null);
  });
  const form = h("form", { class: "ts-enc-initform", "aria-label": "Initiative",
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      /** @type {EncEvent[]} */
      const typed = [];
      for (const c of state.combatants) { // every typed value, checked before any is set
        const raw = /** @type {HTMLInputElement} */ (form.elements.namedItem(`init-${c.id}`)).value.trim();
        if (raw === "" || raw === String(c.initiative)) continue;
        if (!/^-?\d{1,3}$/.test(raw)) {
          act.say(`${what} of ${c.name}: enter a whole number (got “${raw.slice(0, 12)}”).`);
          return;
        }
        typed.push({ type: "set_initiative", id: c.id, value: Number(raw) });
      }
      // all or none: a card out of the deck or already held refuses the lot, naming whose
      // (a fight half set up, the rest silently left blank, would start without them).
      // Set in turn order, ties as they joined: while the order is set up the top acts
      // first, and the last one set, once everyone has one, keeps the turn where it is
      // (order.py), so it must not be one who acts before the others.
      const joined = state.combatants.map((c) => c.id);
      const rank = (/** @type {any} */ e) => (sheet.lowest_first ? e.value : -e.value);
      typed.sort((a, b) => rank(a) - rank(b) || joined.indexOf(a.id) - joined.indexOf(b.id));
      await act.pushAll(typed);
    } });
  const surprise = () => state.combatants.filter((c) => /** @type {HTMLInputElement | null} */ (
    form.elements.namedItem(`surprise-${c.id}`))?.checked).map((c) => c.id);
  const missing = state.combatants.filter((c) => c.initiative === null).length;
  const rollAll = () => {
    if (state.round && !confirm(`Roll initiative again for everyone? ${sheet.cards
      ? "Every card is drawn again and the" : "The"} turn order starts over from the top.`)) return;
    act.push({ type: "initiative", seed: act.seed(), surprise: surprise(), ask: true });
  };
  form.append(...rows, h("div", { class: "ts-enc-initbtns" },
    h("button", { type: "submit", class: "md-button", text: `Set typed ${sheet.cards ? "cards" : "initiatives"}` }),
    state.round && missing ? h("button", { type: "button", class: "md-button md-button--primary",
      text: `Roll for those without (${missing})`,
      onclick: () => act.push({ type: "initiative", seed: act.seed(), surprise: surprise(), only_missing: true,
        ask: true }) }) : null,
    h("button", { type: "button", class: `md-button${state.round ? "" : " md-button--primary"}`,
      text: state.round ? "Roll for all…" : "Roll initiative", onclick: rollAll })));
  if (!sheet.cards) form.append(...groups(state, act.pushAll));
  if (sheet.cards && state.round) form.append(exchange(state, act.push));
  if (sheet.surprise && !state.round) form.append(h("p", { class: "ts-enc-rule", text: sheet.surprise }));
  return form;
}

/**
 * A crowd shares one initiative (#25 item 7): "Thug 1–3 act on Thug 1's", one button per
 * numbered group whose first member has one (not with cards: one card each).
 * @param {State} state @param {(es: EncEvent[]) => any} pushAll
 */
function groups(state, pushAll) {
  /** @type {Map<string, import("./view.js").Fighter[]>} */
  const by = new Map();
  for (const c of state.combatants) {
    const m = /^(.*\S) (\d+)$/.exec(c.name);
    if (m) by.set(m[1], [...(by.get(m[1]) || []), c]);
  }
  // offered while it would change something: not once the crowd shares it already
  return [...by].filter(([, cs]) => cs.length > 1 && cs[0].initiative !== null
    && cs.some((c) => c.initiative !== cs[0].initiative)).map(([base, cs]) => {
    const [lead, ...rest] = cs;
    return h("button", { type: "button", class: "md-button ts-enc-group",
      text: `${base} ${lead.name.slice(base.length + 1)}–${rest[rest.length - 1].name.slice(base.length + 1)} act on ${lead.initiative}`,
      onclick: () => pushAll(rest.filter((c) => c.initiative !== lead.initiative)
        .map((c) => ({ type: "set_initiative", id: c.id, value: lead.initiative }))) });
  });
}

/** Two combatants exchange their cards (FL:10). @param {State} state @param {(e: EncEvent) => any} push */
function exchange(state, push) {
  const a = uid("swap-a");
  const b = uid("swap-b");
  const opts = () => state.combatants.filter((c) => c.initiative !== null)
    .map((c) => h("option", { value: c.id, text: `${c.name} (${c.initiative})` }));
  const box = h("div", { class: "ts-enc-swap", role: "group", "aria-label": "Exchange cards" },
    h("label", { for: a, text: "Exchange" }), h("select", { id: a }, opts()),
    h("label", { for: b, text: "with" }), h("select", { id: b }, opts()),
    h("button", { type: "button", class: "md-button", text: "Exchange cards",
      onclick: () => push({ type: "swap_initiative",
        id: /** @type {HTMLSelectElement} */ (box.querySelector(`#${a}`)).value,
        other: /** @type {HTMLSelectElement} */ (box.querySelector(`#${b}`)).value }) }));
  return box;
}

/**
 * The form to add combatants (the sheet's numbers with their defaults), N copies at once:
 * "Thug 1", "Thug 2", … (#25 item 7), numbered after those already in the fight.
 * @param {Sheet} sheet @param {Preset[]} presets @param {State} state
 * @param {(p: Preset, save: boolean, copies: number) => void} onAdd
 */
export function addForm(sheet, presets, state, onAdd) {
  const name = uid("name");
  const kind = uid("kind");
  const save = uid("save");
  const copies = uid("copies");
  const fields = sheet.stats.map((s) => {
    const id = uid(s.key);
    return h("div", { class: "ts-field ts-int", "data-kinds": (s.kinds || []).join(" ") || null },
      h("label", { for: id, text: s.label }),
      h("input", { id, name: s.key, type: "text", inputmode: "numeric", maxlength: 5,
        value: String(s.default), autocomplete: "off", title: s.source }));
  });
  const count = () => {
    const raw = /** @type {HTMLInputElement} */ (form.elements.namedItem("copies")).value.trim() || "1";
    return /^\d{1,2}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 20 ? Number(raw) : 0;
  };
  const msg = h("p", { class: "ts-enc-formmsg", role: "alert" });
  const form = h("form", { class: "ts-enc-addform", "aria-label": "Add a combatant",
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      msg.textContent = "";
      const el = (/** @type {string} */ n) => /** @type {HTMLInputElement} */ (form.elements.namedItem(n));
      /** @type {[string, number][]} */
      const values = [];
      for (const s of sheet.stats) {
        if (/** @type {HTMLElement} */ (el(s.key).closest(".ts-field")).hidden) continue;
        const raw = el(s.key).value.trim();
        if (!/^-?\d{1,5}$/.test(raw)) {
          msg.textContent = `${s.label}: enter a whole number (got “${raw.slice(0, 12)}”).`;
          el(s.key).focus();
          return;
        }
        if (Number(raw) !== s.default) values.push([s.key, Number(raw)]);
      }
      const n = count();
      if (!n) { msg.textContent = "Copies: 1 to 20."; return; }
      onAdd({ name: el("name").value.trim() || "Combatant", kind: el("kind").value, values },
        el("save").checked, n);
    } },
  h("div", { class: "ts-field" }, h("label", { for: name, text: "Name" }),
    h("input", { id: name, name: "name", type: "text", maxlength: 50, autocomplete: "off" })),
  h("div", { class: "ts-field" }, h("label", { for: kind, text: "Kind" }),
    h("select", { id: kind, name: "kind" }, sheet.kinds.map((k) => h("option", { value: k, text: k })))),
  h("div", { class: "ts-field" }, h("label", { for: copies, text: "Copies" }),
    h("input", { id: copies, name: "copies", type: "text", inputmode: "numeric", maxlength: 2, value: "1",
      autocomplete: "off" })),
  h("div", { class: "ts-fields" }, fields),
  h("label", { class: "ts-check", for: save }, h("input", { type: "checkbox", id: save, name: "save" }),
    h("span", { text: "Also save as a preset for the next fight" })),
  msg,
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
      onclick: () => { const n = count(); if (n) onAdd(presets[Number(presetSel.value)], false, n); } })) : null;
  const existing = state.combatants.length;
  return h("div", {}, fromPreset, form,
    existing ? h("p", { class: "ts-enc-rule", text: `${plural(existing, "combatant")} in this fight.` }) : null);
}

/**
 * The names N copies get: "Thug" alone stays "Thug" unless it is taken; several are
 * numbered after the highest "Thug <n>" already in the fight.
 * @param {string} name @param {number} n @param {string[]} taken
 */
export function numbered(name, n, taken) {
  const base = name.replace(/\s+\d+$/, "");
  const used = taken.filter((t) => t === base || t.startsWith(`${base} `))
    .map((t) => (t === base ? 1 : Number(t.slice(base.length + 1)) || 0));
  if (n === 1 && !taken.includes(name)) return [name];
  const start = used.length ? Math.max(...used) + 1 : 1;
  return Array.from({ length: n }, (_, i) => `${base} ${start + i}`);
}

/** The values typed in a box's form fields, by name (and which one has the focus).
 * @param {HTMLElement} box @returns {[string, string | boolean, boolean][]} */
export function typedIn(box) {
  const form = box.querySelector("form");
  if (!form) return [];
  return [...form.elements].flatMap((e) => {
    const f = /** @type {HTMLInputElement} */ (e);
    if (!f.name || f.type === "submit" || f.type === "button") return [];
    return [[f.name, f.type === "checkbox" ? f.checked : f.value, f === document.activeElement]];
  });
}

/** Put typed values back into the form drawn again. @param {HTMLElement} box
 * @param {[string, string | boolean, boolean][]} typed */
export function typeIn(box, typed) {
  const form = box.querySelector("form");
  for (const [name, value, focused] of typed) {
    const f = /** @type {HTMLInputElement | null} */ (form?.elements.namedItem(name) || null);
    if (!f || !("value" in f)) continue;
    if (typeof value === "boolean") f.checked = value;
    else f.value = value;
    if (focused) f.focus();
  }
}
