"""The jax.numpy / jax.lax functions and fixes of issue #19 against JAX's recorded values
(tests/jax_extras_cases.py, tools/record_jax_extras.py): under JAX's dtype rules with x64
on, eagerly and under jit (one C build per group of cases, not per case)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
from jax_extras_cases import GROUPS
from transpile.config import config
from recorded_leaves import assert_leaves_like

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_extras.json").read_text())["cases"]


@pytest.fixture(autouse=True, scope="module")
def jax_rules_with_x64():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        yield


def assert_like_jax(result, name):
    assert_leaves_like(result, RECORDED[name], name)


def _cases(group):
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        return group(tnp, tlax)


CASES = {name: case for group in GROUPS for name, case in _cases(group).items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_jax(name):
    make, args, _ = CASES[name]
    assert_like_jax(make(*args), name)


@pytest.fixture(scope="module")
def jitted():
    """Each group's jittable cases as one jitted program."""
    results = {}
    for group in GROUPS:
        table = {n: c for n, c in _cases(group).items() if c[2]}

        def run_all(arguments, table=table):
            return {n: table[n][0](*arguments[n]) for n in table}
        results.update(tp.jit(run_all)({n: c[1] for n, c in table.items()}))
    return results


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c[2]))
def test_jit_matches_jax(name, jitted):
    assert_like_jax(jitted[name], name)
