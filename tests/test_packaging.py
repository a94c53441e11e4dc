"""The installed package holds every subpackage and runtime file of the source tree (a
subpackage missing from pyproject's list works in a checkout but not when installed)."""
from __future__ import annotations

import os

import pytest

tomllib = pytest.importorskip("tomllib")   # Python 3.11+

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _setuptools_config():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]


def test_every_subpackage_is_listed():
    listed = set(_setuptools_config()["packages"])
    found = {os.path.relpath(d, ROOT).replace(os.sep, ".")
             for d, _, files in os.walk(os.path.join(ROOT, "transpile")) if "__init__.py" in files}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert "transpile.runtime" in listed


def test_every_runtime_file_is_package_data():
    patterns = _setuptools_config()["package-data"]["transpile.runtime"]
    runtime = os.path.join(ROOT, "runtime")
    for name in os.listdir(os.path.join(runtime, "include")):
        assert "include/*.h" in patterns and name.endswith(".h"), name
    extras = [n for n in os.listdir(runtime) if not n.endswith((".py", ".pyc"))
              and os.path.isfile(os.path.join(runtime, n))]
    assert set(extras) <= set(patterns), "add these runtime files to package-data"
