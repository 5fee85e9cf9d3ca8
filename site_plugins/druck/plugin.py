"""The ``regelwerk-druck`` MkDocs plugin: one print page per system ("Druckansicht").

For every system folder with an ``index.md`` (``ryssea/``, ``dsa/`` …) the build adds a page
``<system>/druck.md`` that holds all pages of that system's nav section in nav order. Each page
becomes one chapter (``<section id="<kapitel>">``, headings one level down); every id in it is
prefixed with the chapter (``kolosse--marker``), so all anchors stay unique; links to a page or
anchor of the same system point into the print page, all other links are made relative to the
print page. URLs are never built by hand: everything is resolved from ``page.url``, so the
pages work with and without ``use_directory_urls`` (the offline export). Roll helpers are
replaced by a link to the helper on its normal page; print pages stay out of the search.

Documented MkDocs events only:
- ``on_config``: adds the stylesheet (print rules and small layout fixes);
- ``on_files``: adds the print pages and the stylesheet;
- ``on_nav``: records each system's pages in nav order;
- ``on_page_content``: keeps the rendered HTML of every page;
- ``on_page_context``: fills each print page (all pages are rendered by then).
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url
from mkdocs.utils.templates import TemplateContext

ASSETS = Path(__file__).resolve().parent
STYLESHEET = "assets/regelwerk-druck/druck.css"
MARKER = "<!-- regelwerk-druck: kapitel -->"
TITLE = re.compile(r"^#\s+(.+?)(?:\s+\{[^}]*\})?\s*$", re.MULTILINE)
ID_ATTR = re.compile(r'(\s(?:id|for|name))="([^"]*)"')
IDREF_ATTR = re.compile(r'(\s(?:aria-labelledby|aria-describedby|aria-controls))="([^"]*)"')
HREF_ATTR = re.compile(r'(\shref)="([^"]*)"')
HEADING = re.compile(r"<(/?)h([1-6])\b")
HELPER = re.compile(r'<section class="rw-helper[^"]*"[^>]*\bid="([^"]*)"')
HELPER_TITLE = re.compile(r'<p class="rw-title"[^>]*>(.*?)</p>', re.DOTALL)
TAG = re.compile(r"<[^>]+>")


class DruckConfig(Config):  # type: ignore[no-untyped-call]
    datei = config_options.Type(str, default="druck.md")


def chapter_id(page: Page) -> str:
    stem = Path(page.file.src_uri).stem
    return "uebersicht" if stem == "index" else stem


def url_key(url: str) -> str:
    """A site-absolute page path, the same with and without directory URLs."""
    path = "/" + url.lstrip("/")
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def _end_of_helper(text: str, start: int) -> int:
    """End of the helper that starts at ``start`` (its root section holds no other section)."""
    end = text.find("</section>", start)
    if end < 0:
        raise PluginError("regelwerk-druck: Würfelhelfer ohne schließendes </section>")
    return end + len("</section>")


def replace_helpers(text: str, page_href: str) -> str:
    """Roll helpers are forms for the screen: on paper, a link to the helper instead."""
    while match := HELPER.search(text):
        end = _end_of_helper(text, match.start())
        block = text[match.start() : end]
        found = HELPER_TITLE.search(block)
        title = TAG.sub("", found.group(1)).strip() if found else "Würfelhelfer"
        href = html.escape(f"{page_href}#{match.group(1)}")
        # data-rw-href: kept out of the link rewriting, turned into href afterwards
        note = f'<p class="rw-druck-helfer"><a data-rw-href="{href}">{title}</a> (online)</p>'
        text = text[: match.start()] + note + text[end:]
    return text


class Chapters:
    """Rewrites one page's HTML into a chapter of a print page."""

    def __init__(self, print_page: Page, pages: list[Page]) -> None:
        self.print_url = print_page.url
        self.targets = {url_key(page.url): chapter_id(page) for page in pages}

    def rewrite(self, page: Page, content: str) -> str:
        chapter = chapter_id(page)
        content = replace_helpers(content, get_relative_url(page.url, self.print_url))
        content = ID_ATTR.sub(lambda m: f'{m.group(1)}="{chapter}--{m.group(2)}"', content)
        content = IDREF_ATTR.sub(
            lambda m: (
                m.group(1) + '="' + " ".join(f"{chapter}--{v}" for v in m.group(2).split()) + '"'
            ),
            content,
        )
        content = HREF_ATTR.sub(
            lambda m: f'{m.group(1)}="{html.escape(self.link(page, html.unescape(m.group(2))))}"',
            content,
        )
        content = content.replace("<a data-rw-href=", "<a href=")
        return HEADING.sub(lambda m: f"<{m.group(1)}h{min(int(m.group(2)) + 1, 6)}", content)

    def link(self, page: Page, href: str) -> str:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            return href
        if not parts.path and not parts.query:
            return f"#{chapter_id(page)}--{parts.fragment}" if parts.fragment else href
        target = posixpath.normpath(posixpath.join(posixpath.dirname("/" + page.url), parts.path))
        if parts.path.endswith("/") and not target.endswith("/"):
            target += "/"
        chapter = self.targets.get(url_key(target))
        if chapter is not None and not parts.query:
            return f"#{chapter}--{parts.fragment}" if parts.fragment else f"#{chapter}"
        relative = get_relative_url(target.lstrip("/") or ".", self.print_url)
        if parts.path.endswith("/") and not relative.endswith("/"):
            relative += "/"
        query = f"?{parts.query}" if parts.query else ""
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        return relative + query + fragment


