"""A strict Content Security Policy for every page, online and in the offline export.

No ``'unsafe-inline'``, no ``'unsafe-eval'``: scripts come from the site itself, and the few
inline scripts Material writes into its pages are allowed by their SHA-256 hashes, computed at
build time from the pages as they were written – so a Material upgrade that changes them
changes the hashes with them instead of silently breaking the page.

The policy is a ``<meta http-equiv>`` tag (a static site has no headers of its own), the same
on every page: Material's instant navigation keeps the first page's policy for the whole visit,
so it must already allow what any later page brings. The regelwerk plugin puts a placeholder
into each page (``on_post_page``) and collects the hashes; after the build it writes the
finished policy into every page (``on_post_build``).

``default-src`` is ``'self'``, and every fetch directive is given on its own (``media-src``
``'none'``; ``child-src`` as ``worker-src``), so it decides only for loads without a
directive of their own: Firefox prefetches the next page named by Material's
``<link rel="next">`` (its keys n/p follow those links, so they stay), and CSP 3 has no
``prefetch-src`` for that. With ``default-src 'none'`` every online page reported a
violation in Firefox (issue #33).

The online site's web app (:mod:`site_plugins.webapp.pwa`) needs nothing beyond ``'self'``:
``manifest-src`` for the manifest, ``worker-src`` for ``sw.js``, ``img-src`` for the icons,
``script-src`` for ``assets/pwa/pwa.js`` (no inline script).

The offline export (file://) additionally needs
- ``worker-src blob:`` and ``'wasm-unsafe-eval'``: the engine runs in a Blob worker, which
  inherits the page's policy;
- the hash of the one inline script of the iframe-worker shim (vendored from npm, used by
  Material's search on file://), which it writes into a hidden iframe; its text includes the
  search worker's address, so it is computed per page from the shim's own source.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

PLACEHOLDER = "@regelwerk:content-security-policy@"
META = f'<meta http-equiv="Content-Security-Policy" content="{PLACEHOLDER}">'
_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)
_EXECUTABLE_TYPES = {"", "text/javascript", "application/javascript", "module"}
# The shim's iframe document (iframe-worker 1.0.4, pinned in package.json): its inline script
# is `postMessage=${c};importScripts=${d};addEventListener(…{filename:"${e}",…})`, where c and
# d are two functions of the shim (their source text) and e is the worker's address.
_SHIM_TEMPLATE = (
    'postMessage=${c};importScripts=${d};addEventListener("error",({error})=>'
    '{parent.dispatchEvent(new ErrorEvent("error",{filename:"${e}",error}))})<\\/script>'
)


class CspError(RuntimeError):
    """A page or the vendored shim does not look the way the policy was built for."""


def sha256_source(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def inline_script_hashes(html: str) -> set[str]:
    """Hashes of every inline script the browser would run (not JSON data blocks)."""
    hashes = set()
    for match in _SCRIPT.finditer(html):
        attrs = match.group("attrs")
        if re.search(r"\bsrc\s*=", attrs):
            continue
        kind = re.search(r'\btype\s*=\s*"([^"]*)"', attrs)
        if kind and kind.group(1).strip().lower() not in _EXECUTABLE_TYPES:
            continue
        hashes.add(sha256_source(match.group("body")))
    return hashes


def search_worker_url(html: str) -> str | None:
    """The address Material's search hands to ``new Worker()`` on this page (``__config``)."""
    match = _CONFIG.search(html)
    if not match:
        return None
    url = json.loads(match.group(1)).get("search")
    return str(url) if url else None


def _function_source(source: str, name: str) -> str:
    """The text of ``function NAME(…){…}`` in minified code (what ``String(fn)`` gives)."""
    starts = [m.start() for m in re.finditer(rf"function {name}\(", source)]
    if len(starts) != 1:
        raise CspError(f"iframe-worker: function {name} gefunden: {len(starts)}× (erwartet 1)")
    depth = 0
    for index in range(source.index("{", starts[0]), len(source)):
        if source[index] == "{":
            depth += 1
        elif source[index] == "}":
            depth -= 1
            if depth == 0:
                return source[starts[0] : index + 1]
    raise CspError(f"iframe-worker: function {name} endet nicht")


def shim_script_hash(shim_source: str, worker_url: str) -> str:
    """Hash of the inline script the iframe-worker shim writes for ``worker_url``."""
    if shim_source.count(_SHIM_TEMPLATE) != 1:
        raise CspError(
            "iframe-worker: das Skript des versteckten iframes sieht anders aus als erwartet "
            "(neue Version?) – site_plugins/csp/policy.py anpassen"
        )
    body = _SHIM_TEMPLATE.removesuffix("<\\/script>")
    body = body.replace("${c}", _function_source(shim_source, "c"))
    body = body.replace("${d}", _function_source(shim_source, "d"))
    return sha256_source(body.replace("${e}", worker_url))


def policy(hashes: Iterable[str], *, offline: bool) -> str:
    """The policy text for every page."""
    scripts = ["'self'", *(["'wasm-unsafe-eval'"] if offline else []), *sorted(set(hashes))]
    workers = ["'self'", "blob:"] if offline else ["'self'"]
    directives = {
        "default-src": ["'self'"],  # only Firefox's prefetch of <link rel="next"> (above)
        "script-src": scripts,
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "media-src": ["'none'"],
        "connect-src": ["'self'"],
        "worker-src": workers,
        "frame-src": ["'self'"],
        "child-src": workers,  # what a browser without worker-src reads (Safari < 15.5)
        "manifest-src": ["'self'"],
        "base-uri": ["'none'"],
        "form-action": ["'none'"],
        "object-src": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(values)}" for name, values in directives.items())


def first_in_head(html: str, tags: str) -> str:
    """``tags`` as the first elements of ``<head>`` (after its charset)."""
    head = re.search(r"<head[^>]*>", html, re.I)
    if head is None:
        raise CspError("Seite ohne <head>")
    charset = re.search(r"<meta charset=[^>]*>", html[head.end() :], re.I)
    at = head.end() + (charset.end() if charset else 0)
    return f"{html[:at]}\n{tags}{html[at:]}"


def with_placeholder(html: str) -> str:
    """The page with the policy's placeholder as the first element of ``<head>``."""
    return first_in_head(html, META)


def write_policy(site_dir: Path, text: str) -> int:
    """Replace the placeholder in every HTML file below ``site_dir``; returns the count."""
    count = 0
    for path in sorted(site_dir.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        if PLACEHOLDER in html:
            path.write_text(html.replace(PLACEHOLDER, text), encoding="utf-8")
            count += 1
    return count
