"""Where a site keeps its parts: this repository and a group's own site (made by
``regelwerk-neue-seite``) have the same layout – sources in ``quellen/``, pages in ``docs/``,
tests in ``tests/``, and the rule data in the folder the ``regelwerk`` plugin names in
``mkdocs.yml`` (``regeln:``, by convention ``regeln/``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml


class _Tolerant(yaml.SafeLoader):
    """mkdocs.yml with its tags (``!ENV``) read as plain values."""


def _untagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else None


_Tolerant.add_multi_constructor("", _untagged)


@dataclass(frozen=True)
class Layout:
    root: Path
    rules: Path  # the folder of <system>.yaml and its compiled <system>.json

    @classmethod
    def of(cls, root: Path | None = None) -> Layout:
        root = (root or Path.cwd()).resolve()
        return cls(root, _rules_folder(root))

    def shown(self, path: Path) -> str:
        """A path as a message names it: relative to the site."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def data_yaml(self, system: str) -> Path:
        return self.rules / f"{system}.yaml"

    def tests(self, system: str) -> Path:
        return self.root / "tests" / "engine" / system


def _rules_folder(root: Path) -> Path:
    config_file = root / "mkdocs.yml"
    if config_file.exists():
        config: Any = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_Tolerant)
        plugins = config.get("plugins") if isinstance(config, dict) else None
        own = plugins.get("regelwerk") if isinstance(plugins, dict) else None
        if isinstance(own, dict) and own.get("regeln"):
            return (root / str(own["regeln"])).resolve()
    return root / "regeln"


def systems_with_pages(root: Path) -> tuple[str, ...]:
    """The engine's rule systems that have pages (a folder in ``docs/``), in the engine's
    order – read, never listed: another group's system is covered without an edit."""
    import engine

    names = [system["name"] for system in engine.catalog()["systems"]]
    return tuple(name for name in names if (root / "docs" / name).is_dir())
