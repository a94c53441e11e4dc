"""Managing the disk cache as a whole: list, measure, prune, clear, and the size cap.

Only entries that carry transpile's manifest are ever counted or removed: the directory may
be one the user chose, and anything else in it is not ours. An entry whose key is being
built right now (its lock is held) is skipped, so these never break a concurrent build.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import re

from .build_lock import try_lock
from .cache_entry import read_manifest
from .cache_removal import discard_entry, remove_stale_temporaries

DEFAULT_MAX_SIZE = None          # no cap unless TRANSPILE_CACHE_MAX_SIZE or prune --max-size


@dataclasses.dataclass
class Entry:
    key: str
    path: str
    size: int          # bytes of its files
    last_used: float   # the entry directory's mtime: set when published and on each disk hit
    manifest: dict


def _is_shard(name: str) -> bool:
    return len(name) == 2 and all(c in "0123456789abcdef" for c in name)


def shards(root: str) -> list[str]:
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    # A shard that is a symbolic link is not followed: what it points to is not ours.
    return [os.path.join(root, n) for n in names
            if _is_shard(n) and os.path.isdir(os.path.join(root, n))
            and not os.path.islink(os.path.join(root, n))]


def entries(root: str) -> list[Entry]:
    """transpile's entries under `root`: directories with a transpile manifest."""
    found = []
    for shard in shards(root):
        with contextlib.suppress(OSError):
            for key in sorted(os.listdir(shard)):
                path = os.path.join(shard, key)
                if key.startswith(".") or not os.path.isdir(path) or os.path.islink(path):
                    continue
                manifest = read_manifest(path)
                if manifest is not None:
                    with contextlib.suppress(OSError):      # removed meanwhile
                        found.append(Entry(key, path, _size(path), os.stat(path).st_mtime,
                                           manifest))
    return found


def _size(path: str) -> int:
    total = 0
    with contextlib.suppress(OSError):
        for name in os.listdir(path):
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(path, name)).st_size
    return total


def remove(entry: Entry) -> bool:
    """Remove one entry unless its key is being built right now."""
    held = try_lock(os.path.join(os.path.dirname(entry.path), f"{entry.key}.lock"))
    if held is None:
        return False
    try:
        return discard_entry(entry.path)
    finally:
        os.close(held)        # closing the only descriptor releases the lock


def clear(root: str) -> int:
    for shard in shards(root):
        remove_stale_temporaries(shard)
    return sum(remove(e) for e in entries(root))


def prune(root: str, max_size: int | None = None, older_than_s: float | None = None,
          now: float | None = None, keep: frozenset = frozenset()) -> list[Entry]:
    """Remove entries unused for `older_than_s`, then least recently used ones until the
    rest fit in `max_size` bytes. `keep` names keys never removed (the one just built)."""
    import time
    now = time.time() if now is None else now
    for shard in shards(root):
        remove_stale_temporaries(shard)
    alive = sorted(entries(root), key=lambda e: e.last_used)     # least recently used first
    removed = []
    if older_than_s is not None:
        for e in [e for e in alive if now - e.last_used > older_than_s and e.key not in keep]:
            if remove(e):
                removed.append(e)
                alive.remove(e)
    if max_size is not None:
        total = sum(e.size for e in alive)
        for e in list(alive):
            if total <= max_size:
                break
            if e.key not in keep and remove(e):
                removed.append(e)
                total -= e.size
    return removed


def parse_size(text: str) -> int:
    """'2G', '500M', '64k', '1000' (bytes; powers of 1024)."""
    text = text.strip().upper().removesuffix("B").removesuffix("I")
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    scale = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"not a size: {text!r} (use e.g. 500M, 2G or a number of bytes)") from None
    if value < 0:
        raise ValueError(f"a size cannot be negative: {text!r}")
    return int(value * scale)


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*([a-z]+)")
_UNIT_WORDS = {"s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
               "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
               "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
               "d": "d", "day": "d", "days": "d", "w": "w", "week": "w", "weeks": "w"}
DURATION_HELP = "a number with a unit: 45s, 30m, 12h, 7d or 2w"


def parse_duration(text: str) -> float:
    """Seconds in '7d', '12h', '30m', '45s', '2w' (or '1.5d'). A bare number is refused: is
    `3` three seconds or three days? Deleting on a guess is not safe."""
    cleaned = text.strip().lower()
    match = _DURATION.fullmatch(cleaned)
    if match is None or match.group(2) not in _UNIT_WORDS:
        if re.fullmatch(r"[+-]?\d+(\.\d*)?", cleaned):
            raise ValueError(f"{text!r} has no unit; give {DURATION_HELP}")
        if cleaned.startswith("-"):
            raise ValueError(f"a duration cannot be negative: {text!r}")
        raise ValueError(f"not a duration: {text!r}; give {DURATION_HELP}")
    return float(match.group(1)) * DURATION_UNITS[_UNIT_WORDS[match.group(2)]]


def max_size_from_environment() -> int | None:
    """TRANSPILE_CACHE_MAX_SIZE, or None (no cap). An invalid value raises ValueError."""
    value = os.environ.get("TRANSPILE_CACHE_MAX_SIZE", "").strip()
    return parse_size(value) if value else DEFAULT_MAX_SIZE
