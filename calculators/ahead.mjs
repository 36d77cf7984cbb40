// @ts-check
// Answers worked out ahead (issue 13): a page carries each of its calculators' answers for
// the inputs its form starts with, worked out at build time by the same rules_pkg on
// CPython (scripts/site/page_answers.py), in a hidden element's attribute (text, never
// markup). While Python starts, a form whose inputs are exactly those shows that answer at
// once, through the one result renderer (result.mjs), marked as worked out ahead; an input
// changed away from them takes it down again (a form then waits for the engine, as without
// it). Once Python is ready, the live engine works the same inputs out and its answer
// takes the place of the one worked out ahead.
// Not for a form restored from a link (url-state.mjs): its inputs are the link's.

import { h } from "./dom.mjs";
import { readInputs } from "./form.mjs";
import { python } from "./boot.mjs";
import { highlightRows, markShown, renderResult } from "./result.mjs";
import { findAnswer, parseAnswers, sameInputs, sameResult } from "./answers.mjs";

/** @typedef {import("./answers.mjs").Answer} Answer */

export const HINT = "Worked out ahead";
const HINT_TITLE = "Worked out when this site was built, by the same rules engine, for "
  + "the inputs this form starts with; the engine works it out again once it has started.";

/** @type {{ el: Element | null, list: Answer[] }} the current page's, parsed once */
const parsed = { el: null, list: [] };

/** This page's answers (a new page after instant navigation has its own element). */
function pageAnswers() {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(".ts-answers[data-answers]"));
  if (el !== parsed.el) {
    parsed.el = el;
    parsed.list = el ? parseAnswers(el.dataset.answers) : [];
  }
  return parsed.list;
}

/** Show a result as worked out ahead (its hint, and data-ts-ahead on the result box).
 * @param {HTMLElement} host @param {HTMLElement} out @param {Answer} answer */
function show(host, out, answer) {
  renderResult(host, answer.result, null, false);
  out.dataset.tsAhead = "";
  out.prepend(h("p", { class: "ts-ahead", text: HINT, title: HINT_TITLE }));
}

/** The answer is no longer the live one's to replace: keep the live answer's look.
 * @param {HTMLElement} out */
function confirmed(out) {
  delete out.dataset.tsAhead;
  out.querySelector(":scope > .ts-ahead")?.remove();
  markShown(true);
}

/**
 * Show the answer worked out ahead for this form as it starts, if the page has one, and
 * keep it only while the inputs are still those. Called by tableside.js's mount() once the
 * form is built, before its own input listeners (which mark a shown result out of date).
 * @param {HTMLElement} host @param {Registry.Calculator} calc
 * @param {HTMLFormElement} form @param {HTMLElement} out the form's result box
 */
export function answerAhead(host, calc, form, out) {
  const answer = findAnswer(pageAnswers(), calc.id, readInputs(calc, form));
  if (!answer) return;
  const offer = () => {
    show(host, out, answer);
    python().then((run) => later(() => replace(host, calc, form, out, answer, run)), () => {
      // no engine: the answer worked out ahead stays, still marked so (the status says why)
    });
  };
  offer();
  const follow = () => {
    if (out.dataset.tsAhead === undefined) return; // a live answer stands there now
    const same = sameInputs(answer.inputs, readInputs(calc, form));
    if (same && out.hidden) offer(); // back to the starting inputs
    else if (!same && !out.hidden) { // not an answer to these inputs: wait for the engine
      out.hidden = true;
      highlightRows(host, []);
    }
  };
  form.addEventListener("input", follow);
  form.addEventListener("change", follow);
}

/** Once Python is ready: the live engine works the same inputs out, and its answer takes
 * the place of the one worked out ahead (when the two are the same, the shown one stays,
 * as a reader may have opened its steps, and only loses its hint).
 * @param {HTMLElement} host @param {Registry.Calculator} calc @param {HTMLFormElement} form
 * @param {HTMLElement} out @param {Answer} answer
 * @param {import("./boot.mjs").Run} run */
async function replace(host, calc, form, out, answer, run) {
  // replaced already (Compute), taken down (inputs changed), or a Compute is on its way
  const standing = () => host.isConnected && out.dataset.tsAhead !== undefined && !out.hidden
      && !host.getAttribute("aria-busy") && sameInputs(answer.inputs, readInputs(calc, form));
  if (!standing()) return;
  const inputs = readInputs(calc, form);
  let reply;
  try {
    reply = JSON.parse(await run(calc.id, JSON.stringify(inputs)));
  } catch (e) {
    reply = { ok: false, detail: String(e) };
  }
  if (!standing()) return; // the reader moved on while Python worked it out
  if (reply.ok && sameResult(reply.result, answer.result)) confirmed(out);
  else if (reply.ok) renderResult(host, reply.result, null); // the live engine has the say
  else { // never expected (the build ran the same engine): take it down, say why in the console
    console.warn(`Tableside: ${calc.id} refused the inputs worked out ahead:`, reply.message || reply.detail);
    delete out.dataset.tsAhead;
    out.hidden = true;
    highlightRows(host, []);
  }
}

/** Run `job` when the page is idle (one Python call each: never a long task of them all).
 * @param {() => void} job */
function later(job) {
  if (window.requestIdleCallback) requestIdleCallback(job, { timeout: 2000 });
  else setTimeout(job, 50);
}
