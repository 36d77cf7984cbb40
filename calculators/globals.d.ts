// Types of what the calculators' pages get from outside this folder (for `tsc`, `make lint`).

/** Material for MkDocs' page observable: emits on the first load and on every instant
 * navigation (only its `subscribe` is used). */
interface MaterialObservable<T> {
  subscribe(next: (value: T) => void): { unsubscribe(): void };
}

interface Window {
  document$?: MaterialObservable<Document>;
}

/** The Network Information API (Chromium only): a hint, never relied on. */
interface Navigator {
  connection?: { saveData?: boolean; effectiveType?: string };
}
