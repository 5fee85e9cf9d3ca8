"""The ``regelwerk-csp`` MkDocs plugin: a strict Content Security Policy on every page.

Runs after every other plugin has written a page (``on_post_page`` / ``on_post_template`` with
a low priority): the page gets the policy's placeholder as the first element of its
``<head>``, and the hashes of its inline scripts (what the runtime, the web app and Material
put there) are collected. ``on_post_build``, after every plugin has written its files, puts the
finished policy (:mod:`site_plugins.csp.policy`) into every page. ``offline: true``
(``mkdocs-offline.yml``): the policy of the ``file://`` export – WebAssembly compiled from
bytes, the engine worker from a Blob, the iframe that Material's search runs in (the shim's
script, option ``shim``).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.pages import Page

from site_plugins.csp import policy as csp


class CspConfig(Config):  # type: ignore[no-untyped-call]
    offline = config_options.Type(bool, default=False)
    shim = config_options.Type(str, default="node_modules/iframe-worker/shim/index.js")


class CspPlugin(BasePlugin[CspConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.script_hashes: set[str] = set()
        self.shim_source = ""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.script_hashes = set()
        if self.config.offline:
            shim = Path(config.config_file_path).parent / self.config.shim
            self.shim_source = shim.read_text(encoding="utf-8") if shim.exists() else ""
        return config

    @event_priority(-90)  # after the plugins that add inline scripts to the <head>
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        return self._prepare(output)

    @event_priority(-90)
    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str:
        if not template_name.endswith(".html"):
            return output_content
        return self._prepare(output_content)

    def _prepare(self, html: str) -> str:
        if "</head>" not in html:
            return html
        try:
            self.script_hashes |= csp.inline_script_hashes(html)
            worker = csp.search_worker_url(html)
            if self.config.offline and worker:
                self.script_hashes.add(csp.shim_script_hash(self.shim_source, worker))
            return csp.with_placeholder(html)
        except csp.CspError as error:
            raise PluginError(f"regelwerk-csp: {error}") from error

    @event_priority(-100)  # after every other plugin has written its pages
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        text = csp.policy(self.script_hashes, offline=self.config.offline)
        csp.write_policy(Path(config.site_dir), text)
