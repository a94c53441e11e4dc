"""A read-only cache serves the entries it holds, silently; a miss there is built in memory
with one warning that says the cache is read-only; nothing is written to it. Run as separate
processes under which permission bits bind (as root, with the bypassing capabilities
dropped), since root writes through a read-only mode otherwise."""
import os

from cache_tools import EXPECTED, entries, leftovers, run


def snapshot(cache):
    return sorted((str(p), p.stat().st_mtime_ns) for p in cache.rglob("*"))


def make_read_only(cache):
    for path in [cache, *cache.rglob("*")]:
        if path.is_dir():
            path.chmod(0o500)
        else:
            path.chmod(0o400)


def make_writable(cache):
    for path in [cache, *cache.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)


def test_a_read_only_cache_serves_its_entries(tmp_path, cache_dir):
    assert run(tmp_path, cache_dir, "f")["disk_misses"] == 1
    make_read_only(cache_dir)
    before = snapshot(cache_dir)
    try:
        hit = run(tmp_path, cache_dir, "f", unprivileged=True)
        miss = run(tmp_path, cache_dir, "g", 2, unprivileged=True)
        after = snapshot(cache_dir)
    finally:
        make_writable(cache_dir)
    assert (hit["result"], hit["disk_hits"], hit["disk_misses"]) == (EXPECTED["f"], 1, 0)
    assert hit["warnings"] == []
    assert miss["result"] == EXPECTED["g"] and miss["all_equal"]
    assert len(miss["warnings"]) == 1 and "read-only" in miss["warnings"][0], miss["warnings"]
    assert after == before                      # nothing written, not even a last-use time


def test_only_the_root_read_only(tmp_path, cache_dir):
    run(tmp_path, cache_dir, "f")
    cache_dir.chmod(0o500)
    try:
        hit = run(tmp_path, cache_dir, "f", unprivileged=True)
    finally:
        cache_dir.chmod(0o700)
    assert (hit["disk_hits"], hit["warnings"]) == (1, [])


def test_a_damaged_entry_in_a_read_only_cache_is_not_served_and_stays(tmp_path, cache_dir):
    run(tmp_path, cache_dir, "f")
    (entry,) = entries(cache_dir)
    (entry / "module.c").write_text("/* not the source */\n")
    make_read_only(cache_dir)
    try:
        out = run(tmp_path, cache_dir, "f", unprivileged=True)
    finally:
        make_writable(cache_dir)
    assert out["result"] == EXPECTED["f"] and out["disk_hits"] == 0
    assert len(out["warnings"]) == 1, out["warnings"]
    assert "read-only" in out["warnings"][0] and "module.c" in out["warnings"][0]
    assert (entry / "module.c").read_text() == "/* not the source */\n"
    assert leftovers(cache_dir) == []


def test_a_cache_that_cannot_be_read_is_not_used(tmp_path, cache_dir):
    run(tmp_path, cache_dir, "f")
    cache_dir.chmod(0)
    try:
        out = run(tmp_path, cache_dir, "f", unprivileged=True)
    finally:
        cache_dir.chmod(0o700)
    assert out["result"] == EXPECTED["f"]
    assert len(out["warnings"]) == 1 and "memory only" in out["warnings"][0], out["warnings"]


def test_a_cache_path_that_is_a_file(tmp_path):
    cache = tmp_path / "a-file"
    cache.write_text("mine")
    out = run(tmp_path, cache, "f")
    assert out["result"] == EXPECTED["f"]
    assert len(out["warnings"]) == 1 and "not a directory" in out["warnings"][0]
    assert cache.read_text() == "mine"
    assert os.path.isfile(cache)


def test_a_mode_000_entry_gives_one_warning_for_an_ordinary_user(tmp_path, cache_dir):
    run(tmp_path, cache_dir, "f")
    (entry,) = entries(cache_dir)
    entry.chmod(0)
    out = run(tmp_path, cache_dir, "f", unprivileged=True)
    assert out["result"] == EXPECTED["f"] and out["disk_hits"] == 0
    assert len(out["warnings"]) == 1 and "rebuilding" in out["warnings"][0], out["warnings"]
    assert entries(cache_dir) == [entry] and entry.stat().st_mode & 0o777 == 0o700
    assert leftovers(cache_dir) == []
    again = run(tmp_path, cache_dir, "f", unprivileged=True)
    assert (again["disk_hits"], again["warnings"]) == (1, [])


def test_a_damaged_entry_that_cannot_be_removed_gives_one_warning(tmp_path, cache_dir):
    run(tmp_path, cache_dir, "f")
    (entry,) = entries(cache_dir)
    (entry / "module.c").write_text("/* edited */\n")
    entry.parent.chmod(0o500)                    # its shard: read-only
    try:
        out = run(tmp_path, cache_dir, "f", 2, unprivileged=True)
    finally:
        entry.parent.chmod(0o700)
    assert out["result"] == EXPECTED["f"] and out["all_equal"]
    assert len(out["warnings"]) == 1 and "could not be removed" in out["warnings"][0], \
        out["warnings"]
    assert (entry / "module.c").read_text() == "/* edited */\n"
