"""Finish stage: one Content-Security-Policy `<meta>` on every built page.

GitHub Pages sends no custom headers, so the policy travels in the HTML, as the first
element of `<head>` (a meta policy only covers what the parser meets after it).

Inline scripts are allowed by hash only, and only the project's own: the allow-list is
computed from the theme's templates (Material's and overrides/), never from the output.
Material's templates emit a few (the `__md_scope` bootstrap, whose base path differs per
folder depth, the palette restore, the tab restore); each template script becomes a
pattern whose Jinja expressions may only stand for a relative URL (letters, digits and
`.:/-`). An inline script in a built page that matches no template script (one a source
smuggled in, or one a build step wrote) fails the build, naming the page: it is never hashed
into the policy. A step that needs an inline script lists it in EXTRA_SCRIPTS.

Material's instant navigation keeps the first page's policy while it swaps in later pages,
so every page gets the *same* policy: the union of the hashes of the allowed inline scripts
of the whole site. That is why this runs over the written files and not per page; the
finish stage runs it after the runtime step and before the service worker, whose precache
must see the final bytes. (`mkdocs serve`'s inline live-reload script is not allowed: the
policy is for built sites, `make serve` serves one.)

Why each source (checked by tests/security/test_csp.py in Chromium):
* 'wasm-unsafe-eval': Pyodide compiles its WebAssembly (on the page only where Python's
  worker cannot run). No 'unsafe-eval': PyScript 0.7 compiles its *worker* hooks with
  Function() even on the main thread, so calculators/python/pyscript.mjs empties those hooks (we
  start no PyScript worker) before Python loads; Pyodide's own eval() paths (EM_ASM of side
  modules) are never reached.
* style-src 'self', plus the hash of each `<style>` text the site generator's own script
  writes (the render stage names them in rendered.json's `inline_styles`: Zensical's search
  dialog, none for Material): no page has a style attribute or <style> element, and
  scripts set styles through the CSSOM (`el.style.x = …`), which CSP does not restrict.
  No 'unsafe-hashes': the hashes allow <style> elements, never style attributes.
* img-src data:: Material's icons in CSS are `data:` SVG masks.
* worker-src 'self': Material's search worker, the service worker and Python's worker
  (calculators/python/worker.mjs) are same-origin files. A worker's own policy comes from
  its response headers, not from this `<meta>` (Pages sends none): nothing to add here.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

# Fixed part of the policy; `{hashes}` is the site-wide list of inline-script hashes,
# `{styles}` that of the <style> texts the generator's script writes.
POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; "
          "style-src 'self'{styles}; img-src 'self' data:; font-src 'self'; connect-src 'self'; "
          "worker-src 'self'; object-src 'none'; base-uri 'self'; "
          "form-action 'self'")

# A script element's text runs to the first `</script` (HTML "script data" state): no
# entity decoding, so the bytes between the tags are what the browser hashes.
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_TYPE = re.compile(r"""\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_SRC = re.compile(r"\bsrc\s*=", re.IGNORECASE)
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_OLD_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>', re.IGNORECASE)
# Types the browser runs (and so checks against script-src); JSON data blocks are inert.
_RUN_TYPES = {"", "module", "importmap", "text/javascript", "application/javascript",
              "text/ecmascript", "application/ecmascript", "javascript"}


def _executes(attrs: str) -> bool:
    if _SRC.search(attrs):
        return False
    m = _TYPE.search(attrs)
    kind = next((g for g in m.groups() if g is not None), "") if m else ""
    return kind.strip().lower() in _RUN_TYPES


def inline_scripts(html: str) -> list[str]:
    """The text of each inline script the browser would run, as the browser sees it."""
    # The HTML parser turns CRLF and lone CR into LF before the script sees its text.
    text = html.replace("\r\n", "\n").replace("\r", "\n")
    return [m.group(2) for m in _SCRIPT.finditer(text) if _executes(m.group(1))]


# Inline scripts a build step (not a template) writes into pages: exact texts. None so far.
EXTRA_SCRIPTS: tuple[str, ...] = ()
_JINJA = re.compile(r"(\{\{.*?\}\}|\{%.*?%\})", re.DOTALL)
_URLISH = r"[\w.:/-]*"  # what a template expression may become: base_url, "../.."


def template_pattern(script: str) -> re.Pattern[str]:
    """A template's inline script as a pattern: its text literally, each Jinja expression a
    relative URL at most (no quote, bracket, comma or space: no way out of a string)."""
    parts = _JINJA.split(script)
    return re.compile("".join(_URLISH if i % 2 else re.escape(p) for i, p in enumerate(parts)))


@cache
def _template_patterns(dirs: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    found: dict[str, re.Pattern[str]] = {}
    for folder in dirs:
        for path in sorted(Path(folder).rglob("*.html")):
            for script in inline_scripts(path.read_text("utf-8")):
                if script.strip():
                    found.setdefault(script, template_pattern(script))
    found.update({s: re.compile(re.escape(s)) for s in EXTRA_SCRIPTS})
    return tuple(found.values())


def allowed(script: str, theme_dirs: Sequence[str | Path]) -> bool:
    """Whether an inline script of a built page is one of the project's own."""
    pats = _template_patterns(tuple(str(d) for d in theme_dirs))
    return any(p.fullmatch(script) for p in pats)


class UnknownScriptError(Exception):
    """An inline script in the output that no template or build step of the project wrote."""


def script_hash(source: str) -> str:
    """CSP source expression for one inline script (or <style> text): SHA-256 of its UTF-8
    text."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(hashes: Iterable[str], style_hashes: Iterable[str] = ()) -> str:
    def listed(items: Iterable[str]) -> str:
        return "".join(f" {h}" for h in sorted(set(items)))
    return POLICY.format(hashes=listed(hashes), styles=listed(style_hashes))


def with_policy(html: str, csp: str) -> str:
    """html with `csp` as the first element of <head> (replacing an older one)."""
    html = _OLD_META.sub("", html)
    head = _HEAD.search(html)
    if head is None:
        raise ValueError("page has no <head>")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
    return html[:head.end()] + meta + html[head.end():]


def apply(site_dir: Path, theme_dirs: Sequence[str | Path],
          inline_styles: Sequence[str] = ()) -> str:
    """Put the site-wide policy into every HTML file under site_dir; return it.
    inline_styles: the texts of the <style> elements the generator's script writes.

    UnknownScriptError (naming the pages) when a page has an inline script that is not on
    the allow-list; then no page is changed."""
    pages = sorted(site_dir.rglob("*.html"))
    texts = {p: p.read_text("utf-8") for p in pages}
    hashes: set[str] = set()
    unknown: list[str] = []
    for path, text in texts.items():
        for script in inline_scripts(text):
            if allowed(script, theme_dirs):
                hashes.add(script_hash(script))
            else:
                snippet = " ".join(script.split())[:80]
                unknown.append(f"{path.relative_to(site_dir).as_posix()}: {snippet!r}")
    if unknown:
        more = f" (and {len(unknown) - 10} more)" if len(unknown) > 10 else ""
        raise UnknownScriptError(
            "inline script(s) not written by the project's templates, refused by the "
            "Content-Security-Policy:\n  " + "\n  ".join(unknown[:10]) + more)
    csp = policy(hashes, (script_hash(s) for s in inline_styles))
    for path, text in texts.items():
        if _HEAD.search(text):
            path.write_text(with_policy(text, csp), "utf-8")
    return csp
