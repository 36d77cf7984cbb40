/* Tableside glossary: an <abbr class="ts-abbr" title="..."> (or a ⚑ <span class="ts-flag">)
   shows its text on tap, click or Enter/Space (hover and focus also get a tooltip). One delegated listener on
   the document, so it keeps working across Material's instant page swaps. */
(() => {
  "use strict";
  // Instant navigation may evaluate this file again: listen once.
  if (window.__tsGlossary) return;
  window.__tsGlossary = true;
  const TIPS = "abbr.ts-abbr, .ts-flag";
  let open = null; // { abbr, box }

  // Material's tooltip removes `title` while it shows; remember the text first.
  const textOf = (abbr) => {
    const t = abbr.getAttribute("title");
    if (t) abbr.dataset.gloss = t;
    return abbr.dataset.gloss || "";
  };

  const close = () => {
    if (!open) return;
    open.abbr.removeAttribute("aria-describedby");
    open.abbr.setAttribute("aria-expanded", "false");
    open.box.remove();
    open = null;
    document.body.classList.remove("ts-gloss-open");
  };

  const show = (abbr) => {
    const text = textOf(abbr);
    if (!text) return;
    close();
    const box = document.createElement("span");
    box.className = "ts-gloss";
    box.id = "ts-gloss";
    box.setAttribute("role", "tooltip");
    box.textContent = text;
    document.body.appendChild(box);
    const r = abbr.getBoundingClientRect();
    const w = box.offsetWidth;
    const left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - w - 8));
    box.style.left = `${left + window.scrollX}px`;
    box.style.top = `${r.bottom + window.scrollY + 4}px`;
    abbr.setAttribute("aria-describedby", box.id);
    abbr.setAttribute("aria-expanded", "true");
    open = { abbr, box };
    document.body.classList.add("ts-gloss-open"); // one tip at a time: hide Material's
  };

  const target = (ev) => (ev.target instanceof Element ? ev.target.closest(TIPS) : null);

  // Remember every tip's text before anything (hover, focus, tap) can hide its title.
  const remember = (ev) => { const a = target(ev); if (a) textOf(a); };
  for (const type of ["pointerover", "pointerdown", "focusin", "touchstart"]) {
    document.addEventListener(type, remember, { capture: true, passive: true });
  }
  const scan = () => document.querySelectorAll(TIPS).forEach(textOf);
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
    if (ev.key === "Escape") { close(); return; }
    const a = target(ev);
    if (a && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      if (open && open.abbr === a) close(); else show(a);
    }
  });
  window.addEventListener("resize", close);
  // Instant navigation swaps the page: drop a box that belonged to the old one.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(() => { close(); scan(); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
