"""CUDA compilers: a generated .cu in, a shared library out. Knows nothing about caching.

`NvccCompiler` builds for a GPU. `EmulatedCudaCompiler` builds the same source as host C++
against include/tp_cuda_emulate.h (TRANSPILE_CUDA_EMULATE=1), so every test can run the
generated CUDA on machines without a GPU.
"""
from __future__ import annotations

import dataclasses
import functools
import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess

from . import INCLUDE_DIR
from .compiler import CompileError, header_digest, version_line

# Never fast math: --fmad=false keeps a*b+c as two roundings (NumPy's results, like the C
# backend's -ffp-contract=off); -ftz/-prec-div/-prec-sqrt keep nvcc's IEEE defaults.
# The front end's diagnostics 39 (a float divided by a literal 0.0: IEEE's inf or NaN, which
# NumPy's x / 0 asks for) and 186 (an unsigned compared with 0, from a generic sign test)
# warn on code that means what it says; gcc's counterparts are off for the C backend
# (-Wno-type-limits) or never fire (float division). Seen on an H200's nvcc 13.0.
NVCC_FLAGS = ("--fmad=false", "-O3", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared",
              "-std=c++17", "--diag-suppress=39,186")
# -O1: emulated modules are test builds, where compile time dominates the run time.
EMULATE_FLAGS = ("-x", "c++", "-std=c++17", "-O1", "-fPIC", "-shared", "-fno-math-errno",
                 "-ffp-contract=off", "-Wall", "-Wextra", "-Wno-type-limits",
                 "-Wno-unused-parameter", "-Wno-tautological-compare",
                 "-include", "tp_cuda_emulate.h")


def _file_identity(path: str) -> list[str]:
    real = os.path.realpath(path)
    st = os.stat(real)
    return [real, str(st.st_size), str(st.st_mtime_ns)]


def normalise_arch(arch: str) -> str:
    """'90', 'sm_90', 'compute_90a' -> 'sm_90' / 'sm_90a'; a ValueError otherwise."""
    match = re.fullmatch(r"(?:sm_|compute_)?(\d{2,3}[af]?)", arch.strip())
    if not match:
        raise ValueError(f"TRANSPILE_CUDA_ARCH={arch!r} is not a CUDA architecture "
                         "(expected e.g. 'sm_90' or '90')")
    return f"sm_{match.group(1)}"


def find_nvcc() -> str | None:
    nvcc = os.environ.get("TRANSPILE_NVCC") or shutil.which("nvcc")
    if not nvcc:
        for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
            if home and os.path.exists(os.path.join(home, "bin", "nvcc")):
                return os.path.join(home, "bin", "nvcc")
        return None
    return shutil.which(nvcc)


def cuda_library_dirs(nvcc: str | None) -> list[str]:
    """Directories holding libcudart, from the toolkit that nvcc belongs to first."""
    homes = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    if nvcc:
        try:     # wrappers (a shell script calling the real nvcc) name the real path
            with open(nvcc, "rb") as f:
                head = f.read(4096)
            real = re.search(rb"(/\S+/bin/nvcc)\b", head) if head.startswith(b"#!") else None
            if real:
                homes.insert(0, os.path.dirname(os.path.dirname(real.group(1).decode())))
        except OSError:
            pass
        homes.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    dirs = []
    for home in filter(None, homes):
        for sub in ("lib64", "lib", "targets/*/lib"):
            dirs.extend(d for d in glob.glob(os.path.join(home, sub))
                        if glob.glob(os.path.join(d, "libcudart.so*")))
    return list(dict.fromkeys(dirs))


def _run(cmd: list[str], src: str) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(f"CUDA compiler failed on {src} (exit {proc.returncode}):\n"
                           f"{shlex.join(cmd)}\n{proc.stderr}{proc.stdout}")
    return proc.stderr


def nvcc_flags() -> tuple[str, ...]:
    """NVCC_FLAGS, then TRANSPILE_NVCC_FLAGS (e.g. a tp_cuda.h macro, to compare launch
    shapes on a device). They are part of the compiler's identity, so of every cache key."""
    return NVCC_FLAGS + tuple(shlex.split(os.environ.get("TRANSPILE_NVCC_FLAGS", "")))


@dataclasses.dataclass(frozen=True)
class NvccCompiler:
    nvcc: str
    arch: str
    flags: tuple[str, ...] = NVCC_FLAGS
    source_name = "module.cu"

    @functools.cached_property
    def identity(self) -> str:
        """nvcc's build (path, size, mtime), the target arch, the flags and the headers."""
        parts = _file_identity(self.nvcc) + [self.arch, " ".join(self.flags), header_digest()]
        return hashlib.sha256("\n".join(["nvcc", *parts]).encode()).hexdigest()

    def command(self, src: str, so: str) -> list[str]:
        rpath = [f"-Xlinker=-rpath,{d}" for d in cuda_library_dirs(self.nvcc)[:1]]
        return [self.nvcc, f"-arch={self.arch}", *self.flags, *rpath, "-I", INCLUDE_DIR,
                "-o", so, src]

    def version(self) -> str:
        """Asked once per compiler identity and process (each module's manifest records it)."""
        return _nvcc_version(self.nvcc, self.identity)

    def compile(self, src: str, so: str) -> str:
        return _run(self.command(src, so), src)


@dataclasses.dataclass(frozen=True)
class EmulatedCudaCompiler:
    cxx: str
    flags: tuple[str, ...]
    source_name = "module.cu"

    @staticmethod
    def from_environment() -> "EmulatedCudaCompiler | None":
        cxx = os.environ.get("TRANSPILE_CXX") or shutil.which("g++") or shutil.which("c++")
        if not cxx or not shutil.which(cxx):
            return None
        extra = tuple(shlex.split(os.environ.get("TRANSPILE_CFLAGS", "")))
        return EmulatedCudaCompiler(shutil.which(cxx), EMULATE_FLAGS + extra)

    @functools.cached_property
    def identity(self) -> str:
        parts = _file_identity(self.cxx) + [" ".join(self.flags), header_digest()]
        return hashlib.sha256("\n".join(["cuda-emulated", *parts]).encode()).hexdigest()

    def command(self, src: str, so: str) -> list[str]:
        return [self.cxx, *self.flags, "-I", INCLUDE_DIR, "-o", so, src, "-lm"]

    def version(self) -> str:
        return version_line(self.cxx, self.identity) + " (CUDA emulated on the CPU)"

    def compile(self, src: str, so: str) -> str:
        return _run(self.command(src, so), src)


@functools.lru_cache(maxsize=None)
def _nvcc_version(nvcc: str, identity: str) -> str:
    """`identity` is in the key only so that an upgraded toolkit is asked again."""
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True,
                             timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "nvcc (unknown version)"
    lines = [line for line in out.splitlines() if "release" in line]
    return lines[0].strip() if lines else "nvcc (unknown version)"
