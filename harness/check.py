"""The quick check for one rule system (``make check-system NAME=…``): well under a minute.

    .venv/bin/python -m harness.check NAME      # in the site's folder (this one or a group's)

1. its data compiles (YAML in step with JSON; the declared actions load);
2. every action describes itself and rolls – with the form's sample values, over the JSON
   boundary (``run_json``) and on the command line – and a roll with dice shows them;
3. its tests in ``tests/engine/NAME/`` (the odds against an enumeration of every face);
4. its pages build (``mkdocs build --strict`` into a temporary folder): the Kampfhelfer page
   has a helper for every action it names and the print page („Druckansicht“) exists;
5. its source text stands word for word on its pages – the rule of ``tests/site/test_fidelity.py``
   (same sentences, same threshold), so a page that passes here does not fail ``make test``.

Prints one line per step; exits non-zero at the first failure, with what failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.fidelity import THRESHOLD, source_sentences, visible_text
from harness.layout import Layout


class CheckFailed(Exception):
    pass


def step(title: str, started: float) -> None:
    print(f"ok  {title} ({time.monotonic() - started:.1f} s)", flush=True)


def sample(field: dict[str, Any]) -> Any:
    return field["default"]


def check_engine(name: str) -> int:
    from engine import api, cli

    systems = {s["name"]: s for s in api.catalog()["systems"]}
    if name not in systems:
        raise CheckFailed(f"{name}: kein System der Engine (bekannt: {', '.join(systems)})")
    count = 0
    for action in systems[name]["actions"]:
        spec = api.describe(name, action["name"])
        params = {f["name"]: sample(f) for f in spec["params"] if f["type"] != "state"}
        for seed in range(20):
            request = {"system": name, "action": action["name"], "params": params, "seed": seed}
            answer = json.loads(api.run_json(json.dumps(request)))
            if not answer["ok"]:
                raise CheckFailed(f"{name}.{action['name']}: {answer['error']['message']}")
            display = answer["result"]["display"]
            if not display.get("headline"):
                raise CheckFailed(f"{name}.{action['name']}: Ergebnis ohne Überschrift")
            count += 1
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = cli.main([name, action["name"], "--seed", "1", "--json", *_cli_args(params)])
        if code == 0 and json.loads(printed.getvalue())["ok"] is not True:
            code = 1
        if code != 0:
            raise CheckFailed(f"{name}.{action['name']}: Kommandozeile endet mit {code}")
    # the fight: its contract at the boundary, and a state for each value at its limits
    answer = json.loads(api.run_json(json.dumps({"type": "fight", "system": name})))
    if not answer["ok"]:
        raise CheckFailed(f"{name}: Kampf (kampf:): {answer['error']['message']}")
    for value in answer["fight"]["values"]:
        for limit in (value["min"], value["max"]):
            request = {"type": "state", "system": name, "values": {value["name"]: limit}}
            state = json.loads(api.run_json(json.dumps(request)))
            if not state["ok"]:
                raise CheckFailed(f"{name}: Zustand bei {value['name']} = {limit}: {state}")
    return count


def life_value_hints(layout: Layout, name: str) -> list[str]:
    """What the fight will not do that a group may expect: a declared damage without
    ``ressource`` rolls its damage, but the Kampfhelfer page takes nothing off a life value."""
    data = json.loads((layout.rules / f"{name}.json").read_text(encoding="utf-8"))
    return [
        f"Hinweis: aktionen.{action}: Schaden ohne `ressource` – er wird gewürfelt, aber die "
        "Kampfhelfer-Seite zieht ihn von keinem Lebenswert ab (CONTRIBUTING.md, Art `schaden`)"
        for action, spec in (data.get("aktionen") or {}).items()
        if isinstance(spec, dict) and spec.get("art") == "schaden" and "ressource" not in spec
    ]


def _cli_args(params: dict[str, Any]) -> list[str]:
    return ["--params", json.dumps(params)] if params else []


def check_pages(layout: Layout, name: str) -> None:
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        proc = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", out],
            cwd=layout.root,
            capture_output=True,
            text=True,
            env=env,
        )
        if proc.returncode:
            raise CheckFailed("mkdocs build --strict:\n" + proc.stderr[-3000:])
        page = Path(out) / name / "kampfhelfer" / "index.html"
        if not page.exists():
            raise CheckFailed(f"docs/{name}/kampfhelfer.md: Seite fehlt im Build")
        html = page.read_text(encoding="utf-8")
        source = (layout.root / "docs" / name / "kampfhelfer.md").read_text(encoding="utf-8")
        named = {
            line.split(":", 1)[1].strip()
            for line in source.splitlines()
            if line.strip().startswith("aktion:")
        }
        for action in sorted(named):
            if f'data-action="{action}"' not in html:
                raise CheckFailed(f"Kampfhelfer: kein Helfer für {action}")
        if not (Path(out) / name / "druck" / "index.html").exists():
            raise CheckFailed(f"Druckansicht fehlt: „Druckansicht: {name}/druck.md“ in mkdocs.yml")
        data = json.loads((layout.rules / f"{name}.json").read_text(encoding="utf-8"))
        quelle = source_file(layout, data, name)
        check_wording(layout.root / "quellen" / quelle, Path(out) / name, name)


def source_file(layout: Layout, data: dict[str, Any], name: str) -> str:
    """The source text's file name: ``system: {quelle}`` (a system in YAML, make system) or
    ``quelle`` beside ``system: <name>`` (the Python systems' data files)."""
    head = data.get("system")
    quelle = head.get("quelle") if isinstance(head, dict) else data.get("quelle")
    if not isinstance(quelle, str) or not (layout.root / "quellen" / quelle).is_file():
        raise CheckFailed(
            f"{layout.shown(layout.data_yaml(name))}: Schlüssel „system.quelle“: muss der Name "
            f"des Quelltexts unter quellen/ sein (make system trägt ihn ein), nicht {quelle!r}"
        )
    return quelle


def check_wording(source: Path, pages: Path, name: str) -> int:
    """Every sentence of ``source`` on the built pages under ``pages`` (as ``make test``)."""
    text = "\n".join(
        visible_text(page.read_text(encoding="utf-8")) for page in sorted(pages.rglob("*.html"))
    )
    sentences = source_sentences(source)
    missing = [s for s in sentences if s not in text]
    if len(missing) > (1 - THRESHOLD) * len(sentences):
        listed = "\n".join(f"  – {s}" for s in missing[:10])
        more = f"\n  … und {len(missing) - 10} weitere" if len(missing) > 10 else ""
        raise CheckFailed(
            f"Wortlaut: {len(missing)} von {len(sentences)} Sätzen aus quellen/{source.name} "
            f"stehen nicht wörtlich auf den Seiten von docs/{name}/:\n{listed}{more}\n"
            "Jeder Satz des Quelltexts bleibt Wort für Wort stehen (Struktur darf sich ändern). "
            "Eine regeltabelle zeigt nur die Zellen der Tabelle – steht im Text „1: …“ oder "
            "„1–2 …“ vor einer Zeile, bleibt die Zeile so auf der Regelseite "
            "(CONTRIBUTING.md, „Ein Regelsystem in YAML“, Schritt 2)."
        )
    return len(sentences)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Schnelle Prüfung eines Regelsystems")
    parser.add_argument("name", help="Systemschlüssel (Ordner unter docs/)")
    args = parser.parse_args(argv)
    return check(Layout.of(), args.name)


def check(layout: Layout, name: str) -> int:
    """The five steps for ``name`` in the site ``layout``; 0 when all passed."""
    began = started = time.monotonic()
    rules = [str(layout.rules)]
    try:
        compiled = subprocess.run(
            [sys.executable, "-m", "site_plugins.compile_data", "--check", *rules],
            cwd=layout.root,
        )
        if compiled.returncode:
            raise CheckFailed("Regeldaten veraltet: make data")
        step("Regeldaten übersetzt", started)
        started = time.monotonic()
        from engine import systems

        systems.use_rules(layout.rules)
        rolls = check_engine(name)
        step(
            f"Aktionen beschreiben sich und würfeln ({rolls} Würfe, JSON und Kommandozeile)",
            started,
        )
        for hint in life_value_hints(layout, name):
            print(f"    {hint}", flush=True)
        started = time.monotonic()
        folder = layout.tests(name)
        if not folder.is_dir():
            raise CheckFailed(f"{layout.shown(folder)}/ fehlt (make system legt Tests an)")
        tests = [str(folder)]
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
            cwd=layout.root,
            capture_output=True,
            text=True,
        )
        if proc.returncode:
            raise CheckFailed("Tests:\n" + proc.stdout[-3000:])
        step(
            f"Wahrscheinlichkeiten gegen Aufzählung ({proc.stdout.strip().splitlines()[-1]})",
            started,
        )
        started = time.monotonic()
        check_pages(layout, name)
        step(
            "Seiten gebaut (Kampfhelfer mit jedem Helfer, Druckansicht, Wortlaut der Quelle)",
            started,
        )
    except CheckFailed as error:
        print(f"FEHLER: {error}", file=sys.stderr)
        return 1
    print(f"{name}: alles in Ordnung ({time.monotonic() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
