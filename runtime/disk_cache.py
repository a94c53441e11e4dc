"""The on-disk binary cache: content-addressed, atomic, locked per key, verified, self-healing.

Layout and checks: see `cache_entry` (the manifest binds key, source, binary and compiler
identity; every one is checked before a binary is loaded, so a damaged entry, or one copied
from another key, is never served: it is reported once, removed and rebuilt). Builds happen
in a private `.build-<key>-<pid>-*` directory and are published with one atomic rename,
under a per-key lock that a stopped or dead builder cannot hold forever (`build_lock`). An
entry directory's mtime is its last use (for `prune` and the size cap).

A read-only cache (a directory this user cannot write, a read-only filesystem) still serves
the entries it holds; nothing is written to it.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import tempfile

from . import build_lock as _build_lock
from .cache_entry import Damaged, Verified, file_id, make_manifest, verify
from .cache_location import already_said, cache_root, untrusted_reason, warn_once
from .cache_removal import OWNER_FILE, claim_build_dir, discard_entry, remove_stale_temporaries, \
    remove_tree
# Re-exported: the names callers (the backends, the CLI, tests) know this module by.
from .build_lock import lock_timeout, stall_timeout  # noqa: F401
from .cache_entry import SCHEMA, cache_key, read_manifest, sha256_text, source_file  # noqa: F401

# The entry being written is complete only once renamed into place: these errors of the
# rename mean "something is already there".
_OCCUPIED = (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_only_key(root: str) -> str:
    """The one warning that a read-only cache directory cannot take new builds."""
    return f"read-only:{root}"


def warn_entry(entry_dir: str, message: str) -> None:
    """At most one warning per entry directory and process, whatever goes wrong with it."""
    warn_once(f"entry:{entry_dir}", message)


class DiskCache:
    def __init__(self, root: str | None = None, writable: bool = True):
        self.root = root or cache_root()
        self.writable = writable
        self._stuck: set[str] = set()     # keys whose damaged entry stays in place

    def entry_dir(self, key: str) -> str:
        return os.path.join(self.root, key[:2], key)

    def paths(self, key: str) -> dict[str, str]:
        d = self.entry_dir(key)
        return {"c": os.path.join(d, "module.c"), "so": os.path.join(d, "module.so"),
                "manifest": os.path.join(d, "manifest.json")}

    # -- reading ------------------------------------------------------------------------------
    def lookup(self, key: str, source: str) -> Verified | None:
        """The verified entry for `key` built from `source`, or None. An entry that fails
        verification is reported (once) and removed where it may be, so it gets rebuilt."""
        d = self.entry_dir(key)
        if self.shard_problem(key) is not None:
            return None
        found = verify(d, key, source)
        if found is None:
            return None
        if isinstance(found, Verified):
            if self.writable:
                with contextlib.suppress(OSError):
                    os.utime(d)                    # last use, for prune and the size cap
            return found
        if not self._report_damaged(d, found):
            self._stuck.add(key)
        return None

    def stuck(self, key: str) -> bool:
        """Whether a damaged entry that cannot be removed occupies the key's place (already
        said): a new build can then only be kept in memory."""
        return key in self._stuck

    def _report_damaged(self, d: str, damaged: Damaged) -> bool:
        """Warn once about a damaged entry and remove it where possible; True when gone."""
        removed = False
        if not damaged.ours:
            outcome = "it belongs to another user, so it is neither used nor removed"
        elif not self.writable:
            outcome = ("the cache directory is read-only, so it stays; what is built now is "
                       "kept in memory only for this process")
            already_said(read_only_key(self.root))
        elif discard_entry(d):
            outcome, removed = "rebuilding it", True
        else:
            outcome = ("it could not be removed; what is built now is kept in memory only for "
                       "this process")
        warn_entry(d, f"transpile: cache entry {d} is corrupt, truncated or not this function's "
                      f"({damaged.reason}); {outcome}")
        return removed

    def shard_problem(self, key: str) -> str | None:
        """Why the key's shard directory must not be used (None when it is fine or absent);
        said once per shard."""
        shard = os.path.dirname(self.entry_dir(key))
        try:
            st = os.lstat(shard)
        except FileNotFoundError:
            return None
        except OSError as err:
            reason = f"cannot be read ({err.strerror})"
        else:
            reason = untrusted_reason(shard, st)
        if reason is not None:
            warn_once(f"shard:{shard}", f"transpile: the cache directory {shard} {reason}; its "
                      "entries are not used and builds of its keys are kept in memory only")
        return reason

    def still_there(self, found: Verified) -> bool:
        """Whether the verified binary is still the file at its path (not pruned, replaced)."""
        return file_id(found.so_path) == found.so_id

    def has_entry(self, key: str) -> bool:
        return os.path.isdir(self.entry_dir(key))

    # -- removing -----------------------------------------------------------------------------
    def discard(self, key: str) -> bool:
        """Remove an entry (moved aside first, then deleted: a process that has the old
        binary mapped keeps a valid inode)."""
        return discard_entry(self.entry_dir(key))

    # -- building -----------------------------------------------------------------------------
    def lock(self, key: str):
        """The key's build lock (see `build_lock`): yields an Outcome; the wait also ends
        when the entry appears."""
        lock_path = os.path.join(self.shard(key), f"{key}.lock")
        return _build_lock.build_lock(lock_path, ready=lambda: self.has_entry(key))

    @contextlib.contextmanager
    def build_dir(self, key: str):
        """A private directory in the key's shard (so publishing is a rename), removed after,
        also when the build is interrupted."""
        shard = self.shard(key)
        remove_stale_temporaries(shard)
        tmp = tempfile.mkdtemp(prefix=f".build-{key[:12]}-{os.getpid()}-", dir=shard)
        owner = None
        try:
            owner = claim_build_dir(tmp)
            yield tmp
        finally:
            remove_tree(tmp)
            if owner is not None:
                os.close(owner)

    def install(self, key: str, tmp: str, source: str, built: dict, identity: str) -> str | None:
        """Write the manifest into `tmp` (holding the source and module.so) and publish it.
        Returns the published binary's path: ours, or an equal entry another process
        published first (kept: it may be mapped already). None when the key's place is taken
        by something that cannot be removed (said once, as a damaged entry); OSError when
        publishing fails otherwise."""
        manifest = make_manifest(key, source, sha256_file(os.path.join(tmp, "module.so")),
                                 identity, built)
        with open(os.path.join(tmp, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(tmp, OWNER_FILE))     # the directory is about to be the entry
        final = self.entry_dir(key)
        for _ in range(3):
            try:
                os.rename(tmp, final)
                return self.paths(key)["so"]
            except OSError as err:
                if err.errno not in _OCCUPIED:
                    raise
            current = verify(final, key, source)
            if isinstance(current, Verified):
                return current.so_path
            if current is not None:
                self._report_damaged(final, current)
                if not (current.ours and self.writable) or os.path.lexists(final):
                    return None
        raise OSError(errno.EBUSY, "its place stays occupied", final)

    def shard(self, key: str) -> str:
        shard = os.path.join(self.root, key[:2])
        os.makedirs(shard, mode=0o700, exist_ok=True)
        return shard
