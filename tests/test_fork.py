"""Processes: a jitted function used in the parent (so OpenMP's thread pool has started)
still works in children started with fork, forkserver and spawn, and in the parent after.
Each start method runs in a separate Python process; a hang fails by timeout."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import json, multiprocessing, sys
    import numpy as np
    import transpile as tp, transpile.numpy as tnp

    def doubled_sum(x):
        return tnp.sum(x * 2.0)

    f = tp.jit(doubled_sum)
    X = np.ones(1 << 20)          # large enough for a parallel OpenMP loop

    def child(i):
        return float(f(X + i))

    if __name__ == "__main__":
        before = float(f(X))
        with multiprocessing.get_context(sys.argv[1]).Pool(2) as pool:
            children = pool.map(child, range(4))
        after = float(f(X + 1))
        print(json.dumps({"before": before, "children": children, "after": after}))
''')


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_children_compute_after_the_parent_used_openmp(method, tmp_path, cache_dir):
    script = tmp_path / "pool_script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache_dir), OMP_NUM_THREADS="2",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    try:
        proc = subprocess.run([sys.executable, str(script), method], env=env, timeout=120,
                              capture_output=True, text=True, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a pool started with {method!r} after OpenMP ran in the parent hung")
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    n = 1 << 20
    assert out["before"] == 2.0 * n
    assert out["children"] == [2.0 * n * (1 + i) for i in range(4)]
    assert out["after"] == 4.0 * n
