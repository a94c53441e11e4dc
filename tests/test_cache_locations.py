"""Unusable cache locations: a read-only directory, a path under a regular file, an entry
that cannot be replaced. Each gives correct results from memory, exactly one warning, and
no traceback. Run as separate processes (Numba style), counting warnings and files."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import json, os, sys, warnings
    import numpy as np
    import transpile as tp, transpile.numpy as tnp

    if sys.argv[1] == "read-only" and os.getuid() == 0:
        # root writes through permission bits: make the directory look read-only instead.
        real_access = os.access
        root = os.environ["TRANSPILE_CACHE_DIR"]
        os.access = lambda p, mode, **kw: False if p == root else real_access(p, mode, **kw)
    if sys.argv[1] == "unreplaceable":
        import transpile.runtime.disk_cache as dc
        real_rename = os.rename
        def rename(src, dst, **kw):
            if os.path.basename(src).startswith(".build-"):
                raise OSError(39, "Directory not empty", dst)
            return real_rename(src, dst, **kw)
        dc.os = type(os)("os_view")
        dc.os.__dict__.update(os.__dict__, rename=rename)

    x = np.arange(6.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = []
        for k in range(3):
            def f(v, k=k):
                return tnp.sum(v * 2.0) + k
            results.append(float(tp.jit(f)(x)))
    print(json.dumps({"results": results, "warnings": [str(w.message) for w in caught]}))
''')


def run(tmp_path, cache, case):
    script = tmp_path / "locations.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, str(script), case], env=env, timeout=120,
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("case", ["read-only", "under a file", "unreplaceable"])
def test_unusable_location_computes_from_memory_with_one_warning(case, tmp_path):
    cache = tmp_path / "cache"
    if case == "read-only":
        cache.mkdir(mode=0o700)
        cache.chmod(0o500)
    elif case == "under a file":
        (tmp_path / "a_file").write_text("not a directory")
        cache = tmp_path / "a_file" / "cache"
    out = run(tmp_path, cache, case)
    assert out["results"] == [30.0, 31.0, 32.0]
    assert len(out["warnings"]) == 1, out["warnings"]
    assert all("memory" in w or "private copy" in w for w in out["warnings"]), out["warnings"]
    if case == "read-only":
        assert list(cache.iterdir()) == []
        cache.chmod(0o700)
    if case == "unreplaceable":                  # nothing half-published is left behind
        assert not list(cache.rglob("manifest.json"))
        assert not [p for p in cache.rglob(".build-*")]
