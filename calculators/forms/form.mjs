// @ts-check
// A calculator's form, built from its registry entry (rules_pkg.registry's to_dict): one
// field per input, by kind (bool, choice, int with steppers, text); reading it back.

import { h, uid } from "../dom.mjs";

export const MAX_FIELD = 40; // characters per field; Python checks the real limits

// --- reading and writing form values -------------------------------------------------
export function numericOf(v) {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^[+-]?\d{1,9}$/.test(v.trim())) return Number(v);
  return null;
}

/**
 * A limit that follows other inputs (rules_pkg.registry.Bound's to_dict): a table keyed by
 * their values (a combination it does not list has no limit), or per x one int input + plus.
 * The engine checks the same declaration, so the steppers never offer a value it refuses.
 * @param {Registry.Bound | undefined} bound
 * @param {(name: string) => unknown} valueOf the current value of another input
 * @returns {number | undefined}
 */
export function boundOf(bound, valueOf) {
  if (!bound) return undefined;
  const values = bound.on.map((name) => String(valueOf(name)));
  if (bound.table) {
    const row = bound.table.find(([key]) => key.every((k, i) => k === values[i]));
    return row ? row[1] : undefined;
  }
  const n = numericOf(values[0]);
  return n === null ? undefined : (bound.per ?? 0) * n + (bound.plus ?? 0);
}

/**
 * The inputs whose value `input` may not hold too (rules_pkg.registry.Unlike): the one it
 * names, and any that names it (the pair is declared once, on one of the two).
 * @param {Registry.Calculator} calc @param {Registry.Input} input
 * @returns {string[]}
 */
export function unlikeOf(calc, input) {
  return [input.unlike?.on, ...calc.inputs.filter((i) => i.unlike?.on === input.name)
    .map((i) => i.name)].filter((n) => n !== undefined);
}

/**
 * A stepper's next value: one step from `n`, kept within the limits, over a value another
 * input holds (`taken`); where that leaves no value to go to, it stays at `n`.
 * @param {number} n @param {number} d @param {number[]} low @param {number[]} high
 * @param {(number | null)[]} taken
 */
export function stepped(n, d, low, high, taken) {
  const within = (v) => Math.min(...high, Math.max(...low, v));
  let next = within(n + d);
  if (taken.includes(next)) next = within(next + d);
  return taken.includes(next) ? n : next;
}

/** The value of input `name` in `form` as the engine keys it ("true"/"false" for yes/no). */
function formValue(form, name) {
  const el = form?.elements.namedItem(name);
  if (!el) return undefined;
  return el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : el.value;
}

// Each list of choices as <option>s, built once and cloned for every <select> showing it
// (a native copy: a weapon page's 28 forms hold ~1,200 options, most of them the same few
// lists; built one by one they were a third of a form's build, a long task on a phone:
// issue 26). Keyed by the list's content, as each calculator's entry has its own copy.
/** @type {Map<string, DocumentFragment>} */
const optionLists = new Map();

/** @param {string[][]} choices [value, label] pairs @returns {Node} */
function optionsOf(choices) {
  const key = JSON.stringify(choices);
  let list = optionLists.get(key);
  if (!list) {
    list = document.createDocumentFragment();
    for (const [v, l] of choices) list.append(h("option", { value: v, text: l }));
    optionLists.set(key, list);
  }
  return list.cloneNode(true);
}

/** @param {Registry.Calculator} calc @param {Registry.Input} input @param {unknown} value */
export function field(calc, input, value) {
  const id = uid(input.name);
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
      optionsOf(input.choices));
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
      const valueOf = (name) => formValue(box.form, name);
      const low = [input.min, boundOf(input.min_by, valueOf)].filter((b) => b !== undefined);
      const high = [input.max, boundOf(input.max_by, valueOf)].filter((b) => b !== undefined);
      const taken = unlikeOf(calc, input).map((name) => numericOf(valueOf(name)));
      const next = Number.isNaN(n) ? Number(input.default) || 0 : stepped(n, d, low, high, taken);
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

/** @param {Registry.Calculator} calc @param {any} form
 * @returns {Record<string, any>} */
export function readInputs(calc, form) {
  const values = {};
  for (const input of calc.inputs) {
    const el = form.elements.namedItem(input.name);
    if (!el) continue;
    values[input.name] = input.kind === "bool" ? el.checked : el.value;
  }
  return values;
}

// --- phone first: a long form folds its less common inputs -------------------------------
const COMMON_INPUTS = 6; // a form longer than LONG_FORM shows these first
const LONG_FORM = 10;

// The form's fields: a long form shows its first inputs and folds the rest under "More
// modifiers" (open when one of them starts from a value other than its default).
/** @param {Registry.Calculator} calc @param {(input: Registry.Input) => unknown} initial */
export function fieldsOf(calc, initial) {
  const make = (inputs) => h("div", { class: "ts-fields" },
    inputs.map((i) => field(calc, i, initial(i))));
  if (calc.inputs.length <= LONG_FORM) return make(calc.inputs);
  const rest = calc.inputs.slice(COMMON_INPUTS);
  const changed = rest.some((i) => String(initial(i)) !== String(i.default));
  return [make(calc.inputs.slice(0, COMMON_INPUTS)),
    h("details", { class: "ts-more", open: changed },
      h("summary", { text: `More modifiers (${rest.length})` }), make(rest))];
}
