/* Tableside glossary and tooltips, text only. An <abbr class="ts-abbr" title="..."> (or a ⚑
   <span class="ts-flag">) shows its text on tap, click or Enter/Space; hover and focus show
   its text, and a link's title, as a tooltip. Material's own
   tooltips (content.tooltips) are off: they put the title into innerHTML, so a source's
   link title became live markup (issue #24). Here the text only ever goes into textContent.
   One delegated listener on the document, so it keeps working across Material's instant
   page swaps. */
(() => {
  "use strict";
  // Instant navigation may evaluate this file again: listen once.
  if (window.__tsGlossary) return;
  window.__tsGlossary = true;
  const TIPS = "abbr.ts-abbr, .ts-flag";
  // Titles a source can write: abbreviations, flags and links (a link's Markdown title).
  // The calculators' few titles (ours) keep the browser's own tooltip, text as well.
  const TITLED = `${TIPS}, .md-content a[title], .md-content a[data-gloss]`;
  let open = null; // { abbr, box }: the tip pinned by a tap, click or key
  let hover = null; // { el, box }: the tooltip of what is under the pointer or focused

  // The text moves to data-gloss the first time: while a tooltip shows, the element has no
  // title (the browser's own tooltip would repeat it).
  const textOf = (abbr) => {
    const t = abbr.getAttribute("title");
    if (t) abbr.dataset.gloss = t;
    return abbr.dataset.gloss || "";
  };

  /** A box of text under `el`, in the body. */
  const box = (el, className, id) => {
    const b = document.createElement("span");
    b.className = className;
    b.id = id;
    b.setAttribute("role", "tooltip");
    b.textContent = textOf(el);
    document.body.appendChild(b);
    const r = el.getBoundingClientRect();
    const w = b.offsetWidth;
    const left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - w - 8));
    b.style.left = `${left + window.scrollX}px`;
    b.style.top = `${r.bottom + window.scrollY + 4}px`;
    return b;
  };

  const unhover = () => {
    if (!hover) return;
    hover.box.remove();
    if (hover.el.getAttribute("aria-describedby") === hover.box.id) {
      hover.el.removeAttribute("aria-describedby");
    }
    if (hover.el.dataset.gloss) hover.el.setAttribute("title", hover.el.dataset.gloss);
    hover = null;
  };

  const hoverTip = (el) => {
    if (open || (hover && hover.el === el) || !textOf(el)) return;
    unhover();
    const b = box(el, "ts-tip", "ts-tip");
    el.removeAttribute("title");
    if (!el.hasAttribute("aria-describedby")) el.setAttribute("aria-describedby", b.id);
    hover = { el, box: b };
  };

  const close = () => {
    if (!open) return;
    open.abbr.removeAttribute("aria-describedby");
    open.abbr.setAttribute("aria-expanded", "false");
    open.box.remove();
    open = null;
  };

  const show = (abbr) => {
    if (!textOf(abbr)) return;
    close();
    unhover();
    const b = box(abbr, "ts-gloss", "ts-gloss");
    abbr.setAttribute("aria-describedby", b.id);
    abbr.setAttribute("aria-expanded", "true");
    open = { abbr, box: b };
  };

  const target = (ev) => (ev.target instanceof Element ? ev.target.closest(TIPS) : null);
  const titled = (ev) => (ev.target instanceof Element ? ev.target.closest(TITLED) : null);

  // Remember every tip's text before anything (hover, focus, tap) can hide its title.
  const remember = (ev) => { const a = target(ev); if (a) textOf(a); };
  for (const type of ["pointerover", "pointerdown", "focusin", "touchstart"]) {
    document.addEventListener(type, remember, { capture: true, passive: true });
  }
  const scan = () => document.querySelectorAll(TIPS).forEach(textOf);
  // Hover (a mouse or pen, not a finger: a tap pins the tip) and focus show the tooltip.
  document.addEventListener("pointerover", (ev) => {
    const el = titled(ev);
    if (el && ev.pointerType !== "touch") hoverTip(el);
  }, { passive: true });
  document.addEventListener("pointerout", (ev) => {
    const el = titled(ev);
    const to = ev.relatedTarget instanceof Element ? ev.relatedTarget.closest(TITLED) : null;
    if (hover && el === hover.el && to !== el) unhover();
  }, { passive: true });
  document.addEventListener("focusin", (ev) => { const el = titled(ev); if (el) hoverTip(el); });
  document.addEventListener("focusout", (ev) => { if (hover && titled(ev) === hover.el) unhover(); });
  document.addEventListener("click", (ev) => {
    const a = target(ev);
    if (a) {
      ev.preventDefault();
      if (open && open.abbr === a) close(); else show(a);
    } else if (!(ev.target instanceof Element && ev.target.closest(".ts-gloss"))) {
      close();
    }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { close(); unhover(); return; }
    const a = target(ev);
    if (a && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      if (open && open.abbr === a) close(); else show(a);
    }
  });
  window.addEventListener("resize", () => { close(); unhover(); });
  // Instant navigation swaps the page: drop a box that belonged to the old one.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(() => { close(); unhover(); scan(); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
