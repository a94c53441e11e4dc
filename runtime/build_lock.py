"""The per-key build lock: one process compiles a key while the others wait, and no holder can
keep them waiting forever.

`flock` on <shard>/<key>.lock serialises the builds (the kernel drops it when its holder
dies, so a SIGKILLed builder never blocks anyone). The holder writes who it is (pid, process
start time, host) into the file and, from a thread, touches the file's mtime every
HEARTBEAT_S while it holds the lock: that is its progress. A waiter stops waiting when
- the holder runs on this host and is stopped (Ctrl-Z, SIGSTOP) or gone (the lock kept alive
  by a descriptor a child inherited), or does not name itself at all (not a transpile build
  of this version, so no heartbeat will come), for STOPPED_GRACE_S,
- the file's mtime has not moved for the stall timeout (a frozen process, or one on another
  machine that cannot be inspected), or
- it has waited TRANSPILE_CACHE_LOCK_TIMEOUT in all (a holder that beats but never finishes).
The caller then builds a copy of its own: builds are private until their atomic rename, so
two builds of one key are safe.
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import functools
import os
import stat
import threading
import time

from .cache_location import warn_once

HEARTBEAT_S = 1.0
DEFAULT_STALL_S = 10.0
DEFAULT_TIMEOUT_S = 180.0
STOPPED_GRACE_S = 2.0
MAX_POLL_S = 0.25
_NO_LOCKING = (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS)


@dataclasses.dataclass(frozen=True)
class Outcome:
    held: bool                    # this process holds the lock
    ready: bool = False           # the entry appeared while waiting
    reason: str | None = None     # why waiting stopped without the lock


def _seconds_from(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    try:
        return max(0.0, float(value)) if value else default
    except ValueError:
        warn_once(f"{name}:{value}", f"transpile: {name}={value!r} is not a number of seconds; "
                  f"using {default:g}")
        return default


def lock_timeout() -> float:
    """Seconds to wait in all for another process's build (TRANSPILE_CACHE_LOCK_TIMEOUT)."""
    return _seconds_from("TRANSPILE_CACHE_LOCK_TIMEOUT", DEFAULT_TIMEOUT_S)


def stall_timeout() -> float:
    """Seconds without a heartbeat after which a holder counts as stuck
    (TRANSPILE_CACHE_STALL_TIMEOUT)."""
    return _seconds_from("TRANSPILE_CACHE_STALL_TIMEOUT", DEFAULT_STALL_S)


@contextlib.contextmanager
def build_lock(lock_path: str, ready=lambda: False):
    """Hold the build lock at `lock_path`, or give up on its holder: yields an Outcome.
    `ready()` is asked while waiting; True (the entry was published) ends the wait. Raises
    OSError when the lock file cannot be opened (a read-only or full cache)."""
    fd = _open_lock_file(lock_path)
    try:
        outcome = _wait(fd, ready, stall_timeout(), lock_timeout())
        if not outcome.held:
            yield outcome
            return
        beat = _Heartbeat(fd)
        try:
            yield outcome
        finally:
            beat.stop()
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def try_lock(lock_path: str) -> int | None:
    """A non-blocking hold of a build lock (a descriptor to close), or None when a build of
    that key is running: admin commands skip such entries rather than disturb the build."""
    try:
        fd = _open_lock_file(lock_path)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _open_lock_file(path: str) -> int:
    flags = os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | flags, 0o600)
    except PermissionError:
        fd = os.open(path, os.O_RDONLY | flags)     # flock needs no write access
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "the build lock is not a regular file", path)
    return fd


# -- waiting ----------------------------------------------------------------------------------

