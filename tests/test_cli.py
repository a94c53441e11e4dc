"""The `transpile` command: cache inspection and showing a kept C file."""
import subprocess
import sys

import numpy as np

import transpile as tp


def run_cli(*args, env_cache):
    import os
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(env_cache))
    return subprocess.run([sys.executable, "-m", "transpile", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_cache_dir_list_show_and_clear(cache_dir):
    def doubled(x):
        return x * 2
    tp.jit(doubled)(np.ones(3))
    assert run_cli("cache", "dir", env_cache=cache_dir).stdout.strip() == str(cache_dir)
    listing = run_cli("cache", "list", env_cache=cache_dir).stdout
    assert "doubled" in listing
    key = listing.split()[0]
    shown = run_cli("show", key, env_cache=cache_dir)
    assert shown.returncode == 0 and "int tp_entry(" in shown.stdout
    assert run_cli("show", "nonexistent", env_cache=cache_dir).returncode == 2
    (cache_dir / "notes.txt").write_text("the user's own file")
    assert run_cli("cache", "clear", env_cache=cache_dir).returncode == 0
    assert run_cli("cache", "list", env_cache=cache_dir).stdout.strip() == ""
    assert (cache_dir / "notes.txt").read_text() == "the user's own file"   # not ours: kept


def test_usage_errors_exit_with_2(cache_dir):
    assert run_cli("frobnicate", env_cache=cache_dir).returncode == 2
