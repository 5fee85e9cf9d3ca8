"""Reading the compiled rule data: a stale JSON says what to do (issue 27, point 3)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import data_files
from engine.data_files import DataError
from engine.errors import EngineError


def write(folder: Path, yaml_text: str, content: dict[str, object], yaml_newer: bool) -> None:
    (folder / "probe.yaml").write_text(yaml_text, encoding="utf-8")
    (folder / "probe.json").write_text(json.dumps(content), encoding="utf-8")
    stamp = 1_700_000_000
    os.utime(folder / "probe.json", (stamp, stamp))
    os.utime(folder / "probe.yaml", (stamp + (60 if yaml_newer else -60),) * 2)


def test_a_key_missing_from_a_stale_json_says_make_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The YAML has the key, the JSON compiled before the edit not: the message names the
    remedy instead of only „fehlt“ (a newcomer looked for the key in the YAML, where it is)."""
    monkeypatch.setattr(data_files, "DATA_DIR", tmp_path)
    write(tmp_path, "alt: 1\nneu: 2\n", {"alt": 1}, yaml_newer=True)
    with pytest.raises(DataError) as caught:
        data_files.load.__wrapped__("probe").raw("neu")
    assert str(caught.value) == (
        "engine/data/probe.yaml: Schlüssel „neu“: fehlt – die JSON-Datei ist älter als die "
        "YAML-Datei: make data"
    )


def test_a_key_missing_from_an_up_to_date_json_only_says_it_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data_files, "DATA_DIR", tmp_path)
    write(tmp_path, "alt: 1\n", {"alt": 1}, yaml_newer=False)
    with pytest.raises(DataError) as caught:
        data_files.load.__wrapped__("probe").raw("neu")
    assert str(caught.value) == "engine/data/probe.yaml: Schlüssel „neu“: fehlt"


def test_assume_names_an_annahme_and_refuses_a_plain_value() -> None:
    """``assume(key)`` names the Annahme at ``key`` in the result (what the rule code relied
    on); a key that is no Annahme is a mistake in the rule code, not a silent no-op (issue 27,
    point 5: an assumption API that names what it records)."""
    data = data_files.RuleData(
        "probe.json",
        {
            "gleichstand": {"wert": "wurf", "annahme": True, "text": "Gleichstand: neu würfeln"},
            "wurf": "1W20",
        },
    )
    with data_files.assumptions_used() as used:
        data.assume("gleichstand")
    assert used == ["Gleichstand: neu würfeln"]
    with pytest.raises(DataError, match="keine Annahme"):
        data.assume("wurf")


def test_the_engine_names_assumptions_with_assume_not_a_bare_read() -> None:
    """A bare ``DATA.raw("…")`` statement looks dead but records an Annahme; the engine says
    ``DATA.assume("…")`` instead (and ``assume`` checks the key is one)."""
    import ast

    engine_dir = Path(data_files.__file__).resolve().parent
    bare = []
    for path in sorted(engine_dir.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = node.value if isinstance(node, ast.Expr) else None
            func = call.func if isinstance(call, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "raw":
                bare.append(f"{path.relative_to(engine_dir)}:{node.lineno}")
    assert not bare, bare


def test_the_readers_every_system_shares() -> None:
    """One reader per kind for every system (issue 27, point 5): a dice expression whose error
    names the key, a choice the code knows, the Annahmen an action lists (by key prefix, plus a
    system's Annahme every action rests on) and ``forecast``, inside which an Annahme read for
    the odds before the roll is not named in the result."""
    data = data_files.RuleData(
        "probe.json",
        {
            "wurf": {"wert": "1W20", "annahme": True, "text": "Gewürfelt wird mit 1W20."},
            "initiative": {
                "wurf": "2W6",
                "kaputt": "2W",
                "gleichstand": {"wert": "stechen", "annahme": True, "text": "Stechen."},
            },
            "angriff": {"rundung": {"wert": "ab", "annahme": True, "text": "Abrunden."}},
        },
    )
    assert data.dice("initiative.wurf", "Initiativwurf").notation() == "2W6"
    with pytest.raises(EngineError) as bad:
        data.dice("initiative.kaputt", "Initiativwurf")
    assert bad.value.field == "initiative.kaputt"
    assert data.choice("initiative.gleichstand", ("stechen", "gleichzeitig")) == "stechen"
    with pytest.raises(DataError, match="muss eine von gleichzeitig sein, ist 'stechen'"):
        data.choice("initiative.gleichstand", ("gleichzeitig",))
    assert data.assumptions_for("initiative") == ("Stechen.",)
    assert data.assumptions_for("angriff", always=("wurf",)) == (
        "Gewürfelt wird mit 1W20.",
        "Abrunden.",
    )
    with data_files.assumptions_used() as used:
        with data_files.forecast():
            data.text("angriff.rundung")
        data.text("initiative.gleichstand")
    assert used == ["Stechen."]
