"""A jitted function as a Dask task on a process-based LocalCluster: NumPy's results, and with
the workers sharing one cache directory, each signature compiles once per cluster."""
import dataclasses
import os

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed "
                                  "(pip install 'transpile[dask]')")


@tp.jit
def softplus(x):
    return tnp.log1p(tnp.exp(-tnp.abs(x))) + tnp.maximum(x, 0)


def reference(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


SIGNATURES = [np.zeros(1000, np.float32), np.zeros(1000, np.float64)]


def trace_every_signature():
    """Runs on each worker: every worker then holds every signature (memory or disk)."""
    for x in SIGNATURES:
        softplus(x)
    return dataclasses.asdict(softplus.cache_info())


def cache_entries(root):
    return sorted(name for shard in os.listdir(root) if len(shard) == 2
                  for name in os.listdir(os.path.join(root, shard))
                  if not name.startswith(".") and not name.endswith(".lock"))


def test_client_map_on_a_process_cluster_compiles_each_signature_once(cache_dir):
    cache_dir.mkdir()                        # workers inherit TRANSPILE_CACHE_DIR from here
    rng = np.random.default_rng(0)
    chunks = [rng.standard_normal(1000).astype(SIGNATURES[i % 2].dtype) * 10
              for i in range(12)]
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        results = client.gather(client.map(softplus, chunks))
        infos = list(client.run(trace_every_signature).values())
    for chunk, result in zip(chunks, results):
        assert result.dtype == chunk.dtype
        np.testing.assert_allclose(result, reference(chunk), rtol=2e-6 if chunk.dtype ==
                                   np.float32 else 1e-14)
    assert len(infos) == 2
    total = {field: sum(info[field] for info in infos) for field in infos[0]}
    # Each worker traced each of the two signatures once...
    assert total["misses"] == 4 and all(info["entries"] == 2 for info in infos)
    # ...but the cluster ran the compiler once per signature: the rest were disk hits.
    assert total["disk_misses"] == 2 and total["disk_hits"] == 2
    assert len(cache_entries(cache_dir)) == 2
