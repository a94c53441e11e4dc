"""runtime/link_inputs.py: which `-l` libraries of a link step a module cannot use (issue 22),
on small libraries built here: a linker script that points at them, names they import but do
not define, an archive, and the cases where nothing may be left out."""
import shutil
import subprocess

import pytest

from transpile.runtime import link_inputs
from transpile.runtime.link_inputs import library_files, undefined_names, unused_libraries

CC = shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(CC is None or shutil.which("ar") is None,
                                reason="needs a C compiler and ar")


def _compile(tmp_path, name: str, source: str, *flags: str) -> str:
    c_path = tmp_path / f"{name}.c"
    c_path.write_text(source)
    out = tmp_path / name
    subprocess.run([CC, "-fPIC", *flags, "-o", str(out), str(c_path)], check=True,
                   capture_output=True)
    return str(out)


@pytest.fixture
def libs(tmp_path):
    """dir/libfoo.so: a script naming libfoo.so.1 (foo_fn, calls puts) and -lbar; libbar.so
    (bar_fn); libarch.a (arch_fn); user.o, which needs foo_fn."""
    _compile(tmp_path, "libfoo.so.1", "#include <stdio.h>\nvoid foo_fn(void) { puts(\"x\"); }\n",
             "-shared", "-Wl,--hash-style=gnu")
    _compile(tmp_path, "libbar.so", "int bar_fn(int x) { return x + 1; }\n", "-shared",
             "-Wl,--hash-style=gnu")
    (tmp_path / "libfoo.so").write_text("/* GNU ld script */\n"
                                        "GROUP ( libfoo.so.1 AS_NEEDED ( -lbar ) )\n")
    arch_o = _compile(tmp_path, "arch.o", "int arch_fn(void) { return 3; }\n", "-c")
    subprocess.run(["ar", "rcs", str(tmp_path / "libarch.a"), arch_o], check=True)
    _compile(tmp_path, "user.o", "void foo_fn(void);\nvoid use(void) { foo_fn(); }\n", "-c")
    link_inputs.library_files.cache_clear()
    return tmp_path


def _command(d, *libraries):
    return ["ld", "--as-needed", "-shared", f"-L{d}", "user.o", *libraries]


def test_an_objects_undefined_names(libs):
    assert undefined_names(str(libs / "user.o")) == {"foo_fn"}
    assert undefined_names(str(libs / "libfoo.so")) is None      # a script, not ELF


def test_a_linker_script_is_followed_to_its_files(libs):
    assert library_files("foo", (str(libs),)) == [str(libs / "libfoo.so.1"),
                                                  str(libs / "libbar.so")]


def test_only_libraries_that_define_a_needed_name_stay(libs):
    command = _command(libs, "-lfoo", "-lbar")
    assert unused_libraries(command, frozenset({"foo_fn"})) == {command.index("-lbar")}
    assert unused_libraries(command, frozenset({"bar_fn"})) == set()   # -lfoo brings libbar
    # libfoo.so.1 imports puts: a name it mentions but does not define
    assert unused_libraries(command, frozenset({"puts"})) == {5, 6}


def test_a_name_an_archive_defines_keeps_everything(libs):
    command = _command(libs, "-lbar", "-larch")
    assert unused_libraries(command, frozenset({"foo_fn"})) == {5, 6}
    assert unused_libraries(command, frozenset({"arch_fn"})) is None


def test_nothing_is_left_out_without_as_needed_or_of_what_cannot_be_read(libs):
    command = _command(libs, "-lbar")
    assert unused_libraries([a for a in command if a != "--as-needed"],
                            frozenset({"x"})) is None
    assert unused_libraries(command + ["--no-as-needed"], frozenset({"x"})) is None
    (libs / "libodd.so").write_text("SEARCH_DIR(/somewhere)\n")   # a script we do not follow
    assert unused_libraries(_command(libs, "-lodd", "-lmissing"), frozenset({"x"})) == set()


def test_a_truncated_library_keeps_everything_and_raises_nothing(libs):
    data = (libs / "libbar.so").read_bytes()
    (libs / "libbar.so").write_bytes(data[:len(data) // 3])      # headers past the end
    link_inputs.library_files.cache_clear()
    command = _command(libs, "-lbar")
    assert unused_libraries(command, frozenset({"foo_fn"})) in (None, set())
