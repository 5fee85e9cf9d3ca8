"""The JSON boundary, the CLI and the rule data files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import api, cli
from engine.data_files import DataError, RuleData
from tests.conftest import ROOT


def test_catalog_lists_every_system_with_actions() -> None:
    """The site's systems (regeln/) in name order, then the engine's own dice rolls."""
    systems = api.catalog()["systems"]
    names = [s["name"] for s in systems]
    assert names[:-1] == sorted(names[:-1]) and len(names) > 1
    assert names[-1] == "allgemein"
    assert all(s["actions"] for s in systems)


def test_describe_is_the_form_schema() -> None:
    spec = api.describe("ryssea", "initiative")
    fighters = spec["params"][0]
    assert fighters["type"] == "list"
    assert [f["name"] for f in fighters["item"]] == [
        "name",
        "ini",
        "intuition",
        "modifier",
        "surprised",
    ]
    assert all(f["label"] for f in fighters["item"])
    assert spec["source"].startswith("000_5fbfd0ad384a0921.txt")


@pytest.mark.parametrize(
    ("system", "action", "field"),
    [("nirgendwo", "initiative", "system"), ("ryssea", "nichts", "action")],
)
def test_unknown_system_or_action(system: str, action: str, field: str) -> None:
    answer = api.run(system, action, {}, 1)
    assert not answer["ok"]
    assert answer["error"]["field"] == field
    with pytest.raises(api.EngineError):
        api.describe(system, action)


@pytest.mark.parametrize("seed", [-1, 2**53, 1.5, "abc", "²", True])
def test_bad_seed(seed: object) -> None:
    answer = api.run("ryssea", "initiative", None, seed)  # type: ignore[arg-type]
    assert answer["error"]["field"] == "seed"
    assert answer["error"]["message"].startswith("Seed:")


def test_run_json_never_raises() -> None:
    for request in ["", "[]", "{", '{"system": 3}', json.dumps({"type": "describe"})]:
        answer = json.loads(api.run_json(request))
        assert answer["ok"] is False
        assert answer["error"]["message"]


SAMPLE_FIGHTERS = {
    "fighters": [
        {"name": "Alrik", "ini": 12, "intuition": 4},
        {"name": "Bruna", "ini": 10, "intuition": 3},
    ]
}


def test_seedless_run_reports_the_seed_it_used() -> None:
    answer = api.run("ryssea", "initiative", SAMPLE_FIGHTERS)
    again = api.run("ryssea", "initiative", SAMPLE_FIGHTERS, answer["seed"])
    assert answer["result"] == again["result"]


def cli_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_cli_json_equals_api() -> None:
    out = cli_run(
        "ryssea",
        "initiative",
        "--fighters",
        "name=A,ini=10,intuition=3",
        "--fighters",
        "name=B,ini=9,intuition=3,surprised=ja",
        "--seed",
        "4",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    expected = api.run(
        "ryssea",
        "initiative",
        {
            "fighters": [
                {"name": "A", "ini": "10", "intuition": "3"},
                {"name": "B", "ini": "9", "intuition": "3", "surprised": "ja"},
            ]
        },
        4,
    )
    assert json.loads(out.stdout) == expected


def test_cli_text_and_chances_and_errors_are_german(capsys: pytest.CaptureFixture[str]) -> None:
    one = ["ryssea", "initiative", "--fighters", "name=A,ini=10,intuition=3"]
    assert cli.main([*one, "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "Reihenfolge" in text and "Seed: 1" in text
    assert cli.main([*one, "--chances"]) == 0
    chances = capsys.readouterr().out
    # the odds hold before any roll: no Wurfnummer (seed) that would suggest otherwise
    assert "100\u00a0%" in chances and "Seed" not in chances
    assert cli.main(["ryssea", "initiative", "--fighters", "name=A,ini=x"]) == 2
    assert "Kämpfer 1 – INI" in capsys.readouterr().err


def test_cli_text_says_what_a_confirmation_decided(capsys: pytest.CaptureFixture[str]) -> None:
    """004_019b513a861ec26f.txt (Pathfinder, kritische Treffer): a threat is confirmed by a
    second attack roll against the same AC – the text output says the decision, as the page
    does (engine.display ``decision``)."""
    params = '{"gab": 5, "armor_class": 15, "damage": "1W8", "staerkemodifikator": 2}'
    assert cli.main(["pathfinder", "attack", "--params", params, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("Bestätigungswurf:"))
    assert line.endswith("= 16 gegen RK 15: bestätigt – kritischer Treffer (×2)")


def test_cli_roll_prints_dice_and_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["roll", "2W6+3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2W6+3: [")
    assert "2,8\u00a0%" in out  # 1/36 for a total of 5
    assert cli.main(["roll", "2W0"]) == 2
    assert "Würfelausdruck" in capsys.readouterr().err


def test_compiled_data_is_in_step_with_yaml() -> None:
    """regeln/*.json must be regenerated after editing the YAML (make data)."""
    out = subprocess.run(
        [sys.executable, "-m", "site_plugins.compile_data", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr


def test_data_errors_name_file_and_key() -> None:
    data = RuleData("engine/data/x.yaml", {"a": {"b": "nicht-zahl"}, "c": [{"x": 1}]})
    with pytest.raises(DataError, match=r"x\.yaml: Schlüssel „a\.b“"):
        data.integer("a.b")
    with pytest.raises(DataError, match="fehlt"):
        data.text("a.nichts")
    with pytest.raises(DataError, match=r"„c\.0\.y“: fehlt"):
        data.table("c", ("x", "y"))


def test_every_data_file_loads_and_every_assumption_has_text() -> None:
    from engine.data_files import load

    for path in sorted(Path(ROOT / "engine" / "data").glob("*.json")):
        data = load(path.stem)
        for assumption in data.assumptions():
            assert len(assumption["text"]) > 20


def test_cli_help_is_german(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["ryssea", "initiative", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: ") and "Optionen:" in out and "diese Hilfe anzeigen" in out
    with pytest.raises(SystemExit):
        cli.main(["roll"])
    assert "Fehler: diese Angaben fehlen: notation" in capsys.readouterr().err


def test_cli_closed_pipe_exits_quietly() -> None:
    """Finding: ``python -m engine … --json | head`` ended in a BrokenPipeError traceback. The
    reader closes the pipe after 10 bytes; the engine must leave without a traceback."""
    for args in (["roll", "10W1000", "--json", "--seed", "1"], ["roll", "10W1000", "--seed", "1"]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "engine", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        head = proc.stdout.read(10)
        proc.stdout.close()  # like `| head -c 10`
        err = proc.stderr.read().decode()
        proc.wait(timeout=60)
        assert len(head) == 10
        assert "Traceback" not in err and "BrokenPipeError" not in err, err
        assert proc.returncode == 1


def test_cli_required_options_are_named_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    """Required fields are required options (as an option or inside --params)."""
    assert cli.main(["allgemein", "wurf", "--seed", "1"]) == 2
    assert capsys.readouterr().err == (
        "Fehler: diese Pflichtangaben fehlen: --notation (Würfelausdruck).\n"
    )
    assert cli.main(["allgemein", "wurf", "--params", '{"notation": "2W6"}', "--seed", "1"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        cli.main(["allgemein", "wurf", "--help"])
    assert "--notation WERT" in capsys.readouterr().out
    # a Ja/Nein field says which words it takes (BoolParam.validate: ja/nein), not just WERT
    with pytest.raises(SystemExit):
        cli.main(["ryssea", "fumble", "--help"])
    help_text = capsys.readouterr().out
    assert "--unmoeglich_2 ja|nein" in help_text and "--unmoeglich_2 WERT" not in help_text
    # a field with a help text keeps its label in front of it (the help alone hid what it is)
    with pytest.raises(SystemExit):
        cli.main(["ryssea", "attack", "--help"])
    attack_help = " ".join(capsys.readouterr().out.split())
    assert "--damage WERT Waffenschaden: Schaden der Waffe" in attack_help
    assert cli.main(["ryssea", "fumble", "--unmoeglich_2", "ja", "--seed", "1"]) == 0
    capsys.readouterr()
    # a field required only in a situation: the engine names the situation
    assert cli.main(["ryssea", "tickleiste", "--command", "hinzufuegen", "--name", "A"]) == 2
    assert "INI: fehlt" in capsys.readouterr().err


def test_the_engine_has_no_import_cycle() -> None:
    """No module of the engine imports one that imports it back – not even for type checking
    (issue 27, point 5: dsa/initiative.py and dsa/taktik.py did; the fighter now has a module
    of its own, dsa/fighter.py). A cycle makes the order of imports matter for a newcomer."""
    import ast
    from pathlib import Path

    root = Path(api.__file__).resolve().parent.parent
    modules = {
        ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
        for p in (root / "engine").rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    imported.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
        graph[name] = {m for m in imported if m in modules and m != name}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph[start]:
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    # a package's __init__ registering its modules is not a cycle of theirs
    cycles = [
        (a, b)
        for a in graph
        for b in graph[a]
        if reaches(b, a, {b})
        and not (a.startswith(b + ".") or b.startswith(a + "."))
        and b != "engine"
        and a != "engine"
    ]
    assert not cycles, cycles
