"""One disk-cache entry: its layout, its manifest, and the checks that decide whether it may be
served.

An entry is <root>/<key[:2]>/<key>/ holding `module.c` (or `module.cu`), `module.so` and
`manifest.json`. The manifest binds the entry to its key, to the sha256 of the source and of
the binary, and to the compiler identity the key was computed with, so the whole chain
key -> source -> binary can be checked without a compiler (as `transpile show` does).

Every file is opened relative to the entry directory's descriptor and without following
symbolic links, so what is checked is what sits in that one directory, and the checks read
the same bytes they judge.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat

from .cache_location import untrusted_reason

SCHEMA = "3"
FORMAT = "transpile-cache"
SOURCE_NAMES = ("module.cu", "module.c")
MANIFEST_LIMIT = 1 << 20          # a manifest is a few hundred bytes; anything huge is not one


def cache_key(source: str, compiler_identity: str) -> str:
    h = hashlib.sha256()
    for part in (SCHEMA, compiler_identity, source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def make_manifest(key: str, source: str, so_sha256: str, identity: str, built: dict) -> dict:
    return {"format": FORMAT, "schema": SCHEMA, "key": key, "source_sha256": sha256_text(source),
            "so_sha256": so_sha256, "compiler_identity": identity, "built": built}


@dataclasses.dataclass(frozen=True)
class Verified:
    """An entry that passed every check, as it was when checked."""
    path: str
    so_path: str
    so_id: tuple            # (st_dev, st_ino) of the binary that was hashed
    source: str
    manifest: dict


@dataclasses.dataclass(frozen=True)
class Damaged:
    """Why an entry must not be served; `ours` says whether this user may remove it."""
    reason: str
    ours: bool


class _Bad(Exception):
    pass


def verify(entry_dir: str, key: str, source: str | None = None) -> Verified | Damaged | None:
    """Check the entry at `entry_dir` for `key`: None when there is none. Its source must
    hash, with the manifest's compiler identity, to `key` (checkable without a compiler, as
    `show` does); with `source` (the loader), it must also be exactly that source."""
    try:
        dfd = os.open(entry_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as err:
        return Damaged(_open_problem(entry_dir, err), _owned(entry_dir))
    try:
        st = os.fstat(dfd)
        try:
            return _verify_open(dfd, st, entry_dir, key, source)
        except _Bad as bad:
            return Damaged(str(bad), st.st_uid == os.getuid())
    finally:
        os.close(dfd)


def _verify_open(dfd: int, st, entry_dir: str, key: str, source: str | None) -> Verified:
    reason = untrusted_reason(entry_dir, st)
    if reason is not None:
        raise _Bad(f"the entry directory {reason}")
    if st.st_mode & 0o500 != 0o500:       # as we never leave it; unreadable unless root
        raise _Bad(f"the entry directory cannot be read (mode {stat.S_IMODE(st.st_mode):03o})")
    manifest = _manifest(dfd)
    for field, value in (("schema", SCHEMA), ("key", key)):
        if manifest.get(field) != value:
            raise _Bad(f"manifest {field} does not match")
    if source is not None and manifest.get("source_sha256") != sha256_text(source):
        raise _Bad("manifest source_sha256 does not match")
    source_name, source_bytes = _source(dfd)
    if hashlib.sha256(source_bytes).hexdigest() != manifest.get("source_sha256"):
        raise _Bad(f"{source_name} does not match the manifest's source_sha256 (replaced or "
                   "edited)")
    text = _decode(source_bytes, source_name)
    if cache_key(text, str(manifest.get("compiler_identity"))) != key:
        raise _Bad(f"{source_name} and the manifest do not hash to the entry's key")
    so_digest, so_id = _binary(dfd)
    if so_digest != manifest.get("so_sha256"):
        raise _Bad("the binary's sha256 does not match its manifest")
    return Verified(entry_dir, os.path.join(entry_dir, "module.so"), so_id, text, manifest)


def _open_problem(path: str, err: OSError) -> str:
    try:
        st = os.lstat(path)
    except OSError:
        return f"the entry cannot be opened ({err.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return "the entry is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "the entry is not a directory"
    return f"the entry directory cannot be read ({err.strerror})"


def _owned(path: str) -> bool:
    try:
        return os.lstat(path).st_uid == os.getuid()
    except OSError:
        return False


def _open_regular(dfd: int, name: str) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file `name` in the entry, not a link, ours and readable."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dfd)
    except FileNotFoundError:
        raise _Bad(f"{name} is missing") from None
    except OSError as err:
        raise _Bad(f"{name} cannot be read ({err.strerror})") from None
    st = os.fstat(fd)
    problem = None
    if not stat.S_ISREG(st.st_mode):
        problem = f"{name} is not a regular file"
    elif st.st_uid != os.getuid():
        problem = f"{name} is owned by another user (uid {st.st_uid})"
    elif not st.st_mode & stat.S_IRUSR:
        problem = f"{name} cannot be read (mode {stat.S_IMODE(st.st_mode):03o})"
    if problem:
        os.close(fd)
        raise _Bad(problem)
    return fd, st


def _read(dfd: int, name: str, limit: int | None = None) -> bytes:
    fd, st = _open_regular(dfd, name)
    try:
        if limit is not None and st.st_size > limit:
            raise _Bad(f"{name} is too large to be transpile's ({st.st_size} bytes)")
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read()
    except OSError as err:
        raise _Bad(f"{name} cannot be read ({err.strerror})") from None
    finally:
        os.close(fd)


def _manifest(dfd: int) -> dict:
    try:
        manifest = json.loads(_read(dfd, "manifest.json", MANIFEST_LIMIT))
    except _Bad as bad:
        raise _Bad(f"no valid manifest: {bad}") from None
    except ValueError:
        raise _Bad("no valid manifest: manifest.json is not JSON") from None
    if not isinstance(manifest, dict):
        raise _Bad("no valid manifest: manifest.json is not an object")
    return manifest


def _source(dfd: int) -> tuple[str, bytes]:
    for name in SOURCE_NAMES:
        try:
            os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        except OSError:
            pass
        return name, _read(dfd, name)
    raise _Bad("module.c is missing")


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise _Bad(f"{name} is not UTF-8 text") from None


def _binary(dfd: int) -> tuple[str, tuple]:
    fd, st = _open_regular(dfd, "module.so")
    try:
        h = hashlib.sha256()
        with os.fdopen(os.dup(fd), "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest(), (st.st_dev, st.st_ino)
    except OSError as err:
        raise _Bad(f"module.so cannot be read ({err.strerror})") from None
    finally:
        os.close(fd)


def file_id(path: str) -> tuple | None:
    """(st_dev, st_ino) of `path` now, or None when it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def read_manifest(entry_dir: str) -> dict | None:
    """The entry's manifest if it looks like one of transpile's (for listing), else None."""
    try:
        with open(os.path.join(entry_dir, "manifest.json"), "rb") as f:
            manifest = json.loads(f.read(MANIFEST_LIMIT + 1))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or "so_sha256" not in manifest or "schema" not in manifest:
        return None
    return manifest


def source_file(entry_dir: str) -> str:
    """An entry's generated source: module.c (CPU) or module.cu (CUDA)."""
    cuda = os.path.join(entry_dir, "module.cu")
    return cuda if os.path.exists(cuda) else os.path.join(entry_dir, "module.c")
