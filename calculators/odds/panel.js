// @ts-check
// The odds before the roll, on the Encounter page (issue #28): choose the attacker, the
// attack and one or several targets; the engine (rules_pkg.takeout through the encounter
// API's "odds" op) answers, exactly, the chance to hit, what each target loses after its
// own armour, and the chance to take it out by the 1st, 2nd … Nth attack. Percentages, the
// exact fraction on a tap (forms/format.mjs); a small SVG chart drawn with classes only (the CSP
// allows no inline style). Python does every sum: this module only asks and draws.

import { h } from "../dom.mjs";
import { decimal, percent, valueNode } from "../forms/format.mjs";
import { sriFor } from "../python/integrity.mjs";

const CSS_URL = new URL("odds.css", import.meta.url).href;
const SVG = "http://www.w3.org/2000/svg";
const WAIT_MS = 120; // inputs typed in a row ask once
const KEPT = 24; // answers kept per state of the fight: a question asked again is answered at once

/** @typedef {{text: string, value: number}} Frac */
/** @typedef {{name: string, label: string, kind: string, default: any, min?: number,
 *   max?: number, choices?: string[][], help?: string}} OddsInput */
/** @typedef {{calc: string, title: string, attacks: number, inputs: OddsInput[],
 *   from_sheet: string[]}} OddsAttack */
/** @typedef {{target: string, name: string, attacks: number, p_hit: Frac,
 *   damage: [number, Frac][], mean_damage: Frac, mean_total: Frac, out_by: Frac[],
 *   wear: {what: string, before: number, after: [number, Frac][]}[], out_rule: string,
 *   loss: string, already_out: boolean, exact: boolean, method: string,
 *   notes: string[]}} OddsAnswer */
/** @typedef {{events: any[], state: any}} Now */
/** @typedef {(req: Record<string, any>) => Promise<Record<string, any>>} Py */

/** The panel's stylesheet (its rules style only the panel: linked ahead of mounting, it
 * moves nothing, and mounting then restyles no page). */
export function ensureCss() {
  if (document.querySelector(`link[href="${CSS_URL}"]`)) return;
  const integrity = sriFor(CSS_URL); // this build's stylesheet or none
  if (integrity) document.head.append(h("link", { rel: "stylesheet", href: CSS_URL, integrity }));
}

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * Two small bar charts: the damage the 1st attack does, and P(out) by the Nth attack.
 * Geometry in attributes, looks in classes (odds/odds.css).
 * @param {OddsAnswer} a
 */
export function chart(a) {
  const W = 320, H = 120, PAD = 18, GAP = 24;
  const half = (W - GAP) / 2;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "ts-takeout-chart", role: "img",
    "aria-label": `${a.name}: damage of the first attack, and the chance out by each attack` });
  /** @param {number} x0 @param {string} title @param {[string, number][]} bars @param {string} cls */
  const panel = (x0, title, bars, cls) => {
    const t = svg("text", { x: x0, y: 10, class: "ts-takeout-ctitle" });
    t.textContent = title;
    root.append(t, svg("line", { x1: x0, x2: x0 + half, y1: H - PAD, y2: H - PAD, class: "ts-takeout-axis" }));
    const top = Math.max(...bars.map(([, v]) => v), 1e-9);
    const w = half / Math.max(bars.length, 1);
    bars.forEach(([label, v], i) => {
      const bh = ((H - PAD - 16) * v) / (cls === "ts-takeout-out" ? 1 : top);
      const r = svg("rect", { x: x0 + i * w + w * 0.1, y: H - PAD - bh, width: w * 0.8, height: bh,
        class: `ts-takeout-bar ${cls}` });
      const tip = svg("title", {});
      tip.textContent = `${label}: ${percent(v)}`;
      r.append(tip);
      root.append(r);
      if (bars.length <= 12 || i % Math.ceil(bars.length / 8) === 0) {
        const lab = svg("text", { x: x0 + i * w + w / 2, y: H - 4, class: "ts-takeout-label" });
        lab.textContent = label;
        root.append(lab);
      }
    });
  };
  panel(0, `${a.loss}, attack 1`, a.damage.map(([d, p]) => [String(d), p.value]), "ts-takeout-dmg");
  panel(half + GAP, "out by attack", a.out_by.map((p, i) => [String(i + 1), p.value]), "ts-takeout-out");
  return root;
}

