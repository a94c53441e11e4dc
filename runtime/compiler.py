"""The C compiler: source text in, shared library out. Knows nothing about caching."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import platform
import shlex
import shutil
import subprocess

from . import INCLUDE_DIR

# -O3 with OpenMP and the host's vector ISA; never -ffast-math. Each flag below keeps IEEE
# results bit-for-bit: -ffp-contract=off keeps a*b+c as two roundings, as NumPy computes it;
# -fno-math-errno only drops errno writes from libm calls (so sqrt can be inlined);
# -fno-trapping-math promises no FP trap handlers are installed (NumPy installs none), which
# lets comparisons be evaluated unconditionally so branchy selects can be vectorised.
# -Wno-type-limits: user code legitimately compares against a type's limits (`x < 0` on an
# unsigned array is NumPy-valid and always false); every other -Wall -Wextra warning stays on.
DEFAULT_FLAGS = ("-O3", "-march=native", "-fopenmp", "-fPIC", "-shared", "-std=c11",
                 "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off",
                 "-Wall", "-Wextra", "-Wno-type-limits")


class CompileError(RuntimeError):
    """The C compiler rejected generated code: a transpile bug, reported with the source path."""


@dataclasses.dataclass(frozen=True)
class CCompiler:
    cc: str
    flags: tuple[str, ...]

    @staticmethod
    def from_environment() -> "CCompiler | None":
        cc = os.environ.get("TRANSPILE_CC") or shutil.which("cc") or shutil.which("gcc")
        if not cc or not shutil.which(cc):
            return None
        extra = tuple(shlex.split(os.environ.get("TRANSPILE_CFLAGS", "")))
        return CCompiler(shutil.which(cc), DEFAULT_FLAGS + extra)

    @functools.cached_property
    def identity(self) -> str:
        """What the binary depends on besides the source: compiler build, flags, CPU, headers.

        Computed without running the compiler (a fresh process must find its cached binary
        in milliseconds): the compiler is identified by its resolved path, size and mtime,
        which change whenever the toolchain is upgraded.
        """
        real = os.path.realpath(self.cc)
        st = os.stat(real)
        parts = [real, str(st.st_size), str(st.st_mtime_ns), " ".join(self.flags),
                 platform.machine(), cpu_features(), header_digest()]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    def command(self, c_path: str, so_path: str, link: tuple[str, ...] = ()) -> list[str]:
        """Compile and link `c_path` into `so_path`; `link`: shared libraries it calls into
        (the runtime library), named after the source so they resolve its symbols."""
        return [self.cc, *self.flags, "-I", INCLUDE_DIR, "-o", so_path, c_path, *link, "-lm"]

    def object_command(self, c_path: str, o_path: str) -> list[str]:
        """Compile only (-c: the link flags among self.flags are ignored)."""
        return [self.cc, *self.flags, "-c", "-I", INCLUDE_DIR, "-o", o_path, c_path]

    def link_command(self, objects, so_path: str, soname: str) -> list[str]:
        """Link objects into a shared library that modules find by `soname`."""
        return [self.cc, *self.flags, "-o", so_path, *objects, f"-Wl,-soname,{soname}", "-lm"]

    def version(self) -> str:
        try:
            out = subprocess.run([self.cc, "--version"], capture_output=True, text=True,
                                 timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return "unknown"
        return out.splitlines()[0] if out else "unknown"

    def compile(self, c_path: str, so_path: str, link: tuple[str, ...] = ()) -> str:
        """Build `so_path` from `c_path`; return the compiler's warnings (empty when clean)."""
        return run_compiler(self.command(c_path, so_path, link), c_path)


def run_compiler(cmd: list[str], what: str) -> str:
    """Run one compiler command; its warnings (stderr), or CompileError naming `what`."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(f"C compiler failed on {what} (exit {proc.returncode}):\n"
                           f"{shlex.join(cmd)}\n{proc.stderr}")
    return proc.stderr


@functools.lru_cache(maxsize=1)
def cpu_features() -> str:
    """The CPU model and feature flags: -march=native binaries are only valid on this CPU."""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return platform.processor() or platform.machine()
    wanted = [line for line in info.splitlines()
              if line.startswith(("flags", "model name", "Features", "CPU part"))]
    return "\n".join(sorted(set(wanted)))


@functools.lru_cache(maxsize=1)
def header_digest() -> str:
    h = hashlib.sha256()
    for name in sorted(os.listdir(INCLUDE_DIR)):
        with open(os.path.join(INCLUDE_DIR, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()
