"""Map a jitted function over the chunks of a large array on a local Dask cluster.

    pip install 'transpile[dask]' && python examples/dask_chunks.py

Dask pickles the jitted function to each worker process; each worker traces it (milliseconds)
and looks for the binary in the cache directory. The workers share one directory, so the C
compiler runs once for the whole cluster: the first worker to need the binary builds it under
a per-key file lock and the others find it on disk. On a real cluster, point
TRANSPILE_CACHE_DIR at a shared filesystem (see the README).
"""
import os
import sys
import tempfile
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp


@tp.jit
def smooth_step(x):
    """A clipped cubic: 0 below 0, 1 above 1, 3x^2 - 2x^3 between."""
    t = tnp.clip(x, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def reference(x):
    t = np.clip(x, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def compiled_modules(cache_dir: str) -> int:
    return sum(1 for shard in os.listdir(cache_dir) if len(shard) == 2
               for name in os.listdir(os.path.join(cache_dir, shard))
               if not name.startswith(".") and not name.endswith(".lock"))


def main():
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        sys.exit("this example needs Dask: pip install 'transpile[dask]'")
    x = np.random.default_rng(0).uniform(-0.5, 1.5, size=4_000_000)
    chunks = np.array_split(x, 16)
    # A fresh shared cache, so that the count below is this run's own.
    with tempfile.TemporaryDirectory(prefix="transpile-dask-example-") as cache_dir:
        os.environ["TRANSPILE_CACHE_DIR"] = cache_dir     # inherited by the worker processes
        with LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            started = time.perf_counter()
            results = client.gather(client.map(smooth_step, client.scatter(chunks)))
            seconds = time.perf_counter() - started
        modules = compiled_modules(cache_dir)
    y = np.concatenate(results)
    np.testing.assert_allclose(y, reference(x), rtol=1e-15, atol=0)
    print(f"{len(chunks)} chunks of {len(chunks[0]):,} float64 values on 2 worker processes "
          f"in {seconds:.2f} s: matches NumPy")
    print(f"compiled modules in the shared cache: {modules} (one signature, compiled once "
          "for the cluster)")
    assert modules == 1


if __name__ == "__main__":     # worker processes import this file; only the client runs main
    main()