/** One target's answer. @param {OddsAnswer} a */
export function answerNode(a) {
  const last = a.out_by[a.out_by.length - 1];
  const dl = h("dl", { class: "ts-takeout-values" },
    h("dt", { text: "Hit" }), h("dd", {}, valueNode(a.p_hit, "probability")),
    h("dt", { text: a.attacks > 1 ? `Out after ${a.attacks} attacks` : "Out" }),
    h("dd", { class: "ts-takeout-out-value", "data-out": last.text }, valueNode(last, "probability")),
    h("dt", { text: `Mean ${a.loss}` }),
    h("dd", {}, valueNode(a.mean_damage, "mean"),
      a.attacks > 1 ? h("span", { text: ` (turn: ${decimal(a.mean_total.value)})` }) : null));
  const by = a.out_by.length > 1
    ? h("p", { class: "ts-takeout-by" }, a.out_by.map((p, i) =>
      h("span", { class: "ts-takeout-item", "data-out": p.text }, `by attack ${i + 1}: `,
        valueNode(p, "probability"))))
    : null;
  const wear = a.wear.filter((w) => w.after.some(([v]) => v !== w.before)).map((w) =>
    h("span", { class: "ts-takeout-item" }, `${w.what} ${w.before} → `, w.after.filter(([v]) => v !== w.before).map(([v, p], i) =>
      h("span", {}, i ? ", " : "", `${v}: `, valueNode(p, "probability")))));
  return h("article", { class: "ts-takeout-target", "data-target": a.target },
    h("h3", { class: "ts-takeout-name", text: a.name + (a.already_out ? " (already out)" : "") }),
    a.exact ? null : h("p", { class: "ts-takeout-approx", text: `Approximate: ${a.method}` }),
    dl, by,
    wear.length ? h("p", { class: "ts-takeout-wear" },
      h("span", { class: "ts-takeout-item", text: "Armour after attack 1:" }), wear) : null,
    chart(a),
    h("p", { class: "ts-takeout-rule", text: a.out_rule }),
    a.notes.length ? h("p", { class: "ts-takeout-notes", text: a.notes.join(" ") }) : null);
}

/** A control for one input, from the registry's description. @param {OddsInput} i @param {any} value */
function control(i, value) {
  const id = `ts-takeout-in-${i.name}`;
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let el;
  if (i.kind === "choice") {
    el = h("select", { id, name: i.name }, (i.choices || []).map(([v, l]) => h("option", { value: v, text: l })));
    el.value = String(value);
  } else if (i.kind === "bool") {
    el = h("input", { id, name: i.name, type: "checkbox" });
    el.checked = Boolean(value);
  } else {
    el = h("input", { id, name: i.name, type: "number", inputmode: "numeric", min: i.min, max: i.max,
      value: String(value) });
  }
  return h("p", { class: `ts-takeout-field ts-takeout-${i.kind}` }, h("label", { for: id, text: i.label, title: i.help }), el);
}

/**
 * Mount the panel.
 * @param {HTMLElement} box where it goes
 * @param {{game: string, now: () => Now, py: Py, watch: HTMLElement}} opts `now()`: the
 *   stored events and the last folded state; `watch`: an element whose attributes change on
 *   every render of the tracker (the panel follows the fight).
 */
