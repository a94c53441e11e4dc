"""Every script in examples/ runs to completion (they check their own results)."""
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).parent.parent / "examples").glob("*.py"))
# Examples of optional integrations, and the module each needs (an extra of the package).
NEEDS = {"dask_chunks.py": "distributed"}


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script, cache_dir):
    needed = NEEDS.get(script.name)
    if needed and importlib.util.find_spec(needed) is None:
        pytest.skip(f"{script.name} needs {needed} (pip install 'transpile[dask]')")
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache_dir))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip()
