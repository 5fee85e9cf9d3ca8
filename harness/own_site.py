"""A group's own rulebook site: a new folder with only its rules, on the generator as a package.

    regelwerk-neue-seite ORDNER --name NAME --quelle TEXT.txt [--titel "System"]
                         [--seitentitel "Regelwerk der …"] [--paket SPEC]

Writes a complete site repository into ``ORDNER`` (new or empty, outside this repository): its
README with the two commands (``make site``, ``make test``), ``Makefile``, ``requirements.txt``
(the generator ``regelwerk`` at one version: ``--paket``, by default where this generator was
installed from, at its commit), ``mkdocs.yml`` and ``mkdocs-offline.yml``, the start page,
``glossary.yml``, ``quellen/``, ``tests/`` (the whole site through :mod:`harness.check`), the
CI and GitHub Pages workflows – then adds the group's first system from its text with
:mod:`harness.scaffold` (``regeln/NAME.yaml``, ``docs/NAME/``, ``tests/engine/NAME/``). None of
this repository's systems goes with it.

    python -m harness.own_site npm

(in a site's folder, called by its ``Makefile``): writes ``package.json`` and
``package-lock.json`` of the installed generator – the npm packages its build runs (Pyodide,
rollup, Workbox) in the versions it was made with – so an update of the generator is one
changed version in ``requirements.txt``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from harness.scaffold import NAME, ScaffoldError, scaffold

TEMPLATE = Path(__file__).resolve().parent / "own_site"
NPM_PINS = Path(__file__).resolve().parent.parent / "site_plugins" / "npm"
DISTRIBUTION = "regelwerk"


class OwnSiteError(Exception):
    pass


def package_spec() -> str:
    """Where this generator comes from, pinned: the git checkout it runs from
    (``git+file://…@<commit>``), else where it was installed from (PEP 610
    ``direct_url.json``: a git URL at its commit)."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / ".git").exists():
        return _checkout_spec(checkout)
    try:
        raw = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        raw = None
    if raw:
        origin = json.loads(raw)
        url = str(origin.get("url", ""))
        vcs = origin.get("vcs_info") or {}
        if vcs.get("commit_id"):
            return f"{url if url.startswith('git+') else 'git+' + url}@{vcs['commit_id']}"
        if url.startswith("file://"):
            return _checkout_spec(Path(url.removeprefix("file://")))
        return url
    raise OwnSiteError(
        "woher der Generator kommt, ist nicht bekannt – bitte --paket angeben "
        "(git+https://…/regelwerk.git@<stand>)"
    )


def _checkout_spec(folder: Path) -> str:
    """A local git checkout of the generator at its current commit."""
    commit = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    if not commit:
        raise OwnSiteError(f"{folder}: kein git-Stand – bitte --paket angeben")
    return f"git+file://{folder}@{commit}"


def guide_address(package: str) -> str:
    """Where the group reads the generator's guide (CONTRIBUTING.md) at the pinned state: on
    the web for a GitHub or GitLab URL, else in the checkout the spec names."""
    spec = package.removeprefix("git+")
    where, _, state = spec.rpartition("@") if "@" in spec.split("//", 1)[-1] else (spec, "", "")
    where = where or spec
    if where.startswith("file://"):
        return f"{where.removeprefix('file://')}/CONTRIBUTING.md"
    base = where.removesuffix(".git")
    if state and (base.startswith("https://github.com/") or base.startswith("https://gitlab")):
        separator = "/-/blob/" if "gitlab" in base else "/blob/"
        return f"{base}{separator}{state}/CONTRIBUTING.md"
    return f"{base} (CONTRIBUTING.md)"


def create(
    folder: Path,
    name: str,
    source: Path,
    title: str,
    site_title: str,
    package: str,
) -> list[Path]:
    """The new site in ``folder``; returns the files written."""
    folder = folder.resolve()
    if not NAME.fullmatch(name):
        raise OwnSiteError(f"--name: „{name}“ – nur a–z, 0–9 und _, mit einem Buchstaben vorn")
    if not source.is_file():
        raise OwnSiteError(f"--quelle: {source} gibt es nicht")
    if folder.exists() and any(folder.iterdir()):
        raise OwnSiteError(f"{folder}: der Ordner ist nicht leer")
    generator = Path(__file__).resolve().parent.parent
    if folder.is_relative_to(generator):
        raise OwnSiteError(f"{folder}: liegt im Generator ({generator}) – ein Ordner außerhalb")
    if any(ch in site_title for ch in "\n\"'"):
        raise OwnSiteError("--seitentitel: ohne Anführungszeichen und Zeilenumbrüche")
    values = {
        "@@seitentitel@@": site_title,
        "@@name@@": name,
        "@@titel@@": title,
        "@@paket@@": package,
        "@@anleitung@@": guide_address(package),
    }
    written: list[Path] = []
    for template in sorted(TEMPLATE.rglob("*")):
        if template.is_dir() or "__pycache__" in template.parts:
            continue
        target = folder / template.relative_to(TEMPLATE)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = template.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        target.write_text(text, encoding="utf-8")
        target.chmod(template.stat().st_mode & 0o777)
        written.append(target)
    (folder / "regeln").mkdir(exist_ok=True)
    written += scaffold(folder, name, source, title)
    return written


def write_npm_pins(folder: Path) -> bool:
    """``package.json`` and ``package-lock.json`` of the installed generator into ``folder``
    (True when they changed)."""
    changed = False
    for name in ("package.json", "package-lock.json"):
        pinned = (NPM_PINS / name).read_bytes()
        target = folder / name
        if not target.exists() or target.read_bytes() != pinned:
            target.write_bytes(pinned)
            changed = True
    return changed


def main_new(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="regelwerk-neue-seite",
        description="Eine eigene Regelwerk-Seite in einem neuen Ordner, nur mit den eigenen Regeln",
    )
    parser.add_argument("ordner", type=Path, help="der neue Ordner (leer oder noch nicht da)")
    parser.add_argument("--name", required=True, help="Schlüssel des ersten Systems: a–z, 0–9, _")
    parser.add_argument("--quelle", required=True, type=Path, help="sein Regeltext (UTF-8)")
    parser.add_argument("--titel", default="", help="Name des Systems auf den Seiten")
    parser.add_argument("--seitentitel", default="Regelwerk", help="Titel der ganzen Seite")
    parser.add_argument(
        "--paket",
        default="",
        help="woher die Seite den Generator installiert, mit Stand (git+https://…@v0.2.0); "
        "ohne: woher dieser installiert wurde",
    )
    args = parser.parse_args(argv)
    title = args.titel or args.name.replace("_", " ").title()
    try:
        package = args.paket or package_spec()
        written = create(args.ordner, args.name, args.quelle, title, args.seitentitel, package)
    except (OwnSiteError, ScaffoldError, OSError) as error:
        print(f"Fehler: {error}", file=sys.stderr)
        return 1
    folder = args.ordner.resolve()
    print(f"Neue Seite in {folder} ({len(written)} Dateien), Generator: {package}")
    print(f"Weiter: cd {folder} && make site && make test – dann README.md, „Vom Text …“")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Werkzeuge einer eigenen Regelwerk-Seite")
    parser.add_argument("befehl", choices=["npm"], help="npm: die npm-Pakete des Generators")
    args = parser.parse_args(argv)
    if args.befehl == "npm":
        changed = write_npm_pins(Path.cwd())
        print("package.json und package-lock.json " + ("geschrieben" if changed else "aktuell"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
