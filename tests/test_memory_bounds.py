"""The memory cache is bounded per function (least recently used out, logged under
TRANSPILE_LOG=cache), and an evicted or cleared specialisation's module is unloaded once
no call can reach it: its path leaves /proc/self/maps."""
import gc

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.api import DEFAULT_MEMORY_ENTRIES, memory_entry_limit


def mapped(path) -> bool:
    with open("/proc/self/maps") as f:
        return any(line.rstrip().endswith(str(path)) for line in f)


def so_paths(jitted):
    return {key: entry.run.so_path for key, entry in jitted._cache.entries.items()}


def test_default_limit(monkeypatch):
    monkeypatch.delenv("TRANSPILE_MEMORY_CACHE_SIZE", raising=False)
    assert memory_entry_limit() == DEFAULT_MEMORY_ENTRIES == 64
    monkeypatch.setenv("TRANSPILE_MEMORY_CACHE_SIZE", "7")
    assert memory_entry_limit() == 7


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/maps"),
                    reason="needs /proc/self/maps to see which libraries are mapped")
def test_lru_eviction_is_logged_and_unloads(cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("TRANSPILE_MEMORY_CACHE_SIZE", "2")
    monkeypatch.setenv("TRANSPILE_LOG", "cache")

    def shaped(x):
        return tnp.exp(x) + 1.0
    f = tp.jit(shaped)
    xs = [np.linspace(0, 1, n) for n in (3, 4, 5)]
    f(xs[0])
    first_so = next(iter(so_paths(f).values()))
    f(xs[1])
    f(xs[0])                                   # used again: now the most recent
    f(xs[2])                                   # evicts shape (4,), the least recently used
    assert f.cache_info().entries == 2
    assert sorted(k[0][0] for k in f._cache.entries) == [(3,), (5,)]
    log = capsys.readouterr().err
    assert log.count("evicted a specialisation of") == 1 and "(4,)" in log.split("evicted")[1]

    gc.collect()
    evicted = [p for p in (cache_dir.rglob("module.so")) if str(p) not in so_paths(f).values()]
    assert len(evicted) == 1 and not mapped(evicted[0])
    assert mapped(first_so)
    np.testing.assert_allclose(f(xs[1]), np.exp(xs[1]) + 1.0)    # back from disk

    kept = list(so_paths(f).values())
    f.clear_cache()
    gc.collect()
    assert not any(mapped(p) for p in kept)
    np.testing.assert_allclose(f(xs[0]), np.exp(xs[0]) + 1.0)
