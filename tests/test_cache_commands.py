"""`transpile cache info|prune|clear` and TRANSPILE_CACHE_MAX_SIZE.

Entries are counted by their files. Most tests use synthetic entries (a directory with a
transpile manifest and files of chosen sizes and last-use times): the commands read only
manifests, sizes and times, so nothing needs compiling. Only entries carrying transpile's
manifest are ever removed: user folders with shard-like names (`db/`, `ab/`) survive.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import transpile as tp

DAY = 86400.0


def make_entry(root, key, size, age_days, manifest=True):
    entry = root / key[:2] / key
    entry.mkdir(parents=True, mode=0o700)
    (entry / "module.so").write_bytes(b"\0" * size)
    if manifest:
        (entry / "manifest.json").write_text(json.dumps(
            {"format": "transpile-cache", "schema": "2", "key": key, "so_sha256": "0" * 64,
             "source_sha256": "0" * 64}))
    stamp = time.time() - age_days * DAY
    os.utime(entry, (stamp, stamp))
    return entry


def cli(root, *args, **env_extra):
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(root),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("TRANSPILE_CACHE_MAX_SIZE", None)
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "transpile", "cache", *args], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def populated(tmp_path):
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    keys = {age: f"{age:02x}" + "ab" * 31 for age in (1, 10, 40, 90)}
    entries = {age: make_entry(root, key, 1000 * (age + 1), age) for age, key in keys.items()}
    # Not ours: user folders named like shards, a foreign folder inside a shard.
    for name in ("db", "ab"):
        (root / name).mkdir()
        (root / name / "notes.txt").write_text("the user's own")
    make_entry(root, "01" + "cd" * 31, 5000, 400, manifest=False)
    return root, entries


def surviving(root):
    return sorted(int(p.parent.name[:2], 16) for p in root.rglob("manifest.json"))


def test_info_reports_location_entries_and_size(populated):
    root, entries = populated
    proc = cli(root, "info")
    assert proc.returncode == 0, proc.stderr
    assert f"location:   {root}" in proc.stdout
    assert "entries:    4" in proc.stdout                  # the foreign folders not counted
    sizes = sum(sum(f.stat().st_size for f in e.iterdir()) for e in entries.values())
    assert f"({sizes} bytes)" in proc.stdout
    assert "oldest 90.0d ago" in proc.stdout
    assert "trusted" in proc.stdout


def test_prune_older_than(populated):
    root, _ = populated
    proc = cli(root, "prune", "--older-than", "30d")
    assert proc.returncode == 0, proc.stderr
    assert "pruned 2 " in proc.stdout
    assert surviving(root) == [1, 10]
    assert (root / "db" / "notes.txt").exists() and (root / "ab" / "notes.txt").exists()
    assert (root / "01" / ("01" + "cd" * 31) / "module.so").exists()   # no manifest: not ours


def test_prune_max_size_evicts_least_recently_used(populated):
    root, _ = populated
    proc = cli(root, "prune", "--max-size", "15K")
    assert proc.returncode == 0, proc.stderr
    assert surviving(root) == [1, 10]          # 2 KB + 11 KB (+ manifests) fit in 15 KiB
    assert cli(root, "prune", "--max-size", "lots").returncode == 2
    assert cli(root, "prune").returncode == 2  # nothing to prune by


def test_clear_removes_only_transpile_entries(populated):
    root, _ = populated
    proc = cli(root, "clear")
    assert proc.returncode == 0, proc.stderr
    assert "cleared 4 " in proc.stdout
    assert surviving(root) == []
    assert (root / "db" / "notes.txt").read_text() == "the user's own"
    assert (root / "ab" / "notes.txt").read_text() == "the user's own"
    assert (root / "01" / ("01" + "cd" * 31) / "module.so").exists()


def test_max_size_evicts_least_recently_used_after_a_write(cache_dir, monkeypatch):
    x = np.arange(4.0)
    tp.jit(lambda v: v + 1.0)(x)
    (first,) = [p.parent for p in cache_dir.rglob("manifest.json")]
    one = sum(f.stat().st_size for f in first.iterdir())
    old = time.time() - DAY
    os.utime(first, (old, old))
    monkeypatch.setenv("TRANSPILE_CACHE_MAX_SIZE", str(int(one * 1.5)))
    np.testing.assert_array_equal(tp.jit(lambda v: v + 2.0)(x), x + 2.0)
    (kept,) = [p.parent for p in cache_dir.rglob("manifest.json")]
    assert kept != first and not first.exists()        # the older entry made room
