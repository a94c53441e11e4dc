"""Which of a link step's libraries a module's object can use at all (issue 22).

gcc's link step names the C library, libm, libgomp, libgcc_s and libpthread for every module,
and the linker reads each one's symbol table although `--as-needed` then drops those the
module does not call: reading libc and libm took gold about 4 of a small module's 10 ms of
link time. A module that calls no libm function (most: exp, sqrt and friends are inline
helpers or instructions) is linked without reading libm, and so on. What is left out is
exactly what `--as-needed` would have left out of the binary: the libraries it needs and the
versioned names it imports are the same; gold may order its symbol tables differently
(tests/test_direct_link.py compares both; where every library is used, the bytes).

A library is left out only when none of the names the object and the recipe's startup files
leave undefined is defined by its files: looked up in each shared object's GNU hash table
(the dynamic linker's own index of what it defines) and each archive's index. Anything we
cannot read that way (a linker script command we do not follow, a library without a GNU hash
table) keeps the library; and if the module needs a name an archive defines (a libgcc helper,
whose members may call into the C library), every library stays.
"""
from __future__ import annotations

import dataclasses
import functools
import mmap
import os
import re
import struct

_SHT_SYMTAB, _SHT_GNU_HASH = 2, 0x6FFFFFF6
_STB_LOCAL = 0


def _elf_sections(data: bytes):
    """The section headers of a 64-bit little-endian ELF file (type, offset, size, link),
    or None for anything else."""
    if data[:4] != b"\x7fELF" or len(data) < 64 or data[4] != 2 or data[5] != 1:
        return None
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    if shoff == 0 or shoff + shnum * shentsize > len(data):
        return None
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    return [(h[1], h[4], h[5], h[6]) for h in headers]


def undefined_names(path: str) -> frozenset[str] | None:
    """The global and weak names an object file refers to but does not define (None: not a
    64-bit little-endian ELF file, or unreadable)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    sections = _elf_sections(data)
    if sections is None:
        return None
    names = set()
    for kind, offset, size, link in sections:
        if kind != _SHT_SYMTAB:
            continue
        strings = sections[link][1]
        for name, info, _, shndx, _, _ in struct.iter_unpack("<IBBHQQ",
                                                             data[offset:offset + size]):
            if name and shndx == 0 and info >> 4 != _STB_LOCAL:
                end = data.index(b"\0", strings + name)
                names.add(data[strings + name:end].decode("ascii", "replace"))
    return frozenset(names)


class SharedObject:
    """The names a shared library defines, looked up in its GNU hash table (the table the
    dynamic linker itself uses: only defined symbols are in it) without reading the rest of
    the file: libc's 2 MB are mapped, and a lookup touches a few of its pages."""

    def __init__(self, data):
        self._data = data
        sections = _elf_sections(data)
        tables = {kind: (offset, size, link) for kind, offset, size, link in sections or ()}
        if _SHT_GNU_HASH not in tables:
            raise ValueError("no GNU hash table")
        offset, _, dynsym = tables[_SHT_GNU_HASH]
        self._symbols = sections[dynsym][1]
        self._strings = sections[sections[dynsym][3]][1]
        nbuckets, self._symoffset, bloom_size, _ = struct.unpack_from("<4I", data, offset)
        self._buckets = offset + 16 + 8 * bloom_size
        self._nbuckets = nbuckets
        self._chains = self._buckets + 4 * nbuckets
        self._found: dict[str, bool] = {}

    def defines(self, name: str) -> bool:
        if name not in self._found:
            self._found[name] = self._lookup(name.encode())
        return self._found[name]

    def _lookup(self, name: bytes) -> bool:
        data, h = self._data, 5381
        for byte in name:
            h = (h * 33 + byte) & 0xFFFFFFFF
        if not self._nbuckets:
            return False
        (index,) = struct.unpack_from("<I", data, self._buckets + 4 * (h % self._nbuckets))
        if index < self._symoffset:
            return False
        while True:
            (chain,) = struct.unpack_from("<I", data, self._chains + 4 * (index - self._symoffset))
            if chain | 1 == h | 1:
                name_at, _, _, shndx = struct.unpack_from("<IBBH", data,
                                                          self._symbols + 24 * index)
                at = self._strings + name_at
                if shndx != 0 and data[at:at + len(name) + 1] == name + b"\0":
                    return True
            if chain & 1:
                return False
            index += 1


def _archive_index(data) -> frozenset[str] | None:
    """The names a System V / GNU archive's symbol index (its first member, '/' or
    '/SYM64/') says its members define; None where it has none."""
    if data[:8] != b"!<arch>\n":
        return None
    if len(data) == 8:
        return frozenset()          # empty (glibc's libpthread.a: its functions are libc's)
    if len(data) < 68:
        return None
    name, size = bytes(data[8:24]).strip(), int(bytes(data[56:66]).strip() or 0)
    width = {b"/": 4, b"/SYM64/": 8}.get(name)
    if width is None:
        return None
    body = bytes(data[68:68 + size])
    count = int.from_bytes(body[:width], "big")
    names = body[width * (count + 1):].split(b"\0")
    return frozenset(n.decode("ascii", "replace") for n in names if n)


