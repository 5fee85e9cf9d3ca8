"""Reading the compiled rule data: a stale JSON says what to do (issue 27, point 3)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import data_files
from engine.data_files import DataError


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
