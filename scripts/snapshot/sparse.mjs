// The snapshot's container: a Pyodide memory snapshot without its all-zero pages.
//
// A snapshot is the whole wasm memory (≈31 MB), of which ≈40 % are pages of zeros. The
// browser fills a fresh (zeroed) buffer with the rest, so dropping them saves that much
// reading and inflating on every start. Written here at build time; read by
// `expand()` in calculators/python/snapshot.mjs (the two must agree on this layout):
//
//   "TSSPARS1"                 8 bytes, magic + format version
//   total      u32 LE          length of the memory snapshot
//   count      u32 LE          number of runs
//   count × (offset u32, length u32)  runs of non-zero pages, ascending, disjoint
//   the runs' bytes, one after another
export const MAGIC = "TSSPARS1";
export const PAGE = 4096;

export function sparse(raw) {
  const runs = [];
  for (let at = 0; at < raw.length; at += PAGE) {
    const end = Math.min(at + PAGE, raw.length);
    let zero = true;
    for (let i = at; i < end; i++) {
      if (raw[i] !== 0) { zero = false; break; }
    }
    if (zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === at) last[1] += end - at;
    else runs.push([at, end - at]);
  }
  const head = 16 + runs.length * 8;
  const data = runs.reduce((n, [, len]) => n + len, 0);
  const out = new Uint8Array(head + data);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, raw.length, true);
  view.setUint32(12, runs.length, true);
  let p = head;
  runs.forEach(([offset, len], i) => {
    view.setUint32(16 + i * 8, offset, true);
    view.setUint32(20 + i * 8, len, true);
    out.set(raw.subarray(offset, offset + len), p);
    p += len;
  });
  return out;
}
