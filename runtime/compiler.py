"""The C compiler: source text in, shared library out. Knows nothing about caching."""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import platform
import shlex
import shutil
import subprocess
import tempfile

from . import INCLUDE_DIR
from .link_inputs import undefined_names, unused_libraries

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
    """The C compiler rejected generated code (a transpile bug, reported with the source path),
    or could not run or write its output."""

    @property
    def out_of_space(self) -> bool:
        """The compiler failed because the disk (or quota) was full, not on the code."""
        text = str(self)
        return "No space left on device" in text or "Disk quota exceeded" in text


@dataclasses.dataclass(frozen=True)
class CCompiler:
    cc: str
    flags: tuple[str, ...]

    @staticmethod
    def from_environment() -> "CCompiler | None":
        named = os.environ.get("TRANSPILE_CC", "").strip()
        cc = named or shutil.which("cc") or shutil.which("gcc")
        if not cc or not shutil.which(cc):
            return None
        extra = tuple(shlex.split(os.environ.get("TRANSPILE_CFLAGS", "")))
        return CCompiler(shutil.which(cc), DEFAULT_FLAGS + faster_linker() + extra)

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

    def command(self, c_path: str, so_path: str, link: tuple[str, ...] = (),
                prelude: str | None = None) -> list[str]:
        """Compile and link `c_path` into `so_path`; `link`: shared libraries it calls into
        (the runtime library), named after the source so they resolve its symbols;
        `prelude`: a header included before the source, whose precompiled form
        (`prelude`.gch, beside it) the compiler uses when it matches these flags."""
        first = ("-include", prelude) if prelude else ()
        return [self.cc, *self.flags, "-I", INCLUDE_DIR, *first, "-o", so_path, c_path, *link,
                "-lm"]

    def header_command(self, h_path: str, gch_path: str) -> list[str]:
        """Precompile the header `h_path` into `gch_path`, with the flags modules are built
        with (a precompiled header only serves compilations with matching flags)."""
        return [self.cc, *self.flags, "-I", INCLUDE_DIR, "-x", "c-header", "-o", gch_path,
                h_path]

    def object_command(self, c_path: str, o_path: str) -> list[str]:
        """Compile only (-c: the link flags among self.flags are ignored)."""
        return [self.cc, *self.flags, "-c", "-I", INCLUDE_DIR, "-o", o_path, c_path]

    def link_command(self, objects, so_path: str, soname: str) -> list[str]:
        """Link objects into a shared library that modules find by `soname`."""
        return [self.cc, *self.flags, "-o", so_path, *objects, f"-Wl,-soname,{soname}", "-lm"]

    def version(self) -> str:
        """The compiler's first `--version` line, for manifests. Asked once per compiler
        identity and process: every module's build records it, and a `cc --version` each
        time was a process spawn (5-30 ms) on every first call."""
        return version_line(self.cc, self.identity)

    def compile(self, c_path: str, so_path: str, link: tuple[str, ...] = (),
                prelude: str | None = None) -> str:
        """Build `so_path` from `c_path`; return the compiler's warnings (empty when clean).

        Where the driver's link step is known (`direct_link`), the source is compiled to an
        object and the linker is run by us: the same linker with the same arguments, so the
        same bytes (tests/test_direct_link.py), without collect2 and the driver's link
        stage: 2.5-4.5 ms less compiler CPU per module, 5-9 % of a small one's (issue 22)."""
        recipe = direct_link(self.cc, self.flags, self.identity)
        if recipe is None:
            return run_compiler(self.command(c_path, so_path, link, prelude), c_path, so_path)
        o_path = os.path.splitext(so_path)[0] + ".o"
        first = ("-include", prelude) if prelude else ()
        compile_step = [self.cc, *self.flags, "-c", "-I", INCLUDE_DIR, *first, "-o", o_path,
                        c_path]
        try:
            warnings = run_compiler(compile_step, c_path, o_path)
            needed = undefined_names(o_path)
            link_step = recipe.command(o_path, so_path, link,
                                       None if needed is None else needed | recipe.startup_needs)
            return warnings + run_compiler(link_step, c_path, so_path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.remove(o_path)          # the cache entry keeps the source and the binary


OBJECT_MARK, OUTPUT_MARK = "tp-link-input.o", "tp-link-output.so"


@dataclasses.dataclass(frozen=True)
class LinkRecipe:
    """The linker command the compiler driver runs (through collect2) to link one object into
    a shared library, with the object and the output as marks to fill in."""
    arguments: tuple[str, ...]          # the linker's path first
    # names the startup files among the arguments (crtbeginS.o...) leave undefined, when
    # all of them could be read (`prunable`: libraries may then be left out)
    startup_needs: frozenset = frozenset()
    prunable: bool = False

    def command(self, o_path: str, so_path: str, link: tuple[str, ...],
                needed: frozenset | None = None) -> list[str]:
        """The link command; with `needed` (the names the object and the startup files leave
        undefined), without the `-l` libraries that cannot supply any of them
        (runtime/link_inputs.py: the binary is the same, the linker reads less)."""
        unused = (unused_libraries(self.arguments, needed)
                  if needed is not None and self.prunable else None)
        filled = {OBJECT_MARK: (o_path, *link), OUTPUT_MARK: (so_path,)}
        return [part for i, arg in enumerate(self.arguments) if i not in (unused or ())
                for part in filled.get(arg, (arg,))]


# collect2's own options (it passes the rest to the linker): the LTO plugin, which a build
# without -flto never uses, and the choice of linker, made here by finding that linker.
_COLLECT2_ONLY = ("-plugin-opt=", "-fuse-ld=")


@functools.lru_cache(maxsize=None)
def direct_link(cc: str, flags: tuple[str, ...], identity: str) -> LinkRecipe | None:
    """The driver's link step for these flags, asked once per process and compiler (`cc
    -###` prints the commands without running them), or None where it cannot be reproduced
    exactly (not gcc's collect2, options we do not know, a linker we cannot find): the
    driver then links as before. `identity` is in the key so an upgraded compiler is asked
    again."""
    try:
        with tempfile.TemporaryDirectory() as scratch:   # whatever it writes goes there
            proc = subprocess.run([cc, *flags, "-###", "-o", OUTPUT_MARK, OBJECT_MARK, "-lm"],
                                  capture_output=True, text=True, timeout=30, cwd=scratch)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    lines = [shlex.split(line) for line in proc.stderr.splitlines() if line.startswith(" ")]
    if len(lines) != 1 or os.path.basename(lines[0][0]) != "collect2":
        return None            # one command, collect2's: it links only, compiles nothing
    arguments, words = [], iter(lines[0][1:])
    for word in words:
        if word == "-plugin":
            next(words, None)
        elif not word.startswith(_COLLECT2_ONLY):
            if word.startswith("-f"):
                return None         # a collect2 option we do not know the meaning of
            arguments.append(word)
    if arguments.count(OBJECT_MARK) != 1 or arguments.count(OUTPUT_MARK) != 1:
        return None
    linker = _linker(proc.stderr, flags)
    if not linker:
        return None
    startup = [undefined_names(a) for a in arguments
               if os.path.isabs(a) and a.endswith(".o")]
    if any(names is None for names in startup):
        return LinkRecipe((linker, *arguments))     # cannot tell what they need: no pruning
    return LinkRecipe((linker, *arguments), frozenset().union(*startup),
                      prunable=True)


def _linker(driver_text: str, flags: tuple[str, ...]) -> str | None:
    """The linker collect2 would run: ld.<name> for -fuse-ld=<name> (the last one), else
    ld, looked up in the compiler's own directories first, then on PATH. None where
    collect2 would take another (a real-ld or collect-ld of the toolchain's)."""
    chosen = [f.split("=", 1)[1] for f in flags if f.startswith("-fuse-ld=")]
    name = f"ld.{chosen[-1]}" if chosen else "ld"
    dirs = [line.split("=", 1)[1] for line in driver_text.splitlines()
            if line.startswith("COMPILER_PATH=")]
    dirs = [d for d in (dirs[-1].split(os.pathsep) if dirs else []) if d]
    for directory in dirs:
        if any(os.path.exists(os.path.join(directory, other))
               for other in ("real-ld", "collect-ld")):
            return None
        if os.access(os.path.join(directory, name), os.X_OK):
            return os.path.join(directory, name)
    return shutil.which(name)


@functools.lru_cache(maxsize=None)
def version_line(cc: str, identity: str) -> str:
    """The first line of `cc --version`, asked once per process and compiler; `identity`
    is part of the key only so that an upgraded compiler is asked again."""
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.splitlines()[0] if out else "unknown"


def run_compiler(cmd: list[str], what: str, output: str | None = None) -> str:
    """Run one compiler command; its warnings (stderr), or CompileError naming `what` and
    saying how it failed (could not start, killed, exit status, or no `output` written)."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    except OSError as err:        # e.g. a script without its #! line, or no longer there
        raise CompileError(f"could not run the C compiler {cmd[0]} ({err.strerror}); "
                           "check that it is a working program, or change TRANSPILE_CC"
                           ) from err
    if proc.returncode != 0:
        how = (f"killed by signal {-proc.returncode}" if proc.returncode < 0
               else f"exit {proc.returncode}")
        raise CompileError(f"C compiler failed on {what} ({how}):\n"
                           f"{shlex.join(cmd)}\n{proc.stderr}")
    if output is not None and not os.path.isfile(output):
        raise CompileError(f"the C compiler {cmd[0]} reported success but wrote no "
                           f"{output}:\n{shlex.join(cmd)}\n{proc.stderr}")
    return proc.stderr


def compiler_problem() -> str:
    """Why `CCompiler.from_environment()` found no compiler, in words that say what to do."""
    named = os.environ.get("TRANSPILE_CC", "").strip()
    if not named:
        return ("no C compiler found (neither cc nor gcc is on PATH, and TRANSPILE_CC is not "
                "set); install one, or point TRANSPILE_CC at one")
    fix = ("change TRANSPILE_CC to an installed C compiler (a full path, or a name on PATH "
           "such as gcc), or unset it to use cc from PATH")
    first = named.split()[0]
    if first != named and shutil.which(first):
        return (f"TRANSPILE_CC={named!r} must name one program, without arguments; put flags "
                "in TRANSPILE_CFLAGS")
    if os.sep not in named:
        return f"TRANSPILE_CC={named!r}: no program of that name is on PATH; {fix}"
    if not os.path.lexists(named):
        return f"TRANSPILE_CC={named!r} names a program that does not exist; {fix}"
    if os.path.isdir(named):
        return f"TRANSPILE_CC={named!r} is a directory, not a program; {fix}"
    if not os.path.exists(named):
        return f"TRANSPILE_CC={named!r} is a broken symbolic link; {fix}"
    return (f"TRANSPILE_CC={named!r} is not executable (make it so with chmod +x, or {fix})")


def faster_linker() -> tuple[str, ...]:
    """gold where it is installed: linking a module against libm, libgomp and libc took the
    default linker 20 ms of CPU, gold 15 (a fifth of a small module's build). The flag is
    among the compiler's flags, so part of every key; TRANSPILE_CFLAGS may still name
    another linker (the last -fuse-ld wins)."""
    return ("-fuse-ld=gold",) if shutil.which("ld.gold") else ()


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
