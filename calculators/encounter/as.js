// @ts-check
// "Run as … against …" on the Encounter page (issue 12): the calculators beside the
// tracker take the chosen combatants' numbers. Called after each state is drawn (after the
// tap's frame, encounter/draw.js); it asks Python ("inputs", one fold for every built
// calculator) only when the choice or those two combatants changed, so a tap that moves
// the turn costs no request here (issue #25: a tap's effect within 100 ms on a phone).

import { h } from "../dom.mjs";
import { pyHeld } from "./replay.js";

/**
 * @param {HTMLElement} box the calculators' sheet
 * @param {{game: string, el: HTMLElement, state: () => any, events: () => any[],
 *   show: (err: unknown) => void}} fight the tracker: its element (whose `data-target` says
 *   the chosen target), its state and log as they are now, and where errors are shown
 * @returns {(ask?: boolean) => void} call once a new state is drawn
 */
export function followFight(box, { game, el, state, events, show }) {
  const actor = h("select", { id: "ts-enc-actor" });
  const target = h("select", { id: "ts-enc-target" });
  let names = ""; // the combatants the pickers list
  let filled = ""; // the choice and numbers the calculators last took

  /** The built calculators take the chosen combatants' numbers.
   * @param {boolean} [force] also over what the player typed */
  async function fill(force = false) {
    el.dataset.target = target.value;
    if (!actor.value && !target.value) return;
    const hosts = [...box.querySelectorAll(".ts-calc[data-calc]")].filter((x) => x.querySelector("form"));
    // the log the worker holds (encounter/replay.js): only what is new is sent
    const { inputs: all } = await pyHeld({ op: "inputs", game, actor: actor.value, target: target.value,
      calcs: hosts.map((x) => /** @type {HTMLElement} */ (x).dataset.calc) }, events());
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

  box.querySelector("h2")?.after(h("div", { class: "ts-enc-as" },
    h("label", { for: "ts-enc-actor", text: "As" }), actor,
    h("label", { for: "ts-enc-target", text: "against" }), target));
  for (const s of [actor, target]) s.addEventListener("change", () => { fill(true).catch(show); });
  // a calculator behind a tab is built when chosen: it takes the numbers then
  box.addEventListener("click", (e) => {
    if (/** @type {HTMLElement} */ (e.target).closest?.("[role=tab]")) {
      setTimeout(() => { fill().catch(show); }, 0);
    }
  });

  /** @param {boolean} [ask] false: the pickers only, no numbers asked for yet (the fight
   * as last saved is drawn, and Python's fold has not checked it: issue 24) */
  return (ask = true) => {
    const s = state();
    const list = s.combatants.map((/** @type {any} */ c) => [c.id, c.name]);
    const keep = [actor.value || s.current || "", target.value || el.dataset.target || ""];
    if (JSON.stringify(list) !== names) { // someone joined, left or was renamed
      names = JSON.stringify(list);
      for (const sel of [actor, target]) {
        sel.replaceChildren(h("option", { value: "", text: "—" }),
          ...list.map(([id, name]) => h("option", { value: id, text: name })));
      }
    }
    actor.value = keep[0];
    target.value = keep[1];
    el.dataset.target = target.value;
    const now = JSON.stringify([actor.value, target.value, box.querySelectorAll(".ts-calc form").length,
      ...s.combatants.filter((/** @type {any} */ c) => c.id === actor.value || c.id === target.value)]);
    if (now === filled || !ask) return;
    filled = now;
    fill().catch(show); // the numbers changed: the calculators follow
  };
}
