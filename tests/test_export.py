"""`Lowered.export` / `transpile export`: the folder builds with make alone, a C program linked
against it (shared and static) computes NumPy's results, and nothing in it names this machine."""
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.cli import main
from transpile.export import Argument, ExportedLibrary
from transpile.pytree import tree_flatten

from conftest import assert_same

pytestmark = pytest.mark.skipif(not (shutil.which("make") and shutil.which("cc")),
                                reason="building an exported library needs make and cc")

STRICT_CFLAGS = "-O2 -Wall -Wextra -Wno-type-limits -Werror"


# -- a C program that runs the exported function on inputs read from files --------------------

def _driver(library) -> str:
    """main(argc, argv): argv = input files, then output files (raw bytes, C order)."""
    lines = ["#include <stdio.h>", "#include <stdlib.h>", f'#include "{library.name}.h"', "",
             "static void *load(const char *path, size_t bytes) {",
             "    void *data = malloc(bytes ? bytes : 1);",
             '    FILE *f = fopen(path, "rb");',
             "    if (!data || !f || fread(data, 1, bytes, f) != bytes) exit(3);",
             "    fclose(f);", "    return data;", "}", "",
             "static void save(const char *path, const void *data, size_t bytes) {",
             '    FILE *f = fopen(path, "wb");',
             "    if (!f || fwrite(data, 1, bytes, f) != bytes) exit(4);",
             "    fclose(f);", "}", "",
             "int main(int argc, char **argv) {",
             f"    if (argc != {1 + len(library.inputs) + len(library.outputs)}) return 2;"]
    args = []
    for k, a in enumerate(library.inputs + library.outputs):
        size = f"sizeof({a.c_type}) * {a.size}"
        lines.append(f"    {a.c_type} *{a.name} = load(argv[{k + 1}], {size});"
                     if k < len(library.inputs) else
                     f"    {a.c_type} *{a.name} = malloc({size} + 1);")
        args.append(a.name)
    lines.append(f"    int status = {library.name}({', '.join(args)});")
    lines.append("    if (status != 0) return 10 + status;")
    for k, a in enumerate(library.outputs, start=len(library.inputs)):
        lines.append(f"    save(argv[{k + 1}], {a.name}, sizeof({a.c_type}) * {a.size});")
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def build_and_link(library, work: pathlib.Path):
    """make the folder (warnings are errors), then link a driver against the .so and the .a."""
    folder = pathlib.Path(library.directory)
    done = subprocess.run(["make", "-C", str(folder), f"CFLAGS={STRICT_CFLAGS}"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (folder / f"lib{library.name}.so").is_file()
    assert (folder / f"lib{library.name}.a").is_file()
    if shutil.which("nm"):        # one global symbol: several exported libraries link together
        symbols = subprocess.run(["nm", "-g", "--defined-only", str(folder / f"{library.name}.o")],
                                 capture_output=True, text=True, check=True).stdout.split()
        assert [s for s in symbols if s in ("T", "D", "B", "R")] == ["T"]
        assert symbols[-1] == library.name
    (work / "main.c").write_text(_driver(library))
    common = ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", str(work / "main.c"),
              "-I", str(folder)]
    programs = {"shared": work / "main_shared", "static": work / "main_static"}
    links = {"shared": [*common, "-L", str(folder), f"-l{library.name}", "-fopenmp", "-lm"],
             "static": [*common, str(folder / f"lib{library.name}.a"), "-fopenmp", "-lm"]}
    for kind, command in links.items():
        done = subprocess.run([*command, "-o", str(programs[kind])], capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
    return programs


def run_exported(library, work, *inputs):
    """Run the exported function from both programs; check they agree; return the outputs."""
    programs = build_and_link(library, work)
    in_files = []
    for k, (arg, value) in enumerate(zip(library.inputs, inputs)):
        value = np.array(value, dtype=arg.dtype, order="C")   # (keeps 0-d shapes)
        assert value.shape == arg.shape
        in_files.append(work / f"in{k}.bin")
        value.tofile(in_files[-1])
    results = {}
    for kind, program in programs.items():
        out_files = [work / f"{kind}_out{k}.bin" for k in range(len(library.outputs))]
        env = dict(os.environ, LD_LIBRARY_PATH=library.directory)
        done = subprocess.run([str(program), *map(str, in_files), *map(str, out_files)],
                              capture_output=True, text=True, env=env)
        assert done.returncode == 0, (kind, done.returncode, done.stderr)
        results[kind] = [np.fromfile(f, dtype=a.dtype).reshape(a.shape)
                         for f, a in zip(out_files, library.outputs)]
    for a, b in zip(results["shared"], results["static"]):
        np.testing.assert_array_equal(a, b)
    return results["shared"]


def assert_self_contained(library):
    folder = pathlib.Path(library.directory)
    machine_paths = {str(pathlib.Path(__file__).resolve().parent.parent), os.getcwd(),
                     os.path.expanduser("~"), sys.prefix, str(folder.parent),
                     os.path.dirname(tp.__file__)}
    for path in folder.iterdir():
        if path.suffix in (".c", ".h") or path.name == "Makefile":
            text = path.read_text()
            for machine_path in machine_paths:
                assert machine_path not in text, f"{path.name} names {machine_path}"
            for word in ("Python.h", "numpy", "cffi"):
                if path.suffix in (".c", ".h"):
                    assert f"#include <{word}" not in text and f'#include "{word}' not in text


# -- what the folder holds -----------------------------------------------------------------------

def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)


def test_elementwise_export_builds_and_matches_numpy(tmp_path):
    x = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
    library = tp.jit(selu).lower(x).export(tmp_path / "lib", name="selu")
    assert sorted(library.files) == ["Makefile", "selu.c", "selu.h", "transpile.h"]
    header = (tmp_path / "lib" / "selu.h").read_text()
    assert "int selu(const float *x, float *out0);" in header
    assert "float32[1000]" in header and "exp" in header        # shapes, dtypes and the IR
    assert_self_contained(library)
    (out,) = run_exported(library, tmp_path, x)
    expected = np.float32(1.05) * np.where(x > 0, x, np.float32(1.67) * np.exp(x)
                                           - np.float32(1.67))
    assert_same(out, expected, rtol=1e-5)     # alpha * exp(x) - alpha cancels near 0
    assert_same(out, tp.jit(selu)(x))        # and bit for bit what jit computes


def test_reduction_export(tmp_path):
    x = np.random.default_rng(1).standard_normal((64, 33))
    library = tp.jit(lambda x: tnp.sum(x * x, axis=1)).lower(x).export(tmp_path / "lib",
                                                                        name="row_norms")
    (out,) = run_exported(library, tmp_path, x)
    assert_same(out, np.sum(x * x, axis=1), rtol=1e-12)


def test_matmul_export(tmp_path):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((20, 30)), rng.standard_normal((30, 12))
    library = tp.jit(lambda a, b: tnp.tanh(a @ b)).lower(a, b).export(tmp_path / "lib",
                                                                       name="layer")
    (out,) = run_exported(library, tmp_path, a, b)
    assert_same(out, np.tanh(a @ b), rtol=1e-12)


def test_large_product_export_holds_the_gemm_kernels(tmp_path):
    """A product big enough for the runtime library's GEMM: the export compiles tp_gemm.h
    into itself (copied beside it), so it still needs nothing of transpile's."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((64, 80)), rng.standard_normal((80, 48))
    library = tp.jit(lambda a, b: a @ b).lower(a, b).export(tmp_path / "lib", name="big")
    assert "tp_gemm.h" in library.files and "tp_runtime.h" not in library.files
    assert_self_contained(library)
    (out,) = run_exported(library, tmp_path, a, b)
    np.testing.assert_allclose(out, a @ b, rtol=1e-12)


def test_fft_and_conv_exports_hold_their_kernels(tmp_path):
    """FFT and convolution kernels live in the runtime library for jitted modules; an export
    compiles tp_fft.h and tp_conv.h into itself instead (copied beside it)."""
    from transpile import lax
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 6, 6, 2)).astype(np.float32)
    w = rng.standard_normal((3, 3, 2, 4)).astype(np.float32)

    def conv_then_spectrum(x, w):
        y = lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return y, tnp.abs(tnp.fft.rfft(y, axis=2))

    library = tp.jit(conv_then_spectrum).lower(x, w).export(tmp_path / "lib", name="spec")
    assert {"tp_fft.h", "tp_conv.h"} <= set(library.files)
    assert "tp_runtime.h" not in library.files
    assert_self_contained(library)
    conv, spectrum = run_exported(library, tmp_path, x, w)
    expected = tp.jit(conv_then_spectrum)(x, w)
    np.testing.assert_allclose(conv, expected[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(spectrum, expected[1], rtol=1e-5, atol=1e-5)


def test_fori_loop_export_from_the_command_line(tmp_path, capsys):
    script = tmp_path / "iterate.py"
    script.write_text(textwrap.dedent("""
        import transpile as tp
        from transpile import lax

        @tp.jit
        def step(x, n):
            return lax.fori_loop(0, n, lambda i, v: v * 0.5 + i, x)
    """))
    out_dir = tmp_path / "lib"
    status = main(["export", f"{script}:step", "--arg", "x=f64[8,5]", "--arg", "n=7",
                   "-o", str(out_dir), "--name", "step"])
    assert status == 0, capsys.readouterr().err
    header = (out_dir / "step.h").read_text()
    assert "int step(const double *x, double *out0);" in header
    assert "n = 7" in header                                  # the static value, documented
    library = _cli_library(out_dir, "step", shape=(8, 5), dtype=np.float64)
    assert_self_contained(library)
    x = np.random.default_rng(3).standard_normal((8, 5))
    (out,) = run_exported(library, tmp_path, x)
    assert_same(out, _step_reference(x, 7), rtol=1e-14)


def _step_reference(x, n):
    for i in range(n):
        x = x * 0.5 + i
    return x


def _cli_library(folder, name, shape, dtype):
    """What the driver needs to know of a one-input, one-output export written by the CLI
    (the header checked above says the same)."""
    x = Argument("x", "x", shape, np.dtype(dtype))
    out = Argument("out0", "result", shape, np.dtype(dtype))
    return ExportedLibrary(str(folder), name, (), (x,), (out,))


def many_outputs(x, k):
    """A pytree of results of several dtypes; some are not written by the compiled entry."""
    scaled = x * tnp.array([1.0, -2.0, 0.5])         # a captured constant
    best = tnp.argmax(scaled, axis=1)
    return {"best": best, "positive": scaled > 0, "same": x, "two": 2.0,
            "shifted": (k * 3, best + k), "again": best}


def test_multiple_outputs_in_flattened_order(tmp_path):
    rng = np.random.default_rng(4)
    x, k = rng.standard_normal((10, 3)), np.int32(5)
    lowered = tp.jit(many_outputs).lower(x, k)
    library = lowered.export(tmp_path / "lib", name="many")
    header = (tmp_path / "lib" / "many.h").read_text()
    # Dict keys in sorted order: again, best, positive, same, shifted (a tuple), two.
    assert ("int many(const double *x, const int32_t *k, int64_t *out0, int64_t *out1, "
            "bool *out2, double *out3, int32_t *out4, int64_t *out5, double *out6);"
            in header)
    for name, path in [("out0", "result['again']"), ("out5", "result['shifted'][1]"),
                       ("out6", "result['two']")]:
        assert any(name in line and path in line for line in header.splitlines())
    outs = run_exported(library, tmp_path, x, np.asarray(k))
    expected, _ = tree_flatten(many_outputs(x, k))      # eager: NumPy computes the reference
    assert len(outs) == len(expected) == 7
    for got, want in zip(outs, expected):
        assert_same(got, np.asarray(want))


# -- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, message", [
    ("x=f16[3]", "unknown dtype 'f16'"),
    ("x=f32[3,-1]", "dimensions of argument 'x'"),
    ("x=array", "argument 'x' is neither"),
    ("x", "expected NAME=SPEC"),
    ("y=f32[3]", "no parameter 'y'"),
    ("x=[1, 2]", "argument 'x': a static value must be hashable"),
])
def test_bad_arg_is_a_usage_error_naming_the_argument(tmp_path, capsys, spec, message):
    script = tmp_path / "model.py"
    script.write_text("def f(x):\n    return x + 1\n")
    status = main(["export", f"{script}:f", "--arg", spec, "-o", str(tmp_path / "out")])
    assert status == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_bad_name_or_function_is_a_usage_error(tmp_path, capsys):
    script = tmp_path / "model.py"
    script.write_text("def f(x):\n    return x + 1\n")
    assert main(["export", f"{script}:g", "--arg", "x=f32[3]", "-o", str(tmp_path)]) == 2
    assert "defines no 'g'" in capsys.readouterr().err
    assert main(["export", f"{script}:f", "--arg", "x=f32[3]", "-o", str(tmp_path),
                 "--name", "2fast"]) == 2
    assert "not usable as a C function name" in capsys.readouterr().err
    lowered = tp.jit(selu).lower(np.zeros(3))
    with pytest.raises(ValueError, match="C function name"):
        lowered.export(tmp_path, name="my-selu")
    for taken in ("main", "transpile"):          # transpile.h is the runtime header
        with pytest.raises(ValueError, match="is taken"):
            lowered.export(tmp_path, name=taken)


@pytest.mark.parametrize("code, dtype", [("bool", np.bool_), ("i8", np.int8), ("i16", np.int16),
                                         ("i32", np.int32), ("i64", np.int64), ("u8", np.uint8),
                                         ("u16", np.uint16), ("u32", np.uint32),
                                         ("u64", np.uint64), ("f32", np.float32),
                                         ("f64", np.float64)])
def test_arg_grammar_array_specs(code, dtype):
    from transpile.export_cli import parse_arg
    name, value = parse_arg(f"x={code}[2, 3]")
    assert name == "x" and value.shape == (2, 3) and value.dtype == dtype
    assert parse_arg(f"s={code}[]")[1].shape == ()


def test_arg_grammar_literals_are_static_values():
    from transpile.export_cli import parse_arg
    assert parse_arg("n=7") == ("n", 7)
    assert parse_arg("mode='fast'") == ("mode", "fast")
    assert parse_arg("shape=(2, 3)") == ("shape", (2, 3))
    assert parse_arg("flag=True") == ("flag", True)


def test_cholesky_export_holds_the_blocked_factorization(tmp_path):
    """A Cholesky past one block (tp_cholesky.h, which takes tp_gemm.h's micro-kernels without
    its exported entries) beside a product (which takes them all): both headers are copied,
    the folder builds warning-free, and each GEMM entry is defined once."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((150, 150))
    a = x @ x.T / 150 + np.eye(150)
    library = tp.jit(lambda a: (tnp.linalg.cholesky(a), a @ a)).lower(a).export(
        tmp_path / "lib", name="chol")
    assert {"tp_linalg.h", "tp_cholesky.h", "tp_gemm.h"} <= set(library.files)
    assert_self_contained(library)
    lower, square = run_exported(library, tmp_path, a)
    np.testing.assert_allclose(lower, np.linalg.cholesky(a), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(square, a @ a, rtol=1e-12)