def _wait(fd: int, ready, stall_s: float, timeout_s: float) -> Outcome:
    started = time.monotonic()
    last_mtime, last_change = _mtime(fd), started
    bad_since = None                       # when the holder was first seen stopped or gone
    pause = 0.01
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            _write_holder(fd)
            return Outcome(held=True)
        except BlockingIOError:
            pass
        except OSError as err:
            if err.errno not in _NO_LOCKING:
                raise
            return Outcome(held=False)      # a filesystem without locks: build, publish by rename
        if ready():
            return Outcome(held=False, ready=True)
        now = time.monotonic()
        mtime = _mtime(fd)
        if mtime != last_mtime:
            last_mtime, last_change = mtime, now
        holder = _holder_problem(fd)
        bad_since = (bad_since or now) if holder else None
        if holder and now - bad_since >= min(STOPPED_GRACE_S, stall_s):
            return Outcome(held=False, reason=holder)
        if now - last_change >= min(stall_s, timeout_s):
            return Outcome(held=False, reason=f"the process building it has shown no progress "
                           f"for {now - last_change:.0f} s{_who(fd)}")
        if now - started >= timeout_s:
            return Outcome(held=False, reason=f"it has been building for longer than "
                           f"{timeout_s:g} s (TRANSPILE_CACHE_LOCK_TIMEOUT){_who(fd)}")
        time.sleep(pause)
        pause = min(pause * 2, MAX_POLL_S)


def _mtime(fd: int) -> int:
    try:
        return os.fstat(fd).st_mtime_ns
    except OSError:
        return 0


# -- who holds it -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _host() -> str:
    import socket          # here, not at the top: a cache hit never needs it (import time)
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    except OSError:
        boot = "?"
    return f"{socket.gethostname()}/{boot}"


def _process_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks) of a process on this host, from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], fields[19]


@functools.lru_cache(maxsize=1)
def _can_see_processes() -> bool:
    """Whether /proc shows processes' states and start times here (Linux)."""
    return _process_stat(os.getpid()) is not None


def _write_holder(fd: int) -> None:
    mine = _process_stat(os.getpid())
    start = mine[1] if mine else "?"
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {start} {_host()}\n".encode(), 0)


def _read_holder(fd: int) -> tuple[int, str, str] | None:
    try:
        fields = os.pread(fd, 512, 0).decode().split()
        return int(fields[0]), fields[1], fields[2]
    except (OSError, ValueError, IndexError, UnicodeDecodeError):
        return None


def _holder_problem(fd: int) -> str | None:
    """Why the holder, when it runs on this host, cannot be making progress; else None."""
    holder = _read_holder(fd)
    if holder is None:       # a builder names itself at once: this holder shows no progress
        return ("whatever holds its lock does not name itself in the lock file, so it shows "
                "no progress (not a build by this version of transpile)")
    if holder[2] != _host() or holder[1] == "?" or not _can_see_processes():
        return None
    pid, start, _ = holder
    current = _process_stat(pid)
    if current is None or current[1] != start:
        return f"the process that was building it (pid {pid}) has exited, its lock held on"
    if current[0] in ("T", "t"):
        return f"the process building it (pid {pid}) is stopped (Ctrl-Z or SIGSTOP)"
    return None


def _who(fd: int) -> str:
    holder = _read_holder(fd)
    return f" (pid {holder[0]} on {holder[2].split('/')[0]})" if holder else ""


# -- showing progress ---------------------------------------------------------------------------

class _Heartbeat:
    """Touches the lock file every HEARTBEAT_S from a daemon thread while the lock is held. A
    stopped process's threads stop too, which is what waiters detect."""

    def __init__(self, fd: int):
        self._fd = fd
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="transpile-build-heartbeat",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(HEARTBEAT_S):
            if not _a_child_is_stopped():           # the compiler stopped alone: no progress
                with contextlib.suppress(OSError):
                    os.utime(self._fd)

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()


def _a_child_is_stopped() -> bool:
    """Whether a child of this process (the compiler) is stopped (Linux /proc; else False)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return False
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children") as f:
                children = f.read().split()
        except OSError:
            continue
        for pid in children:
            state = _process_stat(int(pid))
            if state is not None and state[0] in ("T", "t"):
                return True
    return False
