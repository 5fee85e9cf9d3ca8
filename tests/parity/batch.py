"""The seeded requests every parity check sends: CPython, Node from the snapshot, Chromium.

Same seed + same params ⇒ the same JSON everywhere (ARCHITECTURE: "One engine, three doors").
Defaults, varied values within the limits, and some invalid requests, for every action.
"""

from __future__ import annotations

import json
from typing import Any

from engine import api
from site_plugins.laufzeit.snapshot import parity_requests


def requests() -> list[dict[str, Any]]:
    """Seeded requests for every action: defaults, varied values, and some invalid ones (the
    build's own proof of the snapshot sends them too: site_plugins.laufzeit.snapshot)."""
    return parity_requests()


def expected(batch: list[dict[str, Any]]) -> list[str]:
    """CPython's answers, exactly as the worker's run_json writes them."""
    return [api.run_json(json.dumps(request)) for request in batch]
