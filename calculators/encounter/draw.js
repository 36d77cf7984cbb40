// @ts-check
// Drawing the Encounter page's state at the speed of a tap (issue #25: ≤ 100 ms p95 on a
// phone). A tap's effect is drawn first; what nobody waits for (storing the log, the
// printed record, the calculators beside) comes after that frame. The turn order is
// patched row by row: a row that reads the same is kept, so the browser restyles and lays
// out only the rows that changed (on Next turn, two of them).

/** Resolves once the next frame has been drawn (a frame, then a task after it), or after
 * FRAME_LATE_MS in a tab that draws no frames (hidden): what waits for it still happens. */
export function afterFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => { setTimeout(resolve, 0); });
    setTimeout(resolve, FRAME_LATE_MS);
  });
}

const FRAME_LATE_MS = 250;

/**
 * Put `fresh` (a turn order as encounter/view.js's orderList draws it) into `box`, keeping
 * each row of the one there that is the same: same combatant, same place, same content,
 * and no open card (a card's controls hold the state they were drawn with).
 * @param {HTMLElement} box @param {HTMLElement} fresh
 */
export function drawOrder(box, fresh) {
  const list = box.firstElementChild;
  if (!list || box.childElementCount !== 1 || list.tagName !== fresh.tagName
      || list.className !== fresh.className) {
    box.replaceChildren(fresh);
    return;
  }
  const old = [...list.children];
  const rows = [...fresh.children];
  rows.forEach((row, i) => {
    const was = old[i];
    if (was && same(was, row)) return;
    if (was) was.replaceWith(row);
    else list.append(row);
  });
  for (const was of old.slice(rows.length)) was.remove();
}

/** @param {Element} a @param {Element} b */
function same(a, b) {
  return a.getAttribute("data-id") === b.getAttribute("data-id")
    && !a.querySelector(".ts-enc-card") && !b.querySelector(".ts-enc-card")
    && a.isEqualNode(b);
}
