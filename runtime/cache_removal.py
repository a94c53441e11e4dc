"""Removing things from the disk cache without ever touching anything else.

- Only what this user owns is removed: an entry that belongs to another user is left where
  it is (it is not served either).
- Symbolic links are removed, never followed: a link planted in the cache cannot make
  transpile delete the files it points to.
- An entry is first renamed aside within its own shard (atomic; a rename within one
  directory needs no permission on the entry itself, so a mode-000 entry moves too), then
  deleted; a directory of ours that was locked down (mode 000) is opened up to be deleted.
  Another process that has the old binary mapped keeps a valid inode.
- Leftover `.build-*` and `.trash-*` directories of processes that died mid-build are
  removed; a live builder's directory never is (it holds a lock on its `.owner` file, which
  a stopped process keeps holding too).
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import stat
import time

# A leftover whose owner cannot be checked (no `.owner` file, a pid from another machine or
# a recycled one) is removed once it is this old.
STALE_AFTER_S = 24 * 3600.0
OWNER_FILE = ".owner"


def discard_entry(entry_dir: str) -> bool:
    """Move the entry at `entry_dir` aside and delete it; False when it is not ours to remove
    or cannot be moved. True when nothing is there any more."""
    try:
        st = os.lstat(entry_dir)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if st.st_uid != os.getuid():
        return False
    trash = os.path.join(os.path.dirname(entry_dir),
                         f".trash-{os.getpid()}-{secrets.token_hex(6)}")
    try:
        os.rename(entry_dir, trash)
    except FileNotFoundError:
        return True                      # another process removed it first
    except OSError:
        return False
    remove_tree(trash)
    return True


def remove_tree(path: str) -> None:
    """Delete `path`: a link or file is unlinked, a directory of ours emptied and removed
    (opened up first where it was locked down). Errors leave things in place, quietly."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode):
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    _open_up(path)
    shutil.rmtree(path, ignore_errors=True)


def _open_up(top: str) -> None:
    """Give this user rwx on every directory of ours under `top` (links not followed), so
    that a locked-down entry can be emptied. Iterative: entries are shallow, but nothing
    here should recurse on untrusted depth."""
    stack = [top]
    while stack:
        path = stack.pop()
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            continue
        if st.st_mode & 0o700 != 0o700:
            with contextlib.suppress(OSError):
                os.chmod(path, 0o700)
        with contextlib.suppress(OSError):
            stack.extend(os.path.join(path, name) for name in os.listdir(path))


def claim_build_dir(path: str):
    """Mark `path` (a fresh build directory) as in use by this process: an open, locked
    `.owner` file that the caller keeps until the directory is gone."""
    fd = os.open(os.path.join(path, OWNER_FILE), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def remove_stale_temporaries(shard: str) -> int:
    """Remove `.build-*`/`.trash-*` directories left by processes that died (SIGKILL, power
    loss) mid-build or mid-removal; a live (or stopped) process's directory is never touched."""
    removed = 0
    with contextlib.suppress(OSError):
        for name in os.listdir(shard):
            path = os.path.join(shard, name)
            if name.startswith((".build-", ".trash-")) and _is_stale(path, name):
                remove_tree(path)
                removed += 1
    return removed


def _is_stale(path: str, name: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if st.st_uid != os.getuid():
        return False
    if not stat.S_ISDIR(st.st_mode):
        return True
    owner = _owner_lock_free(path)
    if owner is not None:
        return owner
    # .build-<key12>-<pid>-<random> and .trash-<pid>-<random>: no `.owner` file (yet, or gone)
    parts = name.split("-")
    pid_text = parts[2] if name.startswith(".build-") and len(parts) > 2 else parts[1]
    if pid_text.isdigit() and int(pid_text) != os.getpid() and not process_alive(int(pid_text)):
        return True
    return time.time() - st.st_mtime > STALE_AFTER_S


def _owner_lock_free(path: str) -> bool | None:
    """Whether the build directory's `.owner` lock is free (its builder is gone); None when
    there is no such file to ask."""
    try:
        fd = os.open(os.path.join(path, OWNER_FILE), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
