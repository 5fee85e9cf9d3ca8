"""Compile the engine's rule data: ``engine/data/*.yaml`` → ``engine/data/*.json``.

The YAML files are what maintainers edit; the engine (standard library only, also in Pyodide)
reads the JSON. Run ``python -m site_plugins.compile_data`` (``make data``) after editing;
``--check`` exits non-zero when a JSON file is out of date (used by the tests).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "data"


def compiled(yaml_path: Path) -> str:
    content: Any = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
    if not isinstance(content, dict):
        raise SystemExit(f"{yaml_path}: oberste Ebene muss ein Objekt sein")
    return json.dumps(content, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regeldaten von YAML nach JSON übersetzen")
    parser.add_argument("--check", action="store_true", help="nur prüfen, nichts schreiben")
    args = parser.parse_args(argv)
    stale = []
    for yaml_path in sorted(DATA_DIR.glob("*.yaml")):
        json_path = yaml_path.with_suffix(".json")
        text = compiled(yaml_path)
        current = json_path.read_text(encoding="utf-8") if json_path.exists() else None
        if current != text:
            stale.append(json_path.name)
            if not args.check:
                json_path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("veraltet (make data):", ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
