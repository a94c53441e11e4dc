"""Getting a loaded module for generated source: from the disk cache, by building into it, or
by a private build kept in memory when the cache cannot be used. Used by `compiled_backend`
for the CPU and CUDA backends (`backend.compiler`, `backend.executable_class`,
`backend._build`).

Every failure of the cache itself (unusable, read-only, full, a stalled builder, a damaged
entry, a directory whose binaries cannot be loaded) degrades to a private build with one
warning; only the compiler rejecting the code, or a binary that cannot be loaded from
anywhere, is an error.
"""
from __future__ import annotations

import errno
import os
import shutil
import tempfile

from .. import logs
from ..runtime import runtime_library
from ..runtime.cache_admin import max_size_from_environment, prune
from ..runtime.cache_location import usable_root, warn_once
from ..runtime.compiler import CompileError
from ..runtime.disk_cache import DiskCache, cache_key, read_only_key, warn_entry
from ..runtime.loader import LoadError

_READ_ONLY = (errno.EACCES, errno.EPERM, errno.EROFS)
_FULL = (errno.ENOSPC, errno.EDQUOT)


def compile_cached(backend, prepared):
    """(executable, found_on_disk)."""
    location = usable_root()
    if location is None:
        return build_private(backend, prepared, "the cache directory is not usable"), False
    cache = DiskCache(*location)
    try:
        return _through_disk(backend, prepared, cache)
    except OSError as err:      # the cache failed under us: full, read-only, removed...
        _say_cache_failed(cache.root, err)
    except CompileError as err:
        if not err.out_of_space:
            raise
        _say_cache_failed(cache.root, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    return build_private(backend, prepared, "the disk cache failed"), False


def load_if_cached(backend, prepared):
    """The disk cache's verified module for `prepared`, loaded, or None (no entry, or no
    usable cache): a lookup only, which never builds and never waits for a lock."""
    location = usable_root()
    if location is None:
        return None
    cache = DiskCache(*location)
    try:
        key = cache_key(prepared.source, backend.compiler.identity)
        executable = _load_cached(backend, prepared, cache, key)
    except OSError:
        return None
    return None if executable is None else _hit(backend, cache, key, executable)[0]


def _through_disk(backend, prepared, cache: DiskCache):
    key = cache_key(prepared.source, backend.compiler.identity)
    executable = _load_cached(backend, prepared, cache, key)
    if executable is not None:
        return _hit(backend, cache, key, executable)
    if not cache.writable:
        warn_once(read_only_key(cache.root), f"transpile: the cache directory {cache.root} is "
                  "read-only: it serves the entries it holds, and what is built now is kept "
                  "in memory only for this process")
        return build_private(backend, prepared, "read-only cache"), False
    if cache.shard_problem(key) is not None or cache.stuck(key):
        return build_private(backend, prepared, "the key's place in the cache is unusable"), False
    with cache.lock(key) as outcome:
        if outcome.held or outcome.ready:
            executable = _load_cached(backend, prepared, cache, key)   # built by another
            if executable is not None:
                return _hit(backend, cache, key, executable)
        if outcome.reason is not None:
            warn_once(f"stalled:{cache.entry_dir(key)}", "transpile: not waiting any longer "
                      f"for another process's build of {cache.entry_dir(key)}: "
                      f"{outcome.reason}; building a copy of its own "
                      "(TRANSPILE_CACHE_STALL_TIMEOUT, TRANSPILE_CACHE_LOCK_TIMEOUT)")
        executable, published = _build_and_publish(backend, prepared, cache, key)
    logs.source(_source_log(backend, cache, key))
    if published:
        _enforce_size_cap(cache.root, key)
    return executable, False


def _hit(backend, cache: DiskCache, key: str, executable):
    logs.cache(f"disk hit {cache.entry_dir(key)}")
    logs.source(_source_log(backend, cache, key))
    return executable, True


def _load_cached(backend, prepared, cache: DiskCache, key: str):
    """The verified entry, loaded, or None. A verified binary that fails to load (damaged in
    a way its hash cannot see) is discarded so it gets rebuilt; one that was pruned or
    replaced between its check and its loading is a plain miss."""
    found = cache.lookup(key, prepared.source)
    if found is None:
        return None
    try:
        executable = backend.executable_class(prepared, found.so_path)
    except LoadError as err:
        if not cache.still_there(found):
            return None
        warn_entry(found.path, f"transpile: discarding cache entry {found.path}, which failed "
                   f"to load ({err}); rebuilding")
        if cache.writable:
            cache.discard(key)
        return None
    # What was loaded must be what was checked: the path could have been replaced between.
    return executable if cache.still_there(found) else None


def _build_and_publish(backend, prepared, cache: DiskCache, key: str):
    """Build in a private directory of the shard, load from there, then publish by rename:
    a binary that cannot be loaded is never published. (executable, published)"""
    final_so = cache.paths(key)["so"]
    with cache.build_dir(key) as tmp:
        try:
            built = backend._build(prepared, tmp)
        except CompileError:
            if not os.path.isdir(tmp):       # the cache was removed under the build
                raise OSError(errno.ENOENT, "the build directory was removed", tmp) from None
            raise
        try:
            executable = backend.executable_class(prepared, final_so,
                                                  load_from=os.path.join(tmp, "module.so"))
        except LoadError as err:
            return _not_loadable_here(backend, prepared, cache, err), False
        try:
            so_path = cache.install(key, tmp, prepared.source, built, backend.compiler.identity)
        except OSError as err:          # e.g. the disk filled up while writing the manifest
            warn_once(f"publish:{cache.root}", f"transpile: could not publish "
                      f"{cache.entry_dir(key)} ({err}); this process keeps a private copy")
            so_path = None
    if so_path is None:
        logs.cache(f"could not publish {cache.entry_dir(key)}; kept a private copy")
        return executable, False
    logs.cache(f"disk miss, compiled into {cache.entry_dir(key)} in {built['seconds']:.2f} s")
    return executable, True


def _not_loadable_here(backend, prepared, cache: DiskCache, err: LoadError):
    """A fresh binary that fails to load from the cache directory: if one built elsewhere
    loads, the directory is the problem (e.g. mounted noexec); else the binary is."""
    executable = build_private(backend, prepared, "binaries in the cache cannot be loaded")
    hint = "" if "TRANSPILE_CACHE_DIR" in str(err) else (
        " Set TRANSPILE_CACHE_DIR to a directory on a filesystem that allows executing code.")
    warn_once(f"noexec:{cache.root}", f"transpile: binaries in the cache directory {cache.root} "
              f"cannot be loaded ({err}); compiled code is kept in memory only for this "
              f"process.{hint}")
    return executable


def build_private(backend, prepared, why: str):
    """Build into a temporary directory of our own, load, delete the files (a loaded library
    stays mapped). Interrupted or failed, it leaves nothing behind."""
    logs.cache(f"building a private, memory-only copy ({why})")
    tmp = tempfile.mkdtemp(prefix="transpile-private-")
    try:
        backend._build(prepared, tmp)
        return backend.executable_class(prepared, os.path.join(tmp, "module.so"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _say_cache_failed(root: str, err: OSError) -> None:
    if err.errno in _FULL:
        what = f"is full ({err.strerror})"
    elif err.errno in _READ_ONLY:
        what = f"cannot be written ({err.strerror})"
    else:
        what = f"failed ({err})"
    warn_once(f"cache-io:{root}", f"transpile: the disk cache at {root} {what}; compiled code "
              "is kept in memory only for this process")


def _source_log(backend, cache: DiskCache, key: str) -> str:
    source = os.path.join(cache.entry_dir(key), backend.executable_class.source_name)
    return f"generated {backend.executable_class.language}: {source}"


def _enforce_size_cap(root: str, keep: str) -> None:
    try:
        limit = max_size_from_environment()
    except ValueError as err:
        logs.warn_once("max-size", f"transpile: TRANSPILE_CACHE_MAX_SIZE ignored: {err}")
        return
    if limit is None:
        return
    in_use = frozenset([keep]) | runtime_library.loaded_keys()
    for entry in prune(root, max_size=limit, keep=in_use):
        logs.cache(f"evicted {entry.path} ({entry.size} bytes; TRANSPILE_CACHE_MAX_SIZE={limit})")
