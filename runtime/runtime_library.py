"""The runtime library: the runtime's whole-buffer kernels, built once and shared by modules.

GEMM (with its packing and micro-kernels), sorts, factorizations, spectral decompositions
and scatters are thousands of lines of C once their macros expand per dtype; compiled at -O3
into every module that used one, they cost a module with a matrix product over a second of
build time (issue 22). Here they are compiled once per compiler identity (compiler build,
flags, CPU features, the headers' contents: `CCompiler.identity`) into a shared library kept
in the disk cache like any module: content-addressed, owner-only, manifest-checked, built
under the key's lock into a private directory and published by rename. A second process
finds it there and never rebuilds it. Generated modules include `tp_runtime.h`'s declarations
only, and are linked against the library.

How modules reach it, and why by linking: the library's soname carries its key
(libtp_runtime-<key>.so); a module is linked against the library's file, so the module's
DT_NEEDED names that soname and its calls go through the usual PLT. Before a module is
loaded the library is loaded by its verified path (RTLD_NODELETE, for the process's life);
the dynamic linker then satisfies the module's DT_NEEDED with the already-loaded object by
soname, never by searching the file system. Libraries of different flags (a UBSan build)
have different keys, so sonames, and coexist in one process, each module bound to its own.
The alternative, a table of function pointers handed to each module after loading, measured
the same per call (one indirect jump either way, against kernels that take microseconds) and
the same build time (linking against a 300 KB library adds about 2 ms), but needs a setter
in every module, a table in every export and a call on every load; linking keeps generated C
calling plain functions. (benchmarks/bench_compile.py; README "First call".)

Building splits the library into one translation unit per kernel header, compiled in
parallel (the machine's cores), then linked: the one-time build is bounded by GEMM's part.
"""
from __future__ import annotations

import atexit
import concurrent.futures
import dataclasses
import os
import shutil
import tempfile
import threading
import time

from .cache_location import trusted_root
from .compiler import CCompiler, run_compiler
from .disk_cache import DiskCache, cache_key
from .loader import LoadError, load_library

DECLARATIONS = "tp_runtime.h"
# The kernel headers compiled into the library, heaviest first (the parallel build starts it
# first). Each defines its exported kernels with TP_KERNEL_API (tp_kernel_api.h).
KERNEL_HEADERS = ("tp_gemm.h", "tp_sort.h", "tp_spectral.h", "tp_linalg.h", "tp_scatter.h")
KIND = "runtime"           # the manifest's "built" -> "kind" of the library's cache entry


def part_source(header: str) -> str:
    """One translation unit of the library: `header`'s kernels, exported."""
    return "\n".join([
        f"/* transpile runtime library, part {header}: its kernels compiled once, exported. */",
        '#define TP_KERNEL_API __attribute__((visibility("default")))',
        f'#include "{DECLARATIONS}"   /* first: each definition is checked against it */',
        f'#include "{header}"', ""])


def library_source() -> str:
    """The whole library as one source (what its cache key hashes, kept as its module.c;
    also a valid single translation unit of the same kernels)."""
    return "\n".join(part_source(h) for h in KERNEL_HEADERS)


def needed_by(source: str) -> bool:
    """Does a generated module call into the runtime library?"""
    return f'#include "{DECLARATIONS}"' in source


def soname(key: str) -> str:
    return f"libtp_runtime-{key[:32]}.so"


@dataclasses.dataclass
class RuntimeLibrary:
    path: str                    # the shared library modules are linked against
    key: str
    built_seconds: float | None  # how long this process took to build it; None: found
    handle: object = None        # the loaded library, never closed

    @property
    def soname(self) -> str:
        return soname(self.key)


_loaded: dict[str, RuntimeLibrary] = {}        # compiler identity -> the library in use
_lock = threading.Lock()


def loaded_keys() -> frozenset:
    """Cache keys of the libraries this process uses (a size cap must not evict them)."""
    return frozenset(lib.key for lib in _loaded.values())


