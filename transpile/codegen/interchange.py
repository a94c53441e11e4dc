"""Loop interchange for elementwise `fori_loop`s (filled in below)."""
from __future__ import annotations


def try_interchanged_for_loop(region, eqn, lower: str, upper: str):
    return None
