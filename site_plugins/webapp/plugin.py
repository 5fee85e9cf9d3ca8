"""The ``regelwerk-webapp`` MkDocs plugin: the site as an installable web app that works offline
after one visit – manifest, icons, service worker (:mod:`site_plugins.webapp.pwa`, Workbox from
the site's npm packages).

Online builds only: ``mkdocs serve`` gets a service worker that removes itself, the offline
export (``offline: true`` in ``mkdocs-offline.yml``, opened from ``file://``) none at all.
``on_post_build`` runs after the policy is in every page (regelwerk-csp), so the service
worker's list holds the pages as they are served.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_plugins.webapp import pwa


class WebAppConfig(Config):  # type: ignore[no-untyped-call]
    offline = config_options.Type(bool, default=False)


class WebAppPlugin(BasePlugin[WebAppConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.serve = False
        self.theme_color = ""
        self.figures: dict[str, Any] = {}

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serve = command == "serve"

    @property
    def active(self) -> bool:
        """Manifest and service worker: the online build only (not file://, not serve)."""
        return not self.config.offline and not self.serve

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if self.active:
            try:
                self.theme_color = pwa.theme_color(config)
            except pwa.PwaError as error:
                raise PluginError(f"regelwerk-webapp: {error}") from error
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        if self.active:
            pwa.add_files(files, config)
        return files

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        return self._head(output, pwa.page_root(page.url), config)

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str:
        if not template_name.endswith(".html"):
            return output_content
        return self._head(output_content, pwa.site_root(config), config)

    def _head(self, html: str, root: str, config: MkDocsConfig) -> str:
        if not self.active or "</head>" not in html:
            return html
        tags = pwa.head_tags(root, self.theme_color, config)
        return html.replace("</head>", f"{tags}\n</head>", 1)

    @event_priority(-110)  # after the policy is written into every page (regelwerk-csp)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.serve:
            pwa.write_unregister(Path(config.site_dir))
        elif self.active:
            try:
                self.figures = pwa.build(Path(config.site_dir), config)
            except pwa.PwaError as error:
                raise PluginError(f"regelwerk-webapp: Service Worker, Icons: {error}") from error