def _script_inputs(text: str, search_dirs) -> list[str] | None:
    """The files a GNU linker script's GROUP/INPUT/AS_NEEDED lists name (absolute paths and
    -l names, resolved), or None where it names anything else we would have to follow."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    files = []
    for command, body in re.findall(r"\b(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)", text):
        if command == "OUTPUT_FORMAT":
            continue
        if command not in ("GROUP", "INPUT"):
            return None
        for word in re.sub(r"AS_NEEDED\s*\(|\)", " ", body).split():
            found = (library_files(word[2:], tuple(search_dirs)) if word.startswith("-l")
                     else _script_file(word, search_dirs))
            if found is None:
                return None
            files.extend(found)
    return files


def _script_file(word: str, search_dirs) -> list[str] | None:
    """A file a linker script names: an absolute path as it is; a bare name where the
    linker looks for it, the current directory first, then the search directories."""
    if os.path.isabs(word):
        return [word]
    try:
        here = [os.getcwd()]
    except OSError:             # the working directory was removed: the linker fails on it too
        return None
    for directory in (*here, *search_dirs):
        if os.path.isfile(os.path.join(directory, word)):
            return [os.path.join(directory, word)]
    return None


@functools.lru_cache(maxsize=None)
def library_files(name: str, search_dirs: tuple[str, ...]) -> list[str] | None:
    """The files `-l<name>` brings in, as the linker finds them (each directory in turn, the
    shared library before the archive; a linker script's inputs followed), or None. Looked
    up once per process; `files_stamp` notices a file replaced since."""
    for directory in search_dirs:
        for suffix in (".so", ".a"):
            path = os.path.join(directory, f"lib{name}{suffix}")
            if not os.path.isfile(path):
                continue
            try:
                with open(path, "rb") as f:
                    head = f.read(4)
                if head in (b"\x7fELF", b"!<ar"):
                    return [path]
                with open(path, encoding="ascii") as f:
                    return _script_inputs(f.read(), search_dirs)
            except (OSError, UnicodeDecodeError):
                return None
    return None


@dataclasses.dataclass(frozen=True)
class Library:
    """What one `-l` argument's files define: shared objects and archive indexes."""
    shared: tuple
    archives: tuple

    def defines(self, names) -> bool:
        return any(lib.defines(n) for lib in self.shared for n in names)

    def archive_defines(self, names) -> bool:
        return any(not index.isdisjoint(names) for index in self.archives)


@functools.lru_cache(maxsize=None)
def library(name: str, search_dirs: tuple[str, ...], stamp: tuple) -> Library | None:
    """What `-l<name>` defines, read once per process and set of files (`stamp`: their
    sizes and modification times, from `files_stamp`, so an upgraded library is read
    again); None where any of its files is neither a shared object with a GNU hash table
    nor an archive with an index."""
    shared, archives = [], []
    for path, _, _ in stamp:
        try:
            with open(path, "rb") as f:
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return None
        if data[:8] == b"!<arch>\n":
            index = _archive_index(data)
            if index is None:
                return None
            archives.append(index)
            continue
        try:
            shared.append(SharedObject(data))
        except (ValueError, IndexError, struct.error):
            return None
    return Library(tuple(shared), tuple(archives))


def files_stamp(name: str, search_dirs: tuple[str, ...]) -> tuple | None:
    """(path, size, mtime) of the files `-l<name>` brings in: the key under which
    `library_names` remembers them; None where they cannot be found."""
    files = library_files(name, search_dirs)
    if files is None:
        return None
    try:
        return tuple((p, st.st_size, st.st_mtime_ns) for p in files for st in [os.stat(p)])
    except OSError:
        return None


def unused_libraries(arguments, needed: frozenset[str]) -> set[int] | None:
    """Positions in a link command (`arguments`) of the `-l` arguments the module cannot
    use, given the names it leaves `needed`; None where nothing may be left out (the
    command does not link `--as-needed` from the start, the module needs an archive, or a
    library file turned out malformed: reading one must never fail a build)."""
    try:
        return _unused_libraries(arguments, needed)
    except (OSError, ValueError, IndexError, struct.error):
        return None


def _unused_libraries(arguments, needed: frozenset[str]) -> set[int] | None:
    if "--no-as-needed" in arguments or "--as-needed" not in arguments:
        return None
    first_library = next((i for i, a in enumerate(arguments) if a.startswith("-l")), None)
    if first_library is None or arguments.index("--as-needed") > first_library:
        return None
    dirs = tuple(a[2:] for a in arguments if a.startswith("-L") and len(a) > 2)
    unused = set()
    for position, argument in enumerate(arguments):
        if not argument.startswith("-l"):
            continue
        stamp = files_stamp(argument[2:], dirs)
        found = library(argument[2:], dirs, stamp) if stamp is not None else None
        if found is None:
            continue
        if found.archive_defines(needed):
            return None
        if not found.defines(needed):
            unused.add(position)
    return unused