def ensure(compiler: CCompiler, log=None) -> RuntimeLibrary:
    """The runtime library for `compiler`, loaded in this process: found in the disk cache,
    or built there (under the key's lock) by the first process that needs it. `log(channel,
    message)` hears about a build ("compiles") or a disk hit ("cache")."""
    log = log or (lambda channel, message: None)
    with _lock:
        current = _loaded.get(compiler.identity)
        if current is not None and os.path.exists(current.path):
            return current
        # Not loaded yet, or its file was removed meanwhile (`transpile cache clear`): the
        # loaded copy keeps serving, but building a module needs a file to link against.
        found = _find_or_build(compiler, log)
        if current is not None:
            current.path = found.path
            return current
        try:
            found.handle = load_library(found.path)
        except LoadError as err:     # verified, yet unloadable: built again, privately
            log("cache", f"the runtime library at {found.path} failed to load ({err}); "
                "rebuilding it privately")
            found = _build_private(compiler, log, "the cached copy failed to load")
            found.handle = load_library(found.path)
        _loaded[compiler.identity] = found
        return found


def _find_or_build(compiler: CCompiler, log) -> RuntimeLibrary:
    root = trusted_root()
    if root is None:
        return _build_private(compiler, log, "the cache directory is not usable")
    try:
        return _through_disk(compiler, DiskCache(root), log)
    except OSError as err:
        return _build_private(compiler, log, f"the disk cache failed ({err})")


def _through_disk(compiler: CCompiler, cache: DiskCache, log) -> RuntimeLibrary:
    source = library_source()
    key = cache_key(source, compiler.identity)
    path = cache.lookup(key, source)
    if path is not None:
        log("cache", f"runtime library found at {cache.entry_dir(key)}")
        return RuntimeLibrary(path, key, None)
    with cache.lock(key) as locked:
        if not locked:
            return _build_private(compiler, log, "another process holds its build lock")
        path = cache.lookup(key, source)        # built meanwhile by another process
        if path is not None:
            log("cache", f"runtime library built by another process at {cache.entry_dir(key)}")
            return RuntimeLibrary(path, key, None)
        with cache.build_dir(key) as tmp:
            built = build(compiler, key, tmp)
            path = cache.install(key, tmp, source, built)
    log("compiles", f"built the runtime library (once per compiler, flags and CPU) into "
        f"{cache.entry_dir(key)} in {built['seconds']:.2f} s")
    return RuntimeLibrary(path, key, built["seconds"])


_private_dirs: list[str] = []


def _build_private(compiler: CCompiler, log, why: str) -> RuntimeLibrary:
    """Built into a directory of this process's own, kept until it exits: modules built
    later link against the file."""
    tmp = tempfile.mkdtemp(prefix="transpile-runtime-")
    if not _private_dirs:
        atexit.register(lambda: [shutil.rmtree(d, ignore_errors=True) for d in _private_dirs])
    _private_dirs.append(tmp)
    key = cache_key(library_source(), compiler.identity)
    built = build(compiler, key, tmp)
    log("compiles", f"built a private runtime library ({why}) in {built['seconds']:.2f} s")
    return RuntimeLibrary(os.path.join(tmp, "module.so"), key, built["seconds"])


def build(compiler: CCompiler, key: str, tmp: str) -> dict:
    """Compile the library into tmp/module.so (its whole source in tmp/module.c); what the
    manifest records about the build."""
    started = time.perf_counter()
    with open(os.path.join(tmp, "module.c"), "w") as f:
        f.write(library_source())
    parts = []
    for header in KERNEL_HEADERS:
        stem = os.path.join(tmp, "part_" + header.removesuffix(".h"))
        with open(stem + ".c", "w") as f:
            f.write(part_source(header))
        parts.append(stem)
    workers = max(1, min(len(parts), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda stem: run_compiler(
            compiler.object_command(stem + ".c", stem + ".o"), stem + ".c"), parts))
    link = compiler.link_command([p + ".o" for p in parts], os.path.join(tmp, "module.so"),
                                 soname(key))
    run_compiler(link, "the runtime library")
    for stem in parts:                       # the entry keeps module.c, module.so, manifest
        os.remove(stem + ".c")
        os.remove(stem + ".o")
    return {"kind": KIND, "compiler": compiler.version(), "soname": soname(key),
            "seconds": round(time.perf_counter() - started, 3),
            "command": " ".join(compiler.object_command("part_<header>.c", "part_<header>.o")),
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
