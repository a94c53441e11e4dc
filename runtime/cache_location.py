"""Where the disk cache lives, and whether it can be trusted.

Loading a cached binary runs its code, so the cache directory must be one only this user
can write: owned by the current user and not group- or world-writable. A directory that
fails that, or cannot be created or read (a path under a regular file), is not used at all:
transpile keeps compiled code in memory only and says so once. One that is trusted but
cannot be written (read-only) serves the entries it holds.
"""
from __future__ import annotations

import os
import stat
import warnings

_warned: set = set()


def cache_root() -> str:
    """The configured cache directory (TRANSPILE_CACHE_DIR, else the XDG cache dir)."""
    root = os.environ.get("TRANSPILE_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "transpile")
    return os.path.abspath(root)


def untrusted_reason(path: str, st: os.stat_result | None = None) -> str | None:
    """Why a directory of the cache must not be trusted, or None when it is this user's own."""
    try:
        st = st or os.lstat(path)
    except OSError as err:
        return f"cannot be read ({err.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if st.st_uid != os.getuid():
        return f"is owned by another user (uid {st.st_uid})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is writable by other users (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def usable_root() -> tuple[str, bool] | None:
    """(the cache directory, whether it can be written), created if needed; None (with one
    warning) when it cannot be used safely: compiled code then stays in memory only. A
    directory that is trusted and readable but not writable is still used, read-only: it
    serves the entries it holds."""
    root = cache_root()
    if os.path.lexists(root) and not os.path.isdir(root):
        return _refuse(root, "is not a directory")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        st = os.stat(root)
    except OSError as err:
        return _refuse(root, f"cannot be created ({err.strerror or err})")
    reason = untrusted_reason(root, st) or unusable_reason(root)
    if reason is not None:
        return _refuse(root, reason)
    return root, os.access(root, os.W_OK | os.X_OK)


def unusable_reason(root: str) -> str | None:
    """Why a trusted directory still cannot serve as the cache, or None."""
    if not os.access(root, os.R_OK | os.X_OK):
        return "cannot be read"
    try:
        noexec = os.statvfs(root).f_flag & getattr(os, "ST_NOEXEC", 0)
    except OSError:
        noexec = False
    # Binaries there could be written but never loaded: every call would compile again.
    return "is on a filesystem mounted noexec (binaries there cannot be loaded)" if noexec \
        else None


def trusted_root() -> str | None:
    """The cache directory when it can be used and written, else None."""
    usable = usable_root()
    return usable[0] if usable and usable[1] else None


def _refuse(root: str, reason: str) -> None:
    warn_once(f"root:{root}:{reason}",
              f"transpile: the cache directory {root} {reason}; compiled code is kept in "
              "memory only for this process. Set TRANSPILE_CACHE_DIR to a directory of your "
              "own (mode 700) to keep binaries across runs.")
    return None


def already_said(key: str) -> None:
    """Count `key` as warned about: another warning said it already."""
    _warned.add(key)


def warn_once(key: str, message: str) -> None:
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, RuntimeWarning, stacklevel=4)
