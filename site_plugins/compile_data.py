"""Compile a site's rule data: ``regeln/*.yaml`` → ``regeln/*.json``.

The YAML files are what maintainers edit; the engine (standard library only, also in Pyodide)
reads the JSON. Run ``python -m site_plugins.compile_data`` (``make data``) after editing;
``--check`` exits non-zero when a JSON file is out of date (used by the tests). ``make serve``
calls :func:`compile_all` before every build and watches the YAML files
(site_plugins/regelwerk/plugin.py), so an edit shows on the next reload.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml


def compiled(yaml_path: Path) -> str:
    content: Any = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
    if not isinstance(content, dict):
        raise SystemExit(f"{yaml_path}: oberste Ebene muss ein Objekt sein")
    return json.dumps(content, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def compile_all(check: bool = False, *, data_dir: Path) -> list[str]:
    """The JSON files that were out of date (and, unless ``check``, are now written)."""
    stale = []
    for yaml_path in sorted(data_dir.glob("*.yaml")):
        json_path = yaml_path.with_suffix(".json")
        text = compiled(yaml_path)
        current = json_path.read_text(encoding="utf-8") if json_path.exists() else None
        if current != text:
            stale.append(json_path.name)
            if not check:
                json_path.write_text(text, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regeldaten von YAML nach JSON übersetzen")
    parser.add_argument("--check", action="store_true", help="nur prüfen, nichts schreiben")
    parser.add_argument("ordner", nargs="*", type=Path, help="Regelordner der Seite (ohne: regeln)")
    args = parser.parse_args(argv)
    stale = [
        name
        for folder in args.ordner or [Path("regeln")]
        for name in compile_all(args.check, data_dir=folder)
    ]
    if args.check and stale:
        print("veraltet (make data):", ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
