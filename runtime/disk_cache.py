"""The on-disk binary cache: content-addressed, atomic, locked per key, verified, self-healing.

Layout: <root>/<key[:2]>/<key>/ holds `module.c` (the exact source), `module.so` and
`manifest.json`. The manifest binds the entry to its key, the sha256 of the source it was
built from and the sha256 of the binary (plus how it was built); all are checked before
the binary is loaded, so a damaged entry, or one copied from another key, is a miss that
gets rebuilt, never a wrong answer. Builds happen in a private `.build-<key>-<pid>-*`
directory and are published with `os.replace`, under a per-key file lock whose wait is
bounded. An entry directory's mtime is its last use (for `prune` and the size cap).
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
import time

from .cache_location import cache_root, untrusted_reason, warn_once

SCHEMA = "2"
FORMAT = "transpile-cache"
DEFAULT_LOCK_TIMEOUT_S = 180.0
# A leftover build or trash directory whose process cannot be checked (another machine on a
# shared filesystem, a recycled pid) is removed once it is this old.
STALE_AFTER_S = 24 * 3600.0


def cache_key(source: str, compiler_identity: str) -> str:
    h = hashlib.sha256()
    for part in (SCHEMA, compiler_identity, source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def lock_timeout() -> float:
    """Seconds to wait for another process's build of the same key (TRANSPILE_CACHE_LOCK_TIMEOUT)."""
    value = os.environ.get("TRANSPILE_CACHE_LOCK_TIMEOUT", "").strip()
    try:
        return max(0.0, float(value)) if value else DEFAULT_LOCK_TIMEOUT_S
    except ValueError:
        warn_once(f"lock-timeout:{value}", f"transpile: TRANSPILE_CACHE_LOCK_TIMEOUT={value!r} "
                  f"is not a number of seconds; using {DEFAULT_LOCK_TIMEOUT_S:g}")
        return DEFAULT_LOCK_TIMEOUT_S


def read_manifest(entry_dir: str) -> dict | None:
    """The entry's manifest if it is one of transpile's, else None."""
    try:
        with open(os.path.join(entry_dir, "manifest.json")) as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or "so_sha256" not in manifest or "schema" not in manifest:
        return None
    return manifest


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


class DiskCache:
    def __init__(self, root: str | None = None):
        self.root = root or cache_root()

    def entry_dir(self, key: str) -> str:
        return os.path.join(self.root, key[:2], key)

    def paths(self, key: str) -> dict[str, str]:
        d = self.entry_dir(key)
        return {"c": os.path.join(d, "module.c"), "so": os.path.join(d, "module.so"),
                "manifest": os.path.join(d, "manifest.json")}

    # -- reading ------------------------------------------------------------------------------
    def lookup(self, key: str, source: str) -> str | None:
        """The path of a verified binary for `key` built from `source`, or None. An entry
        that fails verification is reported, removed, and so rebuilt by the caller."""
        d = self.entry_dir(key)
        if not os.path.lexists(d):
            return None
        problem = self._problem(key, source)
        if problem is None:
            with contextlib.suppress(OSError):
                os.utime(d)                        # last use, for prune and the size cap
            return self.paths(key)["so"]
        warn_once(f"bad-entry:{d}:{problem}",
                  f"transpile: cache entry {d} is corrupt, truncated or not this function's "
                  f"({problem}); rebuilding it")
        self.discard(key)
        return None

    def _problem(self, key: str, source: str) -> str | None:
        d, p = self.entry_dir(key), self.paths(key)
        reason = untrusted_reason(d)
        if reason is not None:
            return f"the entry directory {reason}"
        manifest = read_manifest(d)
        if manifest is None:
            return "no valid manifest"
        expected = {"schema": SCHEMA, "key": key, "source_sha256": sha256_text(source)}
        for field, value in expected.items():
            if manifest.get(field) != value:
                return f"manifest {field} does not match"
        try:
            if _sha256_file(p["so"]) != manifest["so_sha256"]:
                return "the binary's sha256 does not match its manifest"
        except OSError as err:
            return f"the binary cannot be read ({err.strerror})"
        return None

    # -- removing -----------------------------------------------------------------------------
    def discard(self, key: str) -> None:
        """Remove an entry. It is moved aside first (atomic), then deleted: another process
        may have the old binary mapped, and its inode stays valid until it is unmapped."""
        discard_entry(self.entry_dir(key))

    # -- building -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, key: str, timeout: float | None = None):
        """Serialise builds of one key across processes; yields False when another process
        held the lock for longer than `timeout` seconds (the caller then builds privately)."""
        shard = self._shard(key)
        timeout = lock_timeout() if timeout is None else timeout
        with open(os.path.join(shard, f"{key}.lock"), "a") as f:
            if not _acquire(f, timeout):
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def build_dir(self, key: str):
        """A private directory in the key's shard (so publishing is a rename), removed after."""
        shard = self._shard(key)
        remove_stale_temporaries(shard)
        tmp = tempfile.mkdtemp(prefix=f".build-{key[:12]}-{os.getpid()}-", dir=shard)
        try:
            yield tmp
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def install(self, key: str, tmp: str, source: str, built: dict) -> str:
        """Write the manifest into `tmp` (holding module.c and module.so) and publish it."""
        manifest = {"format": FORMAT, "schema": SCHEMA, "key": key,
                    "source_sha256": sha256_text(source),
                    "so_sha256": _sha256_file(os.path.join(tmp, "module.so")),
                    "built": built}
        with open(os.path.join(tmp, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
        final = self.entry_dir(key)
        if os.path.lexists(final):
            self.discard(key)
        os.replace(tmp, final)
        return self.paths(key)["so"]

    def _shard(self, key: str) -> str:
        shard = os.path.join(self.root, key[:2])
        os.makedirs(shard, mode=0o700, exist_ok=True)
        return shard


def _acquire(f, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    pause = 0.01
    while True:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.25)


def try_lock(shard: str, key: str):
    """A non-blocking hold of a key's build lock (an open file), or None when a build of
    that key is running: admin commands skip such entries rather than disturb the build."""
    try:
        f = open(os.path.join(shard, f"{key}.lock"), "a")
    except OSError:
        return None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return None
    return f


def discard_entry(entry_dir: str) -> bool:
    try:
        trash = tempfile.mkdtemp(prefix=f".trash-{os.getpid()}-", dir=os.path.dirname(entry_dir))
    except OSError:
        return False
    try:
        os.replace(entry_dir, os.path.join(trash, "entry"))
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(trash, ignore_errors=True)


def remove_stale_temporaries(shard: str) -> int:
    """Remove `.build-*`/`.trash-*` directories left by processes that died (SIGKILL, power
    loss) mid-build; a live process's directory is never touched."""
    removed = 0
    with contextlib.suppress(OSError):
        for name in os.listdir(shard):
            if name.startswith((".build-", ".trash-")) and _is_stale(os.path.join(shard, name),
                                                                     name):
                shutil.rmtree(os.path.join(shard, name), ignore_errors=True)
                removed += 1
    return removed


def _is_stale(path: str, name: str) -> bool:
    # .build-<key12>-<pid>-<random> and .trash-<pid>-<random>
    parts = name.split("-")
    pid_text = parts[2] if name.startswith(".build-") else parts[1]
    try:
        age = time.time() - os.lstat(path).st_mtime
    except OSError:
        return False
    if pid_text.isdigit() and int(pid_text) != os.getpid() and not process_alive(int(pid_text)):
        return True
    return age > STALE_AFTER_S
