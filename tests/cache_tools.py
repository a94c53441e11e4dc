"""Helpers for the disk-cache fault tests: a small script run as separate processes (each
prints its result, cache counts and warnings as JSON), fake compilers (TRANSPILE_CC wrapper
scripts around the real one), and a way to run a process without root's permission bypass."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import json, os, signal, sys, warnings
    import numpy as np
    import transpile as tp

    # Ctrl-C is the tests' to send: a SIGINT that whoever started the test run ignores (a
    # background job's, inherited) would leave an "interrupted" builder running to the end.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    FUNCTIONS = {
        "f": lambda x: x * 2.0 + 1.0,
        "g": lambda x: x - 5.0,
        "h": lambda x: x * x,
    }
    name = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    x = np.arange(8.0)
    results, hits, misses = [], 0, 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(repeat):
            jitted = tp.jit(FUNCTIONS[name])      # a fresh jit object: the disk is asked
            results.append(jitted(x).tolist())
            info = jitted.cache_info()
            hits, misses = hits + info.disk_hits, misses + info.disk_misses
    print(json.dumps({"result": results[0], "all_equal": all(r == results[0] for r in results),
                      "disk_hits": hits, "disk_misses": misses,
                      "warnings": [str(w.message) for w in caught]}))
''')

EXPECTED = {"f": (2.0 * __import__("numpy").arange(8.0) + 1.0).tolist(),
            "g": (__import__("numpy").arange(8.0) - 5.0).tolist(),
            "h": (__import__("numpy").arange(8.0) ** 2).tolist()}


def real_cc() -> str:
    return shutil.which("cc") or shutil.which("gcc")


def fake_cc(tmp_path, name: str, body: str) -> str:
    """A TRANSPILE_CC wrapper: `body` is shell; `$REAL` is the real compiler. Calls with
    --version pass straight through (the manifest records the compiler's version)."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n"
                    f"REAL={real_cc()}\n"
                    'case "$*" in *--version*) exec "$REAL" "$@" ;; esac\n' + body + "\n")
    path.chmod(0o755)
    return str(path)


def env_for(cache, **extra) -> dict:
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    for name in ("TRANSPILE_LOG", "TRANSPILE_CC", "TRANSPILE_CACHE_MAX_SIZE",
                 "TRANSPILE_CACHE_LOCK_TIMEOUT", "TRANSPILE_CACHE_STALL_TIMEOUT"):
        env.pop(name, None)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def script_path(tmp_path):
    path = tmp_path / "cached_fn.py"
    if not path.exists():
        path.write_text(SCRIPT)
    return path


def command(tmp_path, *args, unprivileged=False) -> list[str]:
    cmd = [sys.executable, str(script_path(tmp_path)), *map(str, args)]
    return without_root_bypass() + cmd if unprivileged else cmd


def start(tmp_path, cache, *args, unprivileged=False, new_session=False, **env):
    """The script as a running process; `new_session` gives it its own process group (as a
    shell job has, which Ctrl-Z stops as a whole)."""
    return subprocess.Popen(command(tmp_path, *args, unprivileged=unprivileged),
                            env=env_for(cache, **env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=new_session)


def finish(proc, timeout=120) -> dict:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0 and "Traceback" not in err, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


def run(tmp_path, cache, *args, unprivileged=False, timeout=120, **env) -> dict:
    return finish(start(tmp_path, cache, *args, unprivileged=unprivileged, **env), timeout)


def entries(cache) -> list:
    return sorted(p.parent for p in cache.rglob("manifest.json"))


def leftovers(cache) -> list:
    return sorted(p for p in cache.rglob("*") if p.name.startswith((".build-", ".trash-")))


def without_root_bypass() -> list[str]:
    """A command prefix under which permission bits bind, as for an ordinary user: empty when
    not root; as root, `setpriv` dropping the capabilities that bypass them. Tests that need
    one skip (saying why) when neither is possible."""
    if os.getuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        import pytest
        pytest.skip("running as root without setpriv: permission bits cannot be made to bind")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
