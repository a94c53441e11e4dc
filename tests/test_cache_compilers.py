"""Compilers that misbehave, named through TRANSPILE_CC: missing, not executable, failing,
silent, producing garbage, killed, or failing for want of disk space. The message says what
is wrong and what to do; nothing half-built is ever published."""
import os
import subprocess

import pytest

from cache_tools import EXPECTED, command, entries, env_for, fake_cc, leftovers, run


def run_failing(tmp_path, cache, **env):
    proc = subprocess.run(command(tmp_path, "f"), env=env_for(cache, **env), timeout=120,
                          capture_output=True, text=True)
    assert proc.returncode != 0, proc.stdout
    return proc.stderr


@pytest.mark.parametrize("case", ["missing path", "not on PATH", "a directory",
                                  "not executable", "with arguments"])
def test_a_bad_transpile_cc_is_described_accurately(tmp_path, cache_dir, case):
    plain = tmp_path / "plain-file"
    plain.write_text("not a program")
    value = {"missing path": "/nonexistent/cc", "not on PATH": "no-such-compiler-xyz",
             "a directory": str(tmp_path), "not executable": str(plain),
             "with arguments": "gcc -O2"}[case]
    out = run(tmp_path, cache_dir, "f", TRANSPILE_CC=value)
    assert out["result"] == EXPECTED["f"]             # the interpreter, said loudly once
    (warning,) = out["warnings"]
    expected = {"missing path": "does not exist", "not on PATH": "no program of that name",
                "a directory": "is a directory", "not executable": "is not executable",
                "with arguments": "TRANSPILE_CFLAGS"}[case]
    assert expected in warning and repr(value) in warning, warning
    assert "no C compiler found" not in warning and "interpret" in warning
    assert "set TRANSPILE_CC" not in warning     # it is set: the value is what is wrong


def test_a_compiler_that_writes_nothing(tmp_path, cache_dir):
    cc = fake_cc(tmp_path, "silent-cc", "exit 0")
    err = run_failing(tmp_path, cache_dir, TRANSPILE_CC=cc)
    assert "CompileError" in err and "wrote no" in err
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []


def test_a_compiler_that_writes_garbage_publishes_nothing(tmp_path, cache_dir):
    cc = fake_cc(tmp_path, "garbage-cc", 'while [ "$1" != "-o" ]; do shift; done\n'
                 'echo "not an ELF file" > "$2"')
    err = run_failing(tmp_path, cache_dir, TRANSPILE_CC=cc)
    assert "LoadError" in err and "could not load compiled module" in err
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []


def test_a_compiler_killed_by_a_signal(tmp_path, cache_dir):
    cc = fake_cc(tmp_path, "killed-cc", "kill -9 $$")
    err = run_failing(tmp_path, cache_dir, TRANSPILE_CC=cc)
    assert "killed by signal 9" in err
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []


def test_a_compiler_that_cannot_be_run(tmp_path, cache_dir):
    cc = tmp_path / "no-interpreter-line"
    cc.write_text("echo hello\n")                 # executable, but without its #! line
    cc.chmod(0o755)
    err = run_failing(tmp_path, cache_dir, TRANSPILE_CC=cc)
    assert "could not run the C compiler" in err and "TRANSPILE_CC" in err
    assert entries(cache_dir) == []


def test_a_full_cache_disk_falls_back_to_memory(tmp_path, cache_dir):
    """The compiler fails to write into the cache for want of space: the build is redone in
    the system's temporary directory, with one warning, and nothing is published."""
    cc = fake_cc(tmp_path, "full-disk-cc",
                 f'case "$*" in *"{cache_dir}"*) '
                 'echo "ld: final link failed: No space left on device" >&2; exit 1 ;; esac\n'
                 'exec "$REAL" "$@"')
    out = run(tmp_path, cache_dir, "f", 2, TRANSPILE_CC=cc)
    assert out["result"] == EXPECTED["f"] and out["all_equal"]
    assert len(out["warnings"]) == 1 and "is full" in out["warnings"][0], out["warnings"]
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []
    assert os.path.isdir(cache_dir)


def test_the_cache_removed_during_a_build(tmp_path, cache_dir):
    """`rm -rf` of the cache while the compiler runs: the build is redone in memory."""
    cc = fake_cc(tmp_path, "cache-removing-cc", f'rm -rf "{cache_dir}"\nexec "$REAL" "$@"')
    out = run(tmp_path, cache_dir, "f", TRANSPILE_CC=cc)
    assert out["result"] == EXPECTED["f"]
    assert len(out["warnings"]) == 1 and "memory only" in out["warnings"][0], out["warnings"]
