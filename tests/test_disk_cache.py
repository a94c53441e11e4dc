"""The memory and disk caches: hits and misses, reuse across processes, concurrent builds,
corrupt entries, permissions, the generated source kept beside its binary, and retrace logs.

Every test points TRANSPILE_CACHE_DIR at its own empty `tmp_path` directory, and defines its
functions inside the test: the memory cache is process-global and keyed on the function object.
Cross-process behaviour runs a small script in subprocesses that print `cache_info()` as JSON.
"""
import inspect
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

THIS_FILE = os.path.basename(__file__)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh, not yet existing cache directory for this test."""
    root = tmp_path / "tp-cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(root))
    monkeypatch.delenv("TRANSPILE_LOG", raising=False)
    return root


def files_named(root, name):
    return sorted(p for p in root.rglob(name) if p.is_file())


def temp_leftovers(root):
    return [p for p in root.rglob("*") if p.name.startswith((".build-", ".trash-"))]


def info_tuple(f):
    i = f.cache_info()
    return (i.hits, i.misses, i.disk_hits, i.disk_misses, i.entries)


# -- in one process -----------------------------------------------------------------------

def test_miss_then_memory_hit_then_new_shape_keeps_old(cache):
    traces = []

    def double_plus(x):
        traces.append(x.shape)
        return x * 2.0 + 1.0

    f = tp.jit(double_plus)
    a = np.arange(100, dtype=np.float32)
    np.testing.assert_array_equal(f(a), a * 2.0 + 1.0)
    assert info_tuple(f) == (0, 1, 0, 1, 1)          # traced and compiled
    assert traces == [(100,)]

    np.testing.assert_array_equal(f(a + 1), (a + 1) * 2.0 + 1.0)
    assert info_tuple(f) == (1, 1, 0, 1, 1)          # memory hit, no new trace
    assert traces == [(100,)]

    b = np.arange(50, dtype=np.float32)
    np.testing.assert_array_equal(f(b), b * 2.0 + 1.0)
    assert info_tuple(f) == (1, 2, 0, 2, 2)          # new shape: traced and compiled again
    assert traces == [(100,), (50,)]

    f(a)                                              # the old specialisation stays
    assert info_tuple(f) == (2, 2, 0, 2, 2)
    assert traces == [(100,), (50,)]

    assert len(files_named(cache, "module.so")) == 2  # one binary per specialisation
    assert len(files_named(cache, "module.c")) == 2
    assert len(files_named(cache, "manifest.json")) == 2
    assert temp_leftovers(cache) == []


def test_jit_twice_shares_memory_cache(cache):
    def triple(x):
        return x * 3.0

    x = np.ones(8, dtype=np.float64)
    f1, f2 = tp.jit(triple), tp.jit(triple)
    f1(x)
    np.testing.assert_array_equal(f2(x), x * 3.0)
    assert f2.cache_info().hits == 1
    assert f2.cache_info().misses == 1
    assert f2.cache_info().disk_misses == 1


def test_fresh_lambda_misses_memory_but_hits_disk(cache):
    x = np.linspace(-1, 1, 16, dtype=np.float32)
    results, infos = [], []
    for _ in range(3):
        f = tp.jit(lambda v: v * 3.0 + 1.0)         # a new function object each time
        results.append(f(x))
        infos.append(info_tuple(f))
    assert infos[0] == (0, 1, 0, 1, 1)                # compiled
    assert infos[1] == (0, 1, 1, 0, 1)                # traced again, binary found on disk
    assert infos[2] == (0, 1, 1, 0, 1)
    for r in results:
        np.testing.assert_array_equal(r, x * 3.0 + 1.0)
    assert len(files_named(cache, "module.so")) == 1


def test_cache_dir_created_private(tmp_path, monkeypatch):
    root = tmp_path / "not" / "yet" / "there"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(root))
    f = tp.jit(lambda x: x + 1.0)
    f(np.zeros(4))
    assert root.is_dir()
    assert root.stat().st_mode & 0o777 == 0o700
    (so,) = files_named(root, "module.so")
    for d in (so.parent, so.parent.parent):         # the entry and its shard are private too
        assert d.stat().st_mode & 0o077 == 0, oct(d.stat().st_mode)


# -- the generated source beside the binary -------------------------------------------------

def _line_of(fun, text):
    """The absolute line number of the first line of `fun` containing `text`."""
    lines, start = inspect.getsourcelines(fun)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_module_c_beside_so_with_header_ir_and_build_command(cache):
    def scaled_exp(x):
        y = tnp.exp(x)
        z = y * 2.0 - 1.0
        return tnp.where(z > 0, z, -z)

    f = tp.jit(scaled_exp)
    x = np.linspace(-2, 2, 33, dtype=np.float32)
    f(x)
    (so,) = files_named(cache, "module.so")
    c_path = so.parent / "module.c"
    assert c_path.is_file()
    text = c_path.read_text()
    lowered = f.lower(x)

    # The header: function name and location, signature, IR.
    assert "scaled_exp" in text
    assert f"{THIS_FILE}:{inspect.getsourcelines(scaled_exp)[1]}" in text
    assert "signature: x: f32[33]" in text
    assert "a:f32[33]" in text
    assert "exp a" in text
    # module.c is exactly the hashed source (byte-identical for one key); how it was built
    # (compiler, command, time taken) is in the manifest beside it.
    assert text == lowered.source
    built = json.loads((so.parent / "manifest.json").read_text())["built"]
    assert "-O3" in built["command"] and "-fopenmp" in built["command"]
    assert "-o module.so" in built["command"] and "module.c" in built["command"]
    assert built["seconds"] > 0 and built["compiler"]

    # Every computed statement names the Python line it came from.
    expected = {_line_of(scaled_exp, "tnp.exp"), _line_of(scaled_exp, "y * 2.0"),
                _line_of(scaled_exp, "tnp.where")}
    seen = set()
    for line in text.splitlines():
        s = line.strip()
        if not s.startswith("const ") or "=" not in s or "_ptr" in s:
            continue
        rhs = s.split("=", 1)[1].strip()
        if rhs.startswith("x[") and rhs.rstrip(";").endswith("]"):
            continue                                   # a plain load of an element of x
        assert f"/* {THIS_FILE}:" in s, f"statement without a source comment: {s}"
        seen.add(int(s.rsplit(":", 1)[1].split("*/")[0]))
    assert seen == expected


def test_reduction_statement_names_its_source_line(cache):
    def sum_of_doubles(x):
        y = x * 2.0
        return tnp.sum(y)

    src = tp.jit(sum_of_doubles).lower(np.ones(10, dtype=np.float32)).source
    mul_line = f"{THIS_FILE}:{_line_of(sum_of_doubles, 'x * 2.0')}"
    sum_line = f"{THIS_FILE}:{_line_of(sum_of_doubles, 'tnp.sum')}"
    assert mul_line in src
    (acc_update,) = [line for line in src.splitlines() if line.strip().startswith("acc +=")]
    assert f"/* {sum_line} */" in acc_update


# -- TRANSPILE_LOG=compiles ----------------------------------------------------------------

def test_log_reason_for_new_shape(cache, monkeypatch, capsys):
    monkeypatch.setenv("TRANSPILE_LOG", "compiles")

    def affine(x):
        return x * 2.0 + 1.0

    f = tp.jit(affine)
    f(np.ones(100, dtype=np.float32))
    first = capsys.readouterr().err
    assert "transpile[compiles]" in first and "affine" in first
    assert "reason: first call" in first

    f(np.ones(100, dtype=np.float32))
    assert capsys.readouterr().err == ""               # a memory hit logs nothing

    f(np.ones(50, dtype=np.float32))
    err = capsys.readouterr().err
    assert "new shape/dtype for 'x': f32[100] → f32[50]" in err


def test_log_reason_for_changed_static_argument(cache, monkeypatch, capsys):
    monkeypatch.setenv("TRANSPILE_LOG", "compiles")

    def power(x, n):
        out = x
        for _ in range(n - 1):
            out = out * x
        return out

    f = tp.jit(power, static_argnames=["n"])
    x = np.full(4, 2.0)
    np.testing.assert_array_equal(f(x, 2), x ** 2)
    capsys.readouterr()
    np.testing.assert_array_equal(f(x, n=3), x ** 3)
    err = capsys.readouterr().err
    assert "static 'n': 2 → 3" in err
    assert "'x'" not in err.split("reason:", 1)[1]      # x did not change


# -- across processes ----------------------------------------------------------------------

SCRIPT = '''
import json, sys, time, warnings
import numpy as np
import transpile as tp, transpile.numpy as tnp

def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)

if len(sys.argv) > 1:                 # start together: wait for a common wall-clock instant
    while time.time() < float(sys.argv[1]):
        time.sleep(0.001)
x = np.linspace(-3, 3, 101, dtype=np.float32)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    f = tp.jit(selu)
    y = f(x)
i = f.cache_info()
print(json.dumps({"hits": i.hits, "misses": i.misses, "disk_hits": i.disk_hits,
                  "disk_misses": i.disk_misses, "result": y.tolist(),
                  "warnings": [f"{w.category.__name__}: {w.message}" for w in caught]}))
'''


def _selu_reference():
    x = np.linspace(-3, 3, 101, dtype=np.float32)
    return 1.05 * np.where(x > 0, x, 1.67 * np.exp(x) - 1.67)


@pytest.fixture
def script(tmp_path, cache):
    path = tmp_path / "selu_module.py"
    path.write_text(textwrap.dedent(SCRIPT))
    return path


def _env(cache):
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), OMP_NUM_THREADS="1")
    env.pop("TRANSPILE_LOG", None)
    return env


def run_script(script, cache, *argv):
    proc = subprocess.run([sys.executable, str(script), *argv], env=_env(cache),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_reuse_from_a_separate_process(script, cache):
    first = run_script(script, cache)
    assert (first["disk_hits"], first["disk_misses"]) == (0, 1)
    second = run_script(script, cache)
    assert (second["misses"], second["disk_hits"], second["disk_misses"]) == (1, 1, 0)
    assert second["result"] == first["result"]
    np.testing.assert_allclose(second["result"], _selu_reference(), rtol=1e-6, atol=1e-6)
    assert first["warnings"] == second["warnings"] == []
    assert len(files_named(cache, "module.so")) == 1


def test_concurrent_processes_build_one_entry(script, cache):
    start_at = f"{time.time() + 1.5:.3f}"     # after every interpreter has imported transpile
    procs = [subprocess.Popen([sys.executable, str(script), start_at], env=_env(cache),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    outputs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outputs.append(json.loads(out.strip().splitlines()[-1]))

    results = [o["result"] for o in outputs]
    assert all(r == results[0] for r in results)
    np.testing.assert_allclose(results[0], _selu_reference(), rtol=1e-6, atol=1e-6)
    # Builds of one key are serialised: exactly one process ran the compiler.
    assert sum(o["disk_misses"] for o in outputs) == 1
    assert sum(o["disk_hits"] for o in outputs) == 3
    assert all(o["warnings"] == [] for o in outputs)
    assert len(files_named(cache, "module.so")) == 1
    assert len(files_named(cache, "manifest.json")) == 1
    assert temp_leftovers(cache) == []


def _truncate(so):
    data = so.read_bytes()
    so.write_bytes(data[: len(data) // 2])


def _garbage(so):
    so.write_bytes(b"\x7fELF not really a shared object" * 64)


@pytest.mark.parametrize("damage", [_truncate, _garbage], ids=["truncated", "garbage"])
def test_corrupt_binary_is_detected_and_rebuilt(script, cache, damage):
    first = run_script(script, cache)
    (so,) = files_named(cache, "module.so")
    damage(so)

    second = run_script(script, cache)
    assert any("RuntimeWarning" in w and ("corrupt" in w or "truncated" in w)
               for w in second["warnings"]), second["warnings"]
    assert (second["disk_hits"], second["disk_misses"]) == (0, 1)
    assert second["result"] == first["result"]

    (so_again,) = files_named(cache, "module.so")     # rebuilt in place of the bad entry
    assert so_again == so
    assert temp_leftovers(cache) == []
    third = run_script(script, cache)                  # and the rebuilt entry is good
    assert (third["disk_hits"], third["disk_misses"], third["warnings"]) == (1, 0, [])


def test_missing_manifest_is_detected_and_rebuilt(script, cache):
    first = run_script(script, cache)
    (manifest,) = files_named(cache, "manifest.json")
    manifest.unlink()

    second = run_script(script, cache)
    assert any("RuntimeWarning" in w and ("corrupt" in w or "truncated" in w)
               for w in second["warnings"]), second["warnings"]
    assert (second["disk_hits"], second["disk_misses"]) == (0, 1)
    assert second["result"] == first["result"]
    assert len(files_named(cache, "module.so")) == 1
    assert manifest.is_file()
    assert temp_leftovers(cache) == []


# -- dropping a specialisation ------------------------------------------------------------

UNLOAD_SCRIPT = '''
import gc, time
import numpy as np
import transpile as tp, transpile.numpy as tnp

def f(x):
    return tnp.where(x > 0, x, tnp.exp(x) - 1.0)

x = np.linspace(-1, 1, 1 << 20, dtype=np.float32)   # large enough for an OpenMP parallel loop
jf = tp.jit(f)
jf(x)
del jf, f                       # the function and its memory-cache entries go away
gc.collect()
time.sleep(0.2)
print("survived", flush=True)
'''


def run_unload_script(tmp_path, cache):
    """Run UNLOAD_SCRIPT with an OpenMP worker thread that spins while idle."""
    # With fewer CPUs than threads libgomp caps its spinning, and the idle worker sleeps in
    # the kernel instead of running in libgomp's code: a crash would then be intermittent.
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two CPUs to make the OpenMP worker spin")
    path = tmp_path / "unload.py"
    path.write_text(UNLOAD_SCRIPT)
    env = dict(_env(cache), OMP_NUM_THREADS="2", OMP_WAIT_POLICY="active")
    return subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True,
                          timeout=120)


def test_dropping_a_parallel_specialisation_does_not_crash(tmp_path, cache):
    proc = run_unload_script(tmp_path, cache)
    assert "survived" in proc.stdout, f"exit status {proc.returncode}: {proc.stderr[-2000:]}"


def test_process_with_parallel_kernels_exits_cleanly(tmp_path, cache):
    proc = run_unload_script(tmp_path, cache)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-2000:]}"