export function mountOdds(box, { game, now, py, watch }) {
  ensureCss();
  /** @type {OddsAttack[]} */
  let attacks = [];
  /** @type {Record<string, any>} */
  const typed = {}; // what the player typed, by input name, kept across attacks
  let asked = 0;
  let formFor = "-"; // the attacker and first target the asked inputs were chosen for
  /** @type {{attacker: string, targets: string[]}} */
  let picked = { attacker: "", targets: [] }; // the engine's choice before the player's
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** Replies per folded state (the tracker's own object: a new fold is a new state) and
   * question. The tracker asks again whenever its log is stored; a state already answered
   * for (an event stored after it was drawn, inputs typed back) is answered from here, and
   * an answer already on screen is not drawn again.
   * @type {WeakMap<object, Map<string, Record<string, any>>>} */
  const answered = new WeakMap();
  /** @type {Record<string, any> | null} */
  let shown = null;
  let onItsWay = ""; // the newest question sent to Python and not yet answered
  const who = h("select", { id: "ts-takeout-attacker" });
  const how = h("select", { id: "ts-takeout-attack" });
  const n = h("input", { id: "ts-takeout-n", type: "number", min: 1, max: 10, value: "1", inputmode: "numeric" });
  const targets = h("fieldset", { class: "ts-takeout-targets" }, h("legend", { text: "Targets" }));
  const fields = h("div", { class: "ts-takeout-fields" });
  const status = h("p", { class: "ts-takeout-status", role: "status", "aria-live": "polite" });
  const out = h("div", { class: "ts-takeout-answers" });
  const more = h("button", { type: "button", id: "ts-takeout-more", class: "ts-link ts-takeout-more",
    "aria-expanded": "false", "aria-controls": "ts-takeout-fields", text: "The attack's inputs" });
  fields.id = "ts-takeout-fields";
  fields.hidden = true;
  more.addEventListener("click", () => {
    fields.hidden = !fields.hidden;
    more.setAttribute("aria-expanded", String(!fields.hidden));
  });
  const controls = [h("div", { class: "ts-takeout-pick" },
    h("p", {}, h("label", { for: "ts-takeout-attacker", text: "Attacker" }), who),
    h("p", {}, h("label", { for: "ts-takeout-attack", text: "Attack" }), how),
    h("p", {}, h("label", { for: "ts-takeout-n", text: "Attacks this turn" }), n)),
  targets, more, fields];
  box.replaceChildren(h("section", { class: "ts-takeout", "aria-labelledby": "ts-takeout-h" },
    h("h2", { id: "ts-takeout-h", class: "ts-takeout-h", text: "Odds before the roll" }),
    status, out));
  // The controls join the panel with its first answer (or refusal), in its frame: the frame
  // of the opened panel, while Python works, draws a heading and "Working out…" only, and
  // the answer, which waits for the page's thread, waits less (issue 28: the first answer
  // after Python ready on a slow phone). The question is read from them all the same.
  const place = () => { if (!controls[0].isConnected) status.before(...controls); };

  const chosen = () => [...targets.querySelectorAll("input:checked")].map((x) => /** @type {HTMLInputElement} */ (x).value);
  const attack = () => attacks.find((a) => a.calc === how.value);

  function people() {
    const { state } = now();
    const cs = state?.combatants || [];
    const keepWho = who.value || picked.attacker || state?.current || cs[0]?.id || "";
    who.replaceChildren(...cs.map((/** @type {any} */ c) => h("option", { value: c.id, text: c.name })));
    who.value = keepWho;
    const keep = new Set(chosen().length ? chosen() : picked.targets);
    const others = cs.filter((/** @type {any} */ c) => c.id !== who.value);
    if (!keep.size && others[0]) keep.add(others[0].id);
    targets.replaceChildren(targets.firstElementChild || "", ...others.map((/** @type {any} */ c) => {
      const id = `ts-takeout-t-${c.id}`;
      const cb = h("input", { type: "checkbox", id, value: c.id });
      cb.checked = keep.has(c.id);
      return h("span", { class: "ts-takeout-t" }, cb, h("label", { for: id, text: c.name }));
    }));
  }

  /** The form of the attacks the odds know, for the attacker and first target the engine
   * answered for (a sheet fills some inputs). @param {any} reply */
  function setForm(reply) {
    formFor = `${reply.attacker}|${reply.targets[0] || ""}`;
    picked = { attacker: reply.attacker, targets: reply.targets };
    attacks = reply.attacks;
    const keep = how.value;
    how.replaceChildren(...attacks.map((a) => h("option", { value: a.calc, text: a.title })));
    if (attacks.some((a) => a.calc === keep)) how.value = keep;
    else n.value = String(attacks[0]?.attacks || 1);
    const a = attack();
    fields.replaceChildren(...(a ? a.inputs.map((i) => control(i, i.name in typed ? typed[i.name] : i.default)) : []));
  }

  function inputs() {
    /** @type {Record<string, any>} */
    const v = {};
    for (const el of fields.querySelectorAll("input, select")) {
      const x = /** @type {HTMLInputElement} */ (el);
      v[x.name] = x.type === "checkbox" ? x.checked : x.value;
    }
    return v;
  }

  /** Ask the engine; `form`: also the attacks' form (the first answer, or another attacker).
   * @param {boolean} [form] */
  async function ask(form = false) {
    const ids = chosen();
    if (!form && (!attack() || !ids.length)) {
      ++asked; // an answer on its way is not drawn
      place();
      out.replaceChildren();
      shown = null;
      status.textContent = "Choose a target.";
      return;
    }
    const { events, state } = now();
    const req = { op: "odds", form, game, attacker: who.value, targets: ids, calc: how.value,
      inputs: inputs(), attacks: Number(n.value) || 1 };
    const key = JSON.stringify([events.length, req]); // (an event being folded: not this state's)
    // the same question already on its way (the tracker's fold, arriving before the first
    // answer, asks again: the same log, so the same answer): it answers this one too
    if (key === onItsWay) return;
    const mine = ++asked;
    status.textContent = "Working out…";
    box.dataset.busy = "";
    const t0 = performance.now();
    try {
      const kept = (state && answered.get(state)) || new Map();
      let reply = kept.get(key);
      if (!reply) {
        onItsWay = key;
        reply = await py({ ...req, events });
      }
      if (mine !== asked) return; // a newer question is on its way
      if (state) {
        kept.delete(key);
        kept.set(key, reply); // the newest last: the oldest goes first
        if (kept.size > KEPT) kept.delete(/** @type {string} */ (kept.keys().next().value));
        answered.set(state, kept);
      }
      if (form) { setForm(reply); people(); }
      place();
      if (reply !== shown) out.replaceChildren(...reply.odds.map(answerNode));
      shown = reply;
      status.textContent = reply.odds.length ? "" : "Add a target to the fight.";
      box.dataset.ms = String(Math.round(performance.now() - t0));
    } catch (err) {
      if (mine !== asked) return;
      place();
      out.replaceChildren();
      shown = null;
      status.textContent = err instanceof Error ? err.message : String(err);
    } finally {
      if (mine === asked) { delete box.dataset.busy; onItsWay = ""; }
    }
  }

  const soon = () => { clearTimeout(timer); timer = setTimeout(() => { ask(); }, WAIT_MS); };
  const follow = () => { if (formFor === `${who.value}|${chosen()[0] || ""}`) soon(); else again(); };
  const again = () => { ask(true); };
  who.addEventListener("change", () => { people(); again(); });
  how.addEventListener("change", () => {
    n.value = String(attack()?.attacks || 1);
    const a = attack();
    fields.replaceChildren(...(a ? a.inputs.map((i) => control(i, i.name in typed ? typed[i.name] : i.default)) : []));
    ask();
  });
  n.addEventListener("input", soon);
  targets.addEventListener("change", follow);
  fields.addEventListener("input", (e) => {
    const x = /** @type {HTMLInputElement} */ (e.target);
    typed[x.name] = x.type === "checkbox" ? x.checked : x.value;
    soon();
  });
  fields.addEventListener("change", soon);
  // the tracker renders again after every event: the targets' sheets changed, ask again
  // (a sheet fills some inputs: another attacker or target may ask for others)
  new MutationObserver(() => { people(); follow(); }).observe(watch, { attributes: true, attributeFilter: ["data-events"] });
  people();
  again();
}
