"""Trust in the disk cache, in the style of Numba's cache tests: separate processes, counted
files. A binary is loaded only from a directory the user owns and others cannot write, and
only when its manifest binds it to this key, this source and this binary's sha256; anything
else is a miss with a warning, and the entry is replaced. A binary that passes those checks
but still fails to load is discarded and rebuilt once.

The test suite may run as root, for whom permission bits do not restrict access: ownership
is therefore tested by patching `os.getuid`, and permissions through the mode bits that
transpile inspects rather than through failing system calls.
"""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as tp

SCRIPT = textwrap.dedent('''
    import json, sys, warnings
    import numpy as np
    import transpile as tp, transpile.numpy as tnp

    def f(x):
        return x * 2.0 + 1.0

    def g(x):
        return x - 5.0

    x = np.arange(8.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jitted = tp.jit({"f": f, "g": g}[sys.argv[1]])
        y = jitted(x)
    i = jitted.cache_info()
    print(json.dumps({"result": y.tolist(), "disk_hits": i.disk_hits,
                      "disk_misses": i.disk_misses,
                      "warnings": [str(w.message) for w in caught]}))
''')


@pytest.fixture
def run(tmp_path, cache_dir):
    script = tmp_path / "fg.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache_dir), OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))

    def run_(which):
        proc = subprocess.run([sys.executable, str(script), which], env=env, timeout=120,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])
    return run_


def _entries(cache_dir):
    return sorted(p.parent for p in cache_dir.rglob("manifest.json"))


F = (np.arange(8.0) * 2.0 + 1.0).tolist()
G = (np.arange(8.0) - 5.0).tolist()


def test_entry_copied_from_another_key_is_not_loaded(run, cache_dir):
    assert run("f")["result"] == F
    (f_entry,) = _entries(cache_dir)
    assert run("g")["result"] == G
    (g_entry,) = [e for e in _entries(cache_dir) if e != f_entry]
    for name in ("module.so", "manifest.json"):                 # g's binary under f's key
        (f_entry / name).write_bytes((g_entry / name).read_bytes())

    again = run("f")
    assert again["result"] == F                                 # never g's results
    assert (again["disk_hits"], again["disk_misses"]) == (0, 1)
    assert any("manifest key does not match" in w for w in again["warnings"]), again
    manifest = json.loads((f_entry / "manifest.json").read_text())
    assert manifest["key"] == f_entry.name                      # replaced by a good entry
    assert len(_entries(cache_dir)) == 2
    assert run("f")["disk_hits"] == 1


def test_manifest_binds_the_source(run, cache_dir):
    run("f")
    (entry,) = _entries(cache_dir)
    manifest = json.loads((entry / "manifest.json").read_text())
    assert set(manifest) >= {"schema", "key", "source_sha256", "so_sha256", "built"}
    manifest["source_sha256"] = "0" * 64
    (entry / "manifest.json").write_text(json.dumps(manifest))
    again = run("f")
    assert again["result"] == F and again["disk_misses"] == 1
    assert any("source_sha256" in w for w in again["warnings"]), again


def test_damaged_binary_with_a_matching_manifest_is_rebuilt_once(run, cache_dir):
    run("f")
    (entry,) = _entries(cache_dir)
    so = entry / "module.so"
    so.write_bytes(b"\x7fELF\x01\x01 wrong class" + b"\0" * 400)   # fails to load
    manifest = json.loads((entry / "manifest.json").read_text())
    import hashlib
    manifest["so_sha256"] = hashlib.sha256(so.read_bytes()).hexdigest()
    (entry / "manifest.json").write_text(json.dumps(manifest))

    again = run("f")
    assert again["result"] == F
    assert (again["disk_hits"], again["disk_misses"]) == (0, 1)
    assert any("failed to load" in w for w in again["warnings"]), again
    third = run("f")                                           # the rebuilt entry is good
    assert (third["disk_hits"], third["disk_misses"], third["warnings"]) == (1, 0, [])


def test_writable_entry_directory_is_not_trusted(run, cache_dir):
    run("f")
    (entry,) = _entries(cache_dir)
    entry.chmod(0o777)
    again = run("f")
    assert again["result"] == F and again["disk_misses"] == 1
    assert any("writable by other users" in w for w in again["warnings"]), again
    (entry,) = _entries(cache_dir)
    assert entry.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("setup", ["world-writable", "other owner"])
def test_untrusted_cache_directory_is_memory_only(setup, cache_dir, monkeypatch, recwarn):
    cache_dir.mkdir(mode=0o700)
    if setup == "world-writable":
        cache_dir.chmod(0o777)
    else:
        real_uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: real_uid + 4242)
    outputs = []
    for k in range(2):                           # two compiles: still a single warning
        def h(x):
            return x + float(k)
        outputs.append(tp.jit(h)(np.arange(3.0)))
    assert [o.tolist() for o in outputs] == [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]
    messages = [str(w.message) for w in recwarn if "memory only" in str(w.message)]
    assert len(messages) == 1, [str(w.message) for w in recwarn]
    assert ("writable by other users" if setup == "world-writable" else "another user") \
        in messages[0]
    assert list(cache_dir.iterdir()) == []       # nothing written into it, nothing loaded
