"""Damaged, tampered, foreign and unusual entries: each is never served, is reported by
exactly one warning, and is rebuilt (or, when it is not this user's, left alone); nothing a
link points to is ever deleted. Also a full disk and a cache whose binaries cannot be loaded.

Most cases run in this process: a fresh `jit` of the same lambda traces the same source, so
the second call asks the disk cache again."""
import errno
import json
import os
import shutil
import stat
import warnings

import numpy as np
import pytest

import transpile as tp
from cache_tools import entries, leftovers
from transpile.backends import compiled_backend
from transpile.runtime import disk_cache
from transpile.runtime.loader import LoadError

X = np.arange(6.0)
EXPECTED = (X * 3.0 - 1.0).tolist()


def compute():
    """(result, disk hits, disk misses, warnings) of a fresh jit of one function."""
    f = tp.jit(lambda x: x * 3.0 - 1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = f(X)
    info = f.cache_info()
    return y.tolist(), info.disk_hits, info.disk_misses, [str(w.message) for w in caught]


@pytest.fixture
def entry(cache_dir):
    """The one entry, built and verified to be served."""
    assert compute()[:3] == (EXPECTED, 0, 1)
    assert compute() == (EXPECTED, 1, 0, [])
    (found,) = entries(cache_dir)
    return found


def _rewrite_manifest(change):
    def damage(entry):
        path = entry / "manifest.json"
        manifest = json.loads(path.read_text())
        change(manifest)
        path.write_text(json.dumps(manifest))
    return damage


def _replace_with_link_to_copy(name):
    def damage(entry):
        copy = entry.parent.parent.parent / f"copy-of-{name}"
        shutil.copy(entry / name, copy)
        (entry / name).unlink()
        (entry / name).symlink_to(copy)
    return damage


DAMAGE = {
    "module.c replaced": lambda e: (e / "module.c").write_text(
        (e / "module.c").read_text().replace("tp_entry", "tp_entry_other")),
    "module.c appended": lambda e: open(e / "module.c", "a").write("int planted;\n"),
    "module.c missing": lambda e: (e / "module.c").unlink(),
    "module.c a link": _replace_with_link_to_copy("module.c"),
    "module.so truncated": lambda e: (e / "module.so").write_bytes(
        (e / "module.so").read_bytes()[:100]),
    "module.so a link": _replace_with_link_to_copy("module.so"),
    "module.so a directory": lambda e: ((e / "module.so").unlink(), (e / "module.so").mkdir()),
    "module.so a fifo": lambda e: ((e / "module.so").unlink(), os.mkfifo(e / "module.so")),
    "module.so mode 000": lambda e: (e / "module.so").chmod(0),
    "manifest not JSON": lambda e: (e / "manifest.json").write_text("{not json"),
    "manifest empty": lambda e: (e / "manifest.json").write_text(""),
    "manifest a list": lambda e: (e / "manifest.json").write_text("[1, 2]"),
    "manifest huge": lambda e: (e / "manifest.json").write_text(
        " " * (2 << 20) + (e / "manifest.json").read_text()),
    "manifest a link": _replace_with_link_to_copy("manifest.json"),
    "manifest so_sha256": _rewrite_manifest(lambda m: m.update(so_sha256="0" * 64)),
    "manifest source_sha256": _rewrite_manifest(lambda m: m.update(source_sha256="1" * 64)),
    "manifest key": _rewrite_manifest(lambda m: m.update(key="2" * 64)),
    "manifest schema": _rewrite_manifest(lambda m: m.update(schema="1")),
    "manifest without fields": _rewrite_manifest(lambda m: m.clear()),
    "entry mode 000": lambda e: e.chmod(0),
    "entry unreadable (mode 300)": lambda e: e.chmod(0o300),
    "entry group-writable": lambda e: e.chmod(0o770),
    "entry emptied": lambda e: [p.unlink() for p in list(e.iterdir())],
    "entry a file": lambda e: (shutil.rmtree(e), e.write_text("not an entry")),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_entry_is_reported_once_and_rebuilt(entry, cache_dir, damage):
    DAMAGE[damage](entry)
    result, hits, misses, warned = compute()
    assert (result, hits, misses) == (EXPECTED, 0, 1)
    assert len(warned) == 1, warned
    assert entry.name in warned[0] and "rebuilding" in warned[0], warned
    assert compute() == (EXPECTED, 1, 0, [])            # the rebuilt entry is served
    assert entry.is_dir() and stat.S_IMODE(entry.stat().st_mode) == 0o700
    assert leftovers(cache_dir) == []


def test_replacing_module_c_names_the_file(entry):
    (entry / "module.c").write_text("/* another function's source */\n")
    warned = compute()[3]
    assert "module.c does not match" in warned[0], warned


def test_an_entry_that_is_a_link_is_removed_but_not_what_it_points_to(entry, cache_dir,
                                                                       tmp_path):
    users = tmp_path / "users-folder"
    shutil.copytree(entry, users)
    (users / "notes.txt").write_text("the user's own")
    shutil.rmtree(entry)
    entry.symlink_to(users)
    result, hits, misses, warned = compute()
    assert (result, hits, misses) == (EXPECTED, 0, 1)
    assert len(warned) == 1 and "symbolic link" in warned[0], warned
    assert entry.is_dir() and not entry.is_symlink()      # rebuilt in place of the link
    assert (users / "notes.txt").read_text() == "the user's own"
    assert sorted(p.name for p in users.iterdir()) == ["manifest.json", "module.c",
                                                       "module.so", "notes.txt"]


def test_a_shard_that_is_a_link_or_writable_by_others_is_not_used(cache_dir, tmp_path):
    compute()
    (entry,) = entries(cache_dir)
    shard = entry.parent
    elsewhere = tmp_path / "elsewhere"
    shard.rename(elsewhere)
    shard.symlink_to(elsewhere)
    result, hits, misses, warned = compute()
    assert (result, hits) == (EXPECTED, 0)
    assert len(warned) == 1 and "not used" in warned[0], warned
    assert (elsewhere / entry.name / "module.so").exists()      # not touched
    assert len(os.listdir(elsewhere)) == 2                      # the entry and its lock


def test_an_entry_of_another_user_is_neither_served_nor_removed(entry, cache_dir):
    if os.getuid() != 0:
        pytest.skip("making a directory owned by another user needs root")
    for path in [entry, *entry.iterdir()]:
        os.lchown(path, 4242, 4242)
    result, hits, misses, warned = compute()
    assert (result, hits) == (EXPECTED, 0)
    assert len(warned) == 1 and "another user" in warned[0], warned
    assert entry.stat().st_uid == 4242 and (entry / "module.so").exists()
    assert compute()[:2] == (EXPECTED, 0)                       # still a private build


def test_extra_files_in_an_entry_do_not_damage_it(entry):
    (entry / "README").write_text("a note")
    assert compute() == (EXPECTED, 1, 0, [])


# -- the disk fills up, binaries cannot be loaded --------------------------------------------

def _inside(cache_dir, path) -> bool:
    return os.path.abspath(str(path)).startswith(str(cache_dir))


def test_disk_full_while_writing_the_source(cache_dir, monkeypatch):
    real_open = open

    def full_disk_open(path, *args, **kwargs):
        if _inside(cache_dir, path) and args and "w" in args[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(compiled_backend, "open", full_disk_open, raising=False)
    result, hits, misses, warned = compute()
    assert result == EXPECTED
    assert len(warned) == 1 and "is full" in warned[0], warned
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []


def test_disk_full_while_writing_the_manifest(cache_dir, monkeypatch):
    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(disk_cache.json, "dump", no_space)
    result, hits, misses, warned = compute()
    assert result == EXPECTED
    assert len(warned) == 1 and "No space left" in warned[0], warned
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []


def test_binaries_that_cannot_be_loaded_from_the_cache_are_kept_in_memory(cache_dir,
                                                                          monkeypatch):
    real_load = compiled_backend.load_entry

    def noexec(path, *args):
        if _inside(cache_dir, path):
            raise LoadError(f"could not load compiled module {path}: failed to map segment")
        return real_load(path, *args)
    monkeypatch.setattr(compiled_backend, "load_entry", noexec)
    said = []
    for _ in range(2):
        result, hits, misses, warned = compute()
        assert result == EXPECTED
        said += warned
    assert len(said) == 1 and "cannot be loaded" in said[0], said
    assert entries(cache_dir) == []                    # never published
    assert leftovers(cache_dir) == []


def test_an_entry_removed_between_its_check_and_its_loading_is_a_quiet_miss(entry, cache_dir,
                                                                            monkeypatch):
    real_verify = disk_cache.verify

    def verify_then_prune(path, *args):
        found = real_verify(path, *args)
        shutil.rmtree(path, ignore_errors=True)        # `cache prune` running beside us
        return found
    monkeypatch.setattr(disk_cache, "verify", verify_then_prune)
    result, hits, misses, warned = compute()
    assert (result, warned) == (EXPECTED, [])


def test_a_manifest_naming_another_compiler_is_damaged(entry):
    manifest = json.loads((entry / "manifest.json").read_text())
    manifest["compiler_identity"] = "0" * 64
    (entry / "manifest.json").write_text(json.dumps(manifest))
    result, hits, misses, warned = compute()
    assert (result, hits, len(warned)) == (EXPECTED, 0, 1)
    assert "do not hash to the entry's key" in warned[0], warned


def test_a_shard_writable_by_others_is_not_used(cache_dir):
    compute()
    (entry,) = entries(cache_dir)
    entry.parent.chmod(0o770)
    result, hits, misses, warned = compute()
    assert (result, hits) == (EXPECTED, 0)
    assert len(warned) == 1 and "writable by other users" in warned[0], warned
    assert (entry / "module.so").exists()                      # left as it was
    entry.parent.chmod(0o700)
    assert compute() == (EXPECTED, 1, 0, [])


def test_clear_and_prune_do_not_follow_a_linked_shard(cache_dir, tmp_path):
    from transpile.runtime import cache_admin
    compute()
    (entry,) = entries(cache_dir)
    elsewhere = tmp_path / "users-copy"
    shutil.copytree(entry.parent, elsewhere)
    other = cache_dir / ("ff" if entry.parent.name != "ff" else "fe")
    other.symlink_to(elsewhere)
    assert cache_admin.clear(str(cache_dir)) == 1               # only the real entry
    assert cache_admin.prune(str(cache_dir), older_than_s=0.0) == []
    assert (elsewhere / entry.name / "module.so").exists()
    assert other.is_symlink()


def test_a_cache_on_a_noexec_filesystem_is_not_used(cache_dir, monkeypatch):
    real_statvfs = os.statvfs

    class NoExec:
        def __init__(self, path):
            self.f_flag = real_statvfs(path).f_flag | os.ST_NOEXEC
    monkeypatch.setattr(os, "statvfs", NoExec)
    result, hits, misses, warned = compute()
    assert result == EXPECTED
    assert len(warned) == 1 and "noexec" in warned[0], warned
    assert entries(cache_dir) == []
