"""The on-disk binary cache: content-addressed, atomic, locked per key, self-healing.

Layout: <root>/<key[:2]>/<key>/ holds `module.c` (the source, with its build
command appended), `module.so` and `manifest.json` (the .so's sha256). An entry
counts only if the manifest matches the binary, so a truncated or corrupt entry
is a miss that gets rebuilt, never a crash. Builds happen in a private temporary
directory and are published with `os.replace`, under a per-key file lock.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
import warnings

SCHEMA = "1"


def cache_root() -> str:
    root = os.environ.get("TRANSPILE_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "transpile")
    os.makedirs(root, mode=0o700, exist_ok=True)
    return root


def cache_key(source: str, compiler_identity: str) -> str:
    h = hashlib.sha256()
    for part in (SCHEMA, compiler_identity, source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class DiskCache:
    def __init__(self, root: str | None = None):
        self.root = root or cache_root()

    def entry_dir(self, key: str) -> str:
        return os.path.join(self.root, key[:2], key)

    def paths(self, key: str) -> dict[str, str]:
        d = self.entry_dir(key)
        return {"c": os.path.join(d, "module.c"), "so": os.path.join(d, "module.so"),
                "manifest": os.path.join(d, "manifest.json")}

    def lookup(self, key: str) -> str | None:
        """The path of a verified binary for `key`, or None (a corrupt entry is removed)."""
        p = self.paths(key)
        if not os.path.isdir(self.entry_dir(key)):
            return None
        # Entries are published whole (manifest included) by one rename, so an entry
        # directory without a valid manifest is damaged, never half-written.
        try:
            with open(p["manifest"]) as f:
                expected = json.load(f)["so_sha256"]
            if _sha256_file(p["so"]) == expected:
                return p["so"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        warnings.warn(f"transpile: cache entry {self.entry_dir(key)} is corrupt or truncated; "
                      "rebuilding it", RuntimeWarning, stacklevel=2)
        self._discard(key)
        return None

    def _discard(self, key: str) -> None:
        # Move aside first (atomic), then delete: another process may still have the old
        # binary mapped, and its inode stays valid until it is unmapped.
        d = self.entry_dir(key)
        with contextlib.suppress(OSError):
            trash = tempfile.mkdtemp(prefix=".trash-", dir=os.path.dirname(d))
            os.replace(d, os.path.join(trash, "entry"))
            shutil.rmtree(trash, ignore_errors=True)

    @contextlib.contextmanager
    def lock(self, key: str):
        """Serialise builds of one key across processes."""
        shard = os.path.join(self.root, key[:2])
        os.makedirs(shard, mode=0o700, exist_ok=True)
        with open(os.path.join(shard, f"{key}.lock"), "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def publish(self, key: str, build) -> str:
        """Run `build(tmpdir) -> (source_path, so_path)` and atomically install the result."""
        shard = os.path.join(self.root, key[:2])
        tmp = tempfile.mkdtemp(prefix=f".build-{key[:12]}-", dir=shard)
        try:
            c_path, so_path = build(tmp)
            manifest = {"so_sha256": _sha256_file(so_path), "schema": SCHEMA}
            with open(os.path.join(tmp, "manifest.json"), "w") as f:
                json.dump(manifest, f)
            # The source keeps its own name (module.c, module.cu); the binary is module.so.
            for name, path in ((os.path.basename(c_path), c_path), ("module.so", so_path)):
                if os.path.basename(path) != name:
                    os.replace(path, os.path.join(tmp, name))
            final = self.entry_dir(key)
            if os.path.exists(final):
                self._discard(key)
            os.replace(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return self.paths(key)["so"]
