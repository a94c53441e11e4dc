"""Builds that stall or die: a bounded wait for another process's build lock, stale build
directories of dead processes cleaned, and `cache clear` running beside a build without
breaking it. Other processes are real subprocesses (Numba-style), files are counted."""
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np

import transpile as tp
from transpile.backends import cpu
from transpile.runtime import cache_admin
from transpile.runtime.disk_cache import cache_key

HOLD_LOCK = textwrap.dedent('''
    import fcntl, sys, time
    f = open(sys.argv[1], "a")
    fcntl.flock(f, fcntl.LOCK_EX)
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))       # a stopped or very slow build
''')


def key_of(jitted, *args):
    return cache_key(jitted.lower(*args).source, cpu.backend().compiler.identity)


def test_waiting_for_a_stalled_build_times_out_then_builds_privately(cache_dir, monkeypatch,
                                                                      recwarn):
    def stalled(x):
        return x * 7.0
    f = tp.jit(stalled)
    x = np.arange(4.0)
    key = key_of(f, x)
    shard = cache_dir / key[:2]
    shard.mkdir(parents=True, mode=0o700)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(shard / f"{key}.lock"), "60"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        monkeypatch.setenv("TRANSPILE_CACHE_LOCK_TIMEOUT", "0.5")
        started = time.monotonic()
        np.testing.assert_array_equal(f(x), x * 7.0)
        assert time.monotonic() - started < 30
    finally:
        holder.kill()
        holder.wait()
    stalled = [str(w.message) for w in recwarn if "not waiting" in str(w.message)]
    assert len(stalled) == 1 and "TRANSPILE_CACHE_LOCK_TIMEOUT" in stalled[0], stalled
    # The copy was built privately and published by an atomic rename: the next process finds it.
    assert len(list(cache_dir.rglob("manifest.json"))) == 1
    assert not list(cache_dir.rglob(".build-*"))


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_build_directories_of_dead_processes_are_removed(cache_dir):
    def leftover(x):
        return x - 3.0
    f = tp.jit(leftover)
    x = np.arange(4.0)
    key = key_of(f, x)
    shard = cache_dir / key[:2]
    shard.mkdir(parents=True, mode=0o700)
    dead = shard / f".build-{key[:12]}-{_dead_pid()}-abc123"      # a SIGKILLed build
    (dead / "sub").mkdir(parents=True)
    (dead / "module.c").write_text("half written")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = shard / f".build-{key[:12]}-{sleeper.pid}-def456"    # a build still running
        live.mkdir()
        np.testing.assert_array_equal(f(x), x - 3.0)
        assert not dead.exists()
        assert live.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    assert len(list(cache_dir.rglob("manifest.json"))) == 1


SLOW_CC = '''#!/bin/sh
case "$*" in *--version*) ;; *) sleep 2 ;; esac
exec {cc} "$@"
'''

BUILD_SCRIPT = textwrap.dedent('''
    import json
    import numpy as np
    import transpile as tp
    def built_beside_clear(x):
        return x * 11.0
    print(json.dumps(tp.jit(built_beside_clear)(np.arange(3.0)).tolist()))
''')


def test_clear_during_another_process_build_does_not_break_it(tmp_path, cache_dir):
    real_cc = cpu.backend().compiler.cc
    slow_cc = tmp_path / "slow-cc"
    slow_cc.write_text(SLOW_CC.format(cc=real_cc))
    slow_cc.chmod(0o755)
    script = tmp_path / "build.py"
    script.write_text(BUILD_SCRIPT)
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache_dir), TRANSPILE_CC=str(slow_cc),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    builder = subprocess.Popen([sys.executable, str(script)], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    clears = 0
    deadline = time.monotonic() + 60
    while builder.poll() is None and time.monotonic() < deadline:
        building = list(cache_dir.rglob(".build-*"))
        if building and not (building[0] / "module.so").exists():   # the compiler is running
            cache_admin.clear(str(cache_dir))                      # what `cache clear` runs
            clears += 1
        time.sleep(0.05)
    out, err = builder.communicate(timeout=120)
    assert builder.returncode == 0, err[-3000:]
    assert json.loads(out) == [0.0, 11.0, 22.0]
    assert "could not publish" not in err and "Warning" not in err, err
    assert clears >= 1
    assert len(list(cache_dir.rglob("manifest.json"))) == 1    # published despite the clears
    assert not list(cache_dir.rglob(".build-*"))


def test_lock_timeout_default_and_setting(monkeypatch):
    from transpile.runtime.disk_cache import lock_timeout
    monkeypatch.delenv("TRANSPILE_CACHE_LOCK_TIMEOUT", raising=False)
    assert lock_timeout() == 180.0                      # a few minutes
    monkeypatch.setenv("TRANSPILE_CACHE_LOCK_TIMEOUT", "2.5")
    assert lock_timeout() == 2.5
