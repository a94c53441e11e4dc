"""The CPU compiler runs the link step's linker itself (issue 22): the command gcc's collect2
would run, read once from `cc -###`, without collect2 (about 6 ms of a small module's ~45 ms
build). What is checked: the binary is byte-for-byte the one the driver links; the object
file does not stay behind; a driver whose link step is not collect2's, or names options we
do not know, is left to link as before."""
import dataclasses
import os
import shutil
import subprocess

import pytest

from transpile.runtime import compiler as cc_module
from transpile.runtime.compiler import CCompiler, direct_link

COMPILER = CCompiler.from_environment()
pytestmark = pytest.mark.skipif(COMPILER is None, reason="needs a C compiler")

SOURCE = """#include <math.h>
int tp_entry(void *x_ptr, void *out_ptr) {
    const double *x = (const double *)x_ptr;
    double *out = (double *)out_ptr;
    #pragma omp parallel for
    for (int i = 0; i < 64; i++) out[i] = exp(x[i]) + 1.0;
    return 0;
}
"""
# Modules that cannot use some of the link step's libraries (runtime/link_inputs.py): no
# libm function, and neither libm nor OpenMP nor the C library's allocator.
WITHOUT_LIBM = SOURCE.replace("exp(x[i])", "sqrt(x[i])")     # an instruction here
PLAIN = """int tp_entry(void *x_ptr, void *out_ptr) {
    const double *x = (const double *)x_ptr;
    double *out = (double *)out_ptr;
    for (int i = 0; i < 64; i++) out[i] = x[i] * 2.0;
    return 0;
}
"""


def gcc_with_collect2() -> bool:
    return direct_link(COMPILER.cc, COMPILER.flags, COMPILER.identity) is not None


def build(tmp_path, compile_with, source: str = SOURCE) -> bytes:
    """Build `source` in tmp_path/module (the path is in the binary: one place for all)."""
    directory = tmp_path / "module"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir()
    (directory / "module.c").write_text(source)
    compile_with(str(directory / "module.c"), str(directory / "module.so"))
    assert sorted(os.listdir(directory)) == ["module.c", "module.so"]   # no object left
    return (directory / "module.so").read_bytes()


@pytest.mark.skipif(not gcc_with_collect2(), reason="the driver does not link through gcc's "
                    "collect2 here, so modules are linked by the driver (nothing to compare)")
def by_the_driver(c_path, so_path):
    subprocess.run(COMPILER.command(c_path, so_path), check=True,
                   cwd=os.path.dirname(c_path), capture_output=True)


def test_the_direct_link_writes_the_drivers_bytes(tmp_path):
    assert build(tmp_path, COMPILER.compile) == build(tmp_path, by_the_driver)


def dynamic_interface(binary: bytes, tmp_path) -> tuple:
    """What the dynamic linker sees of a module: the libraries it needs and the versioned
    names it imports (readelf's view, without table positions)."""
    path = tmp_path / "inspected.so"
    path.write_bytes(binary)
    text = subprocess.run(["readelf", "-W", "--dynamic", "--dyn-syms", str(path)],
                          check=True, capture_output=True, text=True).stdout
    needed = sorted(line.split("[")[1].rstrip("]") for line in text.splitlines()
                    if "(NEEDED)" in line)
    rows = [line.split() for line in text.splitlines() if " UND " in line]
    imports = sorted(row[row.index("UND") + 1] for row in rows if row[-1] != "UND")
    return needed, imports


@pytest.mark.skipif(not gcc_with_collect2() or shutil.which("readelf") is None,
                    reason="needs gcc's collect2 link step and readelf")
@pytest.mark.parametrize("source", [WITHOUT_LIBM, PLAIN], ids=["openmp-only", "plain"])
def test_leaving_out_unusable_libraries_changes_nothing_the_loader_sees(tmp_path, source):
    # Not byte-for-byte: gold orders its symbol tables by what it has read.
    ours = dynamic_interface(build(tmp_path, COMPILER.compile, source), tmp_path)
    assert ours == dynamic_interface(build(tmp_path, by_the_driver, source), tmp_path)
    assert ours[1]                       # it does import something: the check compared names


@pytest.mark.skipif(not gcc_with_collect2(), reason="modules are linked by the driver here")
def test_libraries_a_module_cannot_use_are_not_read(tmp_path, monkeypatch):
    commands = []
    real_run = cc_module.run_compiler
    monkeypatch.setattr(cc_module, "run_compiler",
                        lambda cmd, *a: commands.append(cmd) or real_run(cmd, *a))
    for source in (SOURCE, WITHOUT_LIBM):
        build(tmp_path, COMPILER.compile, source)
    with_libm, without_libm = (set(c) for c in commands[1::2])     # the link steps
    assert "-lm" in with_libm and "-lgomp" in with_libm
    assert "-lm" not in without_libm and "-lgomp" in without_libm


def fake_driver(tmp_path, monkeypatch, link_line: str) -> str:
    """A compiler whose -### prints `link_line`; any other call goes to the real one."""
    path = tmp_path / "fake-cc"
    path.write_text("#!/bin/sh\n"
                    'case "$*" in *-###*) printf \'%s\\n\' "$LINE" >&2; exit 0 ;; esac\n'
                    f'exec {shutil.which(COMPILER.cc)} "$@"\n')
    path.chmod(0o755)
    monkeypatch.setenv("LINE", link_line)
    return str(path)


@pytest.mark.parametrize("line", [
    ' "/usr/bin/ld" -shared -o tp-link-output.so tp-link-input.o -lm',   # not collect2
    ' "/x/collect2" -fsomething-new -shared -o tp-link-output.so tp-link-input.o -lm',
    ' "/x/collect2" -shared -o tp-link-output.so -lm',                   # no object
])
def test_a_link_step_we_cannot_reproduce_is_left_to_the_driver(tmp_path, monkeypatch, line):
    fake = fake_driver(tmp_path, monkeypatch, line)
    compiler = dataclasses.replace(COMPILER, cc=fake)
    assert direct_link(compiler.cc, compiler.flags, "test-" + line) is None
    assert build(tmp_path, compiler.compile)[:4] == b"\x7fELF"   # still builds


def test_the_recipe_fills_in_the_object_and_its_libraries(tmp_path, monkeypatch):
    line = (' "/x/collect2" -plugin /x/lto.so -plugin-opt=-pass-through=-lgcc -fuse-ld=gold '
            '-shared -o tp-link-output.so /x/crti.o tp-link-input.o -lm -lgomp /x/crtn.o')
    monkeypatch.setattr(cc_module, "_linker", lambda text, flags: "/bin/ld.gold")
    fake = fake_driver(tmp_path, monkeypatch, line)
    recipe = direct_link(fake, COMPILER.flags, "test-recipe")
    assert recipe.command("m.o", "m.so", ("lib.so",)) == [
        "/bin/ld.gold", "-shared", "-o", "m.so", "/x/crti.o", "m.o", "lib.so", "-lm",
        "-lgomp", "/x/crtn.o"]
