// @ts-check
/* Search results show the words around the match (issue #11). Material shows a result's
   whole section as its text: on a phone a long section is a result thousands of pixels
   tall, its match far below the screen. Each result's text becomes one short snippet
   instead: a few words before the first highlighted match, the match, the words after
   (a section matched by its title alone: its first words). The result still links to the
   section, and the index still holds every word. */
(() => {
  "use strict";
  const w = /** @type {any} */ (window);
  if (w.__tsSnippet) return; // instant navigation may evaluate this file again
  w.__tsSnippet = true;

  const BEFORE = 60; // characters of context before the match
  const LENGTH = 220; // characters of the whole snippet
  const BLOCK = /^(P|LI|UL|OL|TABLE|TR|TD|TH|DIV|DL|DT|DD|H[1-6]|PRE|BLOCKQUOTE)$/;

  /**
   * The text after the result's title, as [text, highlighted] runs; blocks parted by a space.
   * @param {Element} article
   * @returns {Array<[string, boolean]>}
   */
  function runs(article) {
    /** @type {Array<[string, boolean]>} */
    const out = [];
    /** @param {Node} node @param {boolean} marked */
    const walk = (node, marked) => {
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) {
          out.push([child.nodeValue || "", marked]);
        } else if (child instanceof Element) {
          const block = BLOCK.test(child.tagName);
          if (block) out.push([" ", false]);
          walk(child, marked || child.tagName === "MARK");
          if (block) out.push([" ", false]);
        }
      }
    };
    let past = false;
    for (const child of [...article.childNodes]) {
      if (child instanceof Element && /^H[12]$/.test(child.tagName)) { past = true; continue; }
      if (!past || (child instanceof Element && child.matches("nav, .md-search-result__terms,"
        + " .md-search-result__icon"))) continue;
      const holder = document.createElement("span");
      holder.append(child.cloneNode(true));
      walk(holder, false);
    }
    return out;
  }

  /**
   * The snippet's runs: from a word boundary a little before the first match.
   * @param {Array<[string, boolean]>} parts
   * @returns {Array<[string, boolean]>}
   */
  function cut(parts) {
    // one string, whitespace collapsed; which characters are highlighted
    let text = "";
    /** @type {boolean[]} */
    const hl = [];
    for (const [t, m] of parts) {
      for (const ch of t.replace(/\s+/g, " ")) {
        if (ch === " " && (text === "" || text.endsWith(" "))) continue;
        text += ch;
        hl.push(m);
      }
    }
    const first = hl.indexOf(true);
    let start = first > BEFORE ? text.lastIndexOf(" ", first - BEFORE) + 1 : 0;
    if (start < 0 || start > first) start = 0;
    let end = Math.min(text.length, start + LENGTH);
    if (end < text.length) end = Math.max(text.lastIndexOf(" ", end), first + 1);
    /** @type {Array<[string, boolean]>} */
    const out = start > 0 ? [["\u2026 ", false]] : [];
    for (let i = start; i < end; i++) {
      const last = out[out.length - 1];
      if (last && last[1] === hl[i]) last[0] += text[i];
      else out.push([text[i], hl[i]]);
    }
    if (end < text.length) out.push([" \u2026", false]);
    return out;
  }

  /** @param {Element} article */
  function snip(article) {
    if (article.hasAttribute("data-ts-snippet")) return;
    article.setAttribute("data-ts-snippet", "");
    const parts = runs(article);
    if (!parts.some(([t]) => t.trim())) return;
    const p = document.createElement("p");
    p.className = "ts-snippet";
    for (const [t, marked] of cut(parts)) {
      if (!marked) { p.append(t); continue; }
      const mark = document.createElement("mark");
      mark.textContent = t;
      p.append(mark);
    }
    // the title stays; the section's text gives way to the snippet
    let past = false;
    for (const child of [...article.childNodes]) {
      if (child instanceof Element && /^H[12]$/.test(child.tagName)) { past = true; continue; }
      if (past && !(child instanceof Element && child.matches("nav, .md-search-result__terms"))) {
        child.remove();
      }
    }
    const title = article.querySelector("h1, h2");
    if (title) title.after(p);
  }

  /** @param {ParentNode} root */
  const snipAll = (root) => root.querySelectorAll(".md-search-result__article").forEach(snip);

  function attach() {
    const list = document.querySelector(".md-search-result__list");
    if (!list || list.hasAttribute("data-ts-snippets")) return;
    list.setAttribute("data-ts-snippets", "");
    new MutationObserver(() => snipAll(list)).observe(list, { childList: true, subtree: true });
    snipAll(list);
  }

  attach();
  document.addEventListener("DOMContentLoaded", attach);
  if (w.document$) w.document$.subscribe(attach); // instant navigation
})();