class PrintPagesPlugin(BasePlugin[DruckConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.sections: dict[str, list[Page]] = {}
        self.rendered: dict[str, str] = {}
        self.print_pages: set[str] = set()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if STYLESHEET not in config.extra_css:
            config.extra_css.append(STYLESHEET)
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        self.print_pages = set()
        for file in list(files.documentation_pages()):
            parts = file.src_uri.split("/")
            if len(parts) != 2 or parts[1] != "index.md":
                continue
            found = TITLE.search(file.content_string)
            title = found.group(1) if found else parts[0]
            src = f"{parts[0]}/{self.config.datei}"
            markdown = (
                "---\nsearch:\n  exclude: true\n---\n\n"
                f"# {title}: Druckansicht {{ #druckansicht }}\n\n"
                '<p class="rw-druck-hinweis">Alle Seiten dieses Systems in der Reihenfolge '
                "der Navigation, zum Drucken oder Speichern als PDF (Strg+P). "
                "Würfelhelfer gibt es nur online.</p>\n\n"
                f"{MARKER}\n"
            )
            files.append(File.generated(config, src, content=markdown))
            self.print_pages.add(src)
        files.append(File.generated(config, STYLESHEET, abs_src_path=str(ASSETS / "druck.css")))
        return files

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        self.sections = {}
        for item in nav.items:
            if not isinstance(item, Section):
                continue
            # the rule pages only: a Kampfhelfer page is a tool (helpers do not print)
            pages = [
                p
                for p in _pages(item)
                if p.file.src_uri not in self.print_pages
                and not p.file.src_uri.endswith("/kampfhelfer.md")
            ]
            if pages:
                system = pages[0].file.src_uri.split("/")[0]
                self.sections[f"{system}/{self.config.datei}"] = pages
        for src in self.print_pages:
            if src not in self.sections:
                raise PluginError(f"regelwerk-druck: {src} gehört zu keinem Abschnitt der nav")
        return nav

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        if page.file.src_uri not in self.print_pages:
            self.rendered[page.file.src_uri] = html
        return html

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        src = page.file.src_uri
        if src not in self.print_pages or page.content is None:
            return context
        pages = self.sections[src]
        chapters = Chapters(page, pages)
        toc = "".join(
            f'<li><a href="#{chapter_id(p)}">{html.escape(p.title or "")}</a></li>' for p in pages
        )
        body = [f'<nav class="rw-druck-inhalt" aria-label="Inhalt"><ol>{toc}</ol></nav>']
        for p in pages:
            content = chapters.rewrite(p, self.rendered[p.file.src_uri])
            body.append(
                f'<section class="rw-druck-kapitel" id="{chapter_id(p)}">{content}</section>'
            )
        if MARKER not in page.content:
            raise PluginError(f"regelwerk-druck: Platzhalter fehlt in {src}")
        page.content = page.content.replace(MARKER, "\n".join(body))
        return context


def _pages(section: Section) -> list[Page]:
    out: list[Page] = []
    for child in section.children:
        if isinstance(child, Page):
            out.append(child)
        elif isinstance(child, Section):
            out.extend(_pages(child))
    return out
