"""Deterministic keys and sources, and distinct outputs.

The generated source (hence the disk key) must be byte-identical in every process whatever
PYTHONHASHSEED is, or every process recompiles; the file on disk is exactly that source.
Outputs that compute the same values are still distinct arrays.
"""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

KEY_SCRIPT = textwrap.dedent('''
    import json
    import numpy as np
    import transpile as tp, transpile.numpy as tnp
    from transpile.backends import cpu
    from transpile.runtime.disk_cache import cache_key

    class Opaque:                     # default repr: "<Opaque object at 0x...>"
        __hash__ = object.__hash__

    def pick(x, names, table, opaque):
        return x * float(len(names)) + float(len(table))

    def mixed(x, y):
        return tnp.sum(tnp.where(x > 0, x, y) ** 2, axis=0), x.T @ y

    x = np.arange(12.0).reshape(3, 4)
    lowered = [
        tp.jit(pick, static_argnames=("names", "table", "opaque")).lower(
            x, names=frozenset({"alpha", "beta", "gamma", "delta", "epsilon"}),
            table=(frozenset({3, "b", 2.5}), {"k": 1}.__class__.__name__), opaque=Opaque()),
        tp.jit(mixed).lower(x, x[::-1]),
    ]
    identity = cpu.backend().compiler.identity
    print(json.dumps([{"key": cache_key(l.source, identity), "source": l.source}
                      for l in lowered]))
''')


def run_key_script(tmp_path, seed):
    script = tmp_path / "keys.py"
    script.write_text(KEY_SCRIPT)
    env = dict(os.environ, PYTHONHASHSEED=str(seed),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_keys_and_sources_identical_across_processes_and_hash_seeds(tmp_path):
    runs = [run_key_script(tmp_path, seed) for seed in (0, 12345)]
    assert runs[0] == runs[1]
    assert "frozenset({'alpha', 'beta', 'delta', 'epsilon', 'gamma'})" in runs[0][0]["source"]


def test_module_c_is_exactly_the_source_for_its_key(cache_dir):
    def cubed(x):
        return x * x * x
    f = tp.jit(cubed)
    x = np.arange(5.0)
    f(x)
    (c_file,) = cache_dir.rglob("module.c")
    first = c_file.read_bytes()
    assert first == f.lower(x).source.encode()      # no build time or other varying text
    manifest = json.loads((c_file.parent / "manifest.json").read_text())
    assert manifest["built"]["seconds"] >= 0          # build timing lives here instead


@pytest.mark.parametrize("backend", ["cpu", "interpret"])
def test_equal_outputs_are_distinct_arrays(backend, cache_dir):
    x = np.arange(6.0)
    twice = tp.jit(lambda v: (v * 2.0, v * 2.0), backend=backend)
    a, b = twice(x)
    a += 100.0
    np.testing.assert_array_equal(b, x * 2.0)

    def same_twice(v):
        y = tnp.exp(v)
        return y, y, {"again": y}
    c, d, e = tp.jit(same_twice, backend=backend)(x)
    c[0] = -1.0
    d[1] = -2.0
    np.testing.assert_array_equal(e["again"], np.exp(x))
    assert c[1] == np.exp(1.0) and d[0] == 1.0

    passthrough = tp.jit(lambda v: (v, v), backend=backend)
    p, q = passthrough(x)
    p[0] = 42.0
    assert q[0] == 0.0 and x[0] == 0.0
