"""The runtime library (issue 22): GEMM, sorts, factorizations and scatters are compiled once
into a cached shared library that modules link against, instead of into every module.

What is checked: which header a module includes (declarations, the small-product loops, or
the definitions for exports); answers through the library; that the library is built once
per machine (two racing processes, then a third, share one build; a damaged copy is found
and rebuilt); that its key follows the compiler's flags; `transpile cache warm`; and that
the size cap never evicts it; an untrusted cache directory gets a private, unkept build.
Builds of the library itself happen in subprocesses, most sharing one cache directory, so
the module pays for one build, one rebuild and one private build."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.runtime import runtime_library
from transpile.runtime.compiler import CCompiler
from transpile.runtime.disk_cache import cache_key

from conftest import assert_same

pytestmark = pytest.mark.skipif(CCompiler.from_environment() is None,
                                reason="the runtime library is built with a C compiler")

BUILT = "built the runtime library"


def _product(a, b):
    return a @ b


# -- what a module includes -----------------------------------------------------------------

def test_a_large_product_calls_the_library_and_holds_no_gemm():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 80)), rng.standard_normal((80, 48))
    source = tp.jit(_product).lower(a, b).source
    assert '#include "tp_runtime.h"' in source
    assert "tp_gemm.h" not in source and "tp_gemm_small.h" not in source
    assert runtime_library.needed_by(source)
    assert_same(tp.jit(_product)(a, b), a @ b, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128])
def test_a_small_product_stays_inlined_and_matches_numpy(dtype):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((5, 7)) * 9).astype(dtype)
    b = (rng.standard_normal((3, 7, 4)) * 9).astype(dtype)      # batched, a broadcast lhs
    source = tp.jit(_product).lower(a, b).source
    assert '#include "tp_gemm_small.h"' in source
    assert not runtime_library.needed_by(source)
    got, expected = tp.jit(_product)(a, b), np.matmul(a, b)
    assert got.dtype == expected.dtype
    if dtype == np.int16:
        assert_same(got, expected)                     # wrapping, exactly as NumPy
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_sort_scatter_and_solve_go_through_the_library():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 50))
    a = rng.standard_normal((8, 8)) + 8 * np.eye(8)
    idx = np.array([3, 1, 3, 0])

    def program(x, a, idx):
        return tnp.sort(x, axis=1), tnp.linalg.solve(a, x[:, :8].T), \
            tnp.zeros(5).at[idx].add(1.0)
    source = tp.jit(program).lower(x, a, idx).source
    assert '#include "tp_runtime.h"' in source
    assert not any(h in source for h in ("tp_sort.h", "tp_linalg.h", "tp_scatter.h"))
    got = tp.jit(program)(x, a, idx)
    assert_same(got[0], np.sort(x, axis=1))
    np.testing.assert_allclose(got[1], np.linalg.solve(a, x[:, :8].T), rtol=1e-10)
    assert_same(got[2], np.bincount(idx, minlength=5).astype(float))


def test_the_library_key_follows_the_flags():
    """A UBSan build (TRANSPILE_CFLAGS) gets a library of its own, with its own soname."""
    plain = CCompiler.from_environment()
    ubsan = CCompiler(plain.cc, plain.flags + ("-fsanitize=undefined",))
    source = runtime_library.library_source()
    keys = {cache_key(source, c.identity) for c in (plain, ubsan)}
    assert len(keys) == 2
    assert len({runtime_library.soname(k) for k in keys}) == 2


# -- built once per machine -------------------------------------------------------------------

_CALLER = textwrap.dedent("""
    import sys, numpy as np, transpile as tp, transpile.numpy as tnp
    shape = int(sys.argv[1])
    a = np.arange(shape * shape, dtype=np.float64).reshape(shape, shape) / shape
    out = tp.jit(lambda a: tnp.sort(a @ a, axis=1))(a)
    assert np.allclose(out, np.sort(a @ a, axis=1))
""")


def _run(cache, *args, code=_CALLER):
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), TRANSPILE_LOG="compiles,cache",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _finish(proc) -> str:
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    return out + err


def _library_entries(cache) -> list:
    found = []
    for manifest in cache.glob("*/*/manifest.json"):
        if json.loads(manifest.read_text())["built"].get("kind") == runtime_library.KIND:
            found.append(manifest.parent)
    return found


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    """A cache where two processes raced to need the library: (their logs, the directory)."""
    cache = tmp_path_factory.mktemp("runtime-library-cache")
    racers = [_run(cache, 40), _run(cache, 41)]
    return [_finish(p) for p in racers], cache


def test_racing_processes_build_the_library_once(shared_cache):
    logs, cache = shared_cache
    assert sum(log.count(BUILT) for log in logs) == 1, logs
    assert len(_library_entries(cache)) == 1
    (entry,) = _library_entries(cache)
    assert oct(entry.stat().st_mode & 0o777) == "0o700"        # owner-only, like any entry
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["built"]["soname"] == runtime_library.soname(manifest["key"])
    assert manifest["built"]["seconds"] > 0


def test_a_later_process_finds_the_library_and_never_rebuilds(shared_cache):
    _, cache = shared_cache
    log = _finish(_run(cache, 42))
    assert BUILT not in log
    assert "runtime library found" in log


def test_cache_warm_reports_the_built_library(shared_cache):
    _, cache = shared_cache
    done = subprocess.run([sys.executable, "-m", "transpile", "cache", "warm"], text=True,
                          capture_output=True, timeout=900,
                          env=dict(os.environ, TRANSPILE_CACHE_DIR=str(cache),
                                   PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    assert done.returncode == 0, done.stderr
    assert "already built" in done.stdout
    assert str(_library_entries(cache)[0]) in done.stdout


def test_a_damaged_library_is_found_and_rebuilt(shared_cache):
    _, cache = shared_cache
    (entry,) = _library_entries(cache)
    with open(entry / "module.so", "ab") as f:
        f.write(b"\0")                             # no longer the binary its manifest names
    log = _finish(_run(cache, 43))
    assert "corrupt" in log and BUILT in log
    (entry,) = _library_entries(cache)
    assert BUILT not in _finish(_run(cache, 44))


def test_the_size_cap_keeps_the_library_in_use(shared_cache):
    """TRANSPILE_CACHE_MAX_SIZE of one byte evicts every other entry, never the library."""
    _, cache = shared_cache
    env_code = "import os; os.environ['TRANSPILE_CACHE_MAX_SIZE'] = '1'\n" + _CALLER
    log = _finish(_run(cache, 45, code=env_code))
    assert BUILT not in log
    assert len(_library_entries(cache)) == 1


def test_an_untrusted_cache_gets_a_private_library_and_keeps_nothing(tmp_path):
    """A group-writable cache directory is not used (see cache_location): the library is
    built privately for the process, modules link against it, and nothing lands there."""
    cache = tmp_path / "shared"
    cache.mkdir()
    cache.chmod(0o777)
    proc = _run(cache, 40)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    assert "built a private runtime library" in err
    assert list(cache.iterdir()) == []
