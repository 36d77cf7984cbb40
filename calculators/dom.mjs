// @ts-check
// The one small element builder of the calculators' pages. Text goes in as text (never as
// markup): a source's or a link's words can't become HTML here (#9).

/**
 * h("p", {class: "x", text: "hi", onclick: f}, child, [more, children]) -> <p>
 * Attributes: `class`, `text` (textContent), `on<event>` (a listener), anything else as an
 * attribute (true -> present and empty; undefined, null and false -> left out).
 * Children: elements or strings, nested arrays flattened; null, undefined and false skipped.
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = /** @type {any} */ (document.createElement(tag));
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) el.append(c);
  }
  return el;
}

/** Resolves once a frame has been painted (at once in a hidden tab, which paints none).
 * @returns {Promise<void>} */
export function painted() {
  return new Promise((resolve) => {
    if (document.visibilityState === "hidden") { resolve(); return; }
    const timer = setTimeout(resolve, 1000); // no frame coming (rAF paused): go on anyway
    requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(); }, 0));
  });
}

let seq = 0;

/** A page-unique element id: "ts-<n>-<name>" (forms are built again on every page). */
export function uid(/** @type {string} */ name) {
  return `ts-${++seq}-${name}`;
}
