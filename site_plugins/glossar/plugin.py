"""The ``regelwerk-glossar`` MkDocs plugin: abbreviations explained on every page.

``glossary.yml`` (the option ``glossary``) holds ``alle:`` (every page) and a section per
system (its folder under ``docs/``, overriding ``alle`` on that system's pages). On
``on_page_markdown`` a page gets its terms as Markdown abbreviations (``*[LeP]: Lebenspunkte``),
which Material shows as tooltips (``content.tooltips``).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_plugins.regelwerk.plugin import section_of


class GlossaryConfig(Config):  # type: ignore[no-untyped-call]
    glossary = config_options.Type(str, default="glossary.yml")


class GlossaryPlugin(BasePlugin[GlossaryConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.glossary: dict[str, dict[str, str]] = {}

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.glossary = self._load_glossary(Path(config.config_file_path).parent)
        return config

    def _load_glossary(self, base: Path) -> dict[str, dict[str, str]]:
        path = base / self.config.glossary
        if not path.exists():
            return {}
        content = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(content, dict):
            raise PluginError(f"{path}: erwartet ein Objekt je System")
        out: dict[str, dict[str, str]] = {}
        for system, terms in content.items():
            if not isinstance(terms, dict):
                raise PluginError(f"{path}: „{system}“ muss Abkürzung: Bedeutung enthalten")
            out[str(system)] = {str(k): " ".join(str(v).split()) for k, v in terms.items()}
        return out

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        section = section_of(page)
        terms = dict(self.glossary.get("alle", {}))
        terms.update(self.glossary.get(section, {}))
        if not terms:
            return markdown
        lines = [f"*[{abbr}]: {meaning}" for abbr, meaning in sorted(terms.items())]
        return markdown.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
