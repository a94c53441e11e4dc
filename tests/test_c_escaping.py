"""User text in generated C: static strings, function names and file paths appear only
inside comments, escaped so that `*/` (or a line splice or trigraph making one) cannot
occur. Checked on the escaping itself through the C preprocessor, and end to end: the
built module exports nothing the user's text named, and gcc compiles it without warning."""
import ctypes
import os
import random
import re
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.codegen.c_comment import c_comment, comment_text

MARKER = "tp_injected_marker"
HOSTILE = [
    f"*/ int {MARKER} = 1; /*",
    "logs/*/2020",
    "a/*/b/**/c",
    "*??/\n/ int x;",            # a trigraph line splice that would make */ under -std=c11
    "*\\\n/",                    # a backslash-newline splice
    "??=??(??)??<??>??'??!??-",
    "tab\tnewline\ncarriage\rnul\0 é ∑ \U0001F600",
    "\\",
    "//* comment */",
]


def test_comment_text_never_contains_a_terminator():
    rng = random.Random(0)
    alphabet = "*/?\\\n\r ab"
    samples = HOSTILE + ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
                         for _ in range(2000)]
    for text in samples:
        escaped = comment_text(text)
        assert "*/" not in escaped and "/*" not in escaped and "??" not in escaped, text
        assert all(" " <= ch <= "~" for ch in escaped), text      # one printable ASCII line


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="needs a C compiler to preprocess")
def test_escaped_comments_preprocess_to_nothing(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    source = "\n".join(f"{c_comment(t)}\nint kept_{i};" for i, t in enumerate(HOSTILE))
    path = tmp_path / "comments.c"
    path.write_text(source + "\n")
    proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-E", "-P", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    code = proc.stdout.split()
    assert code == [f"kept_{i};" if j else "int" for i in range(len(HOSTILE)) for j in (0, 1)]


def _built_module(jitted):
    (executable,) = [e.run for e in jitted._cache.entries.values()]
    return executable.so_path, open(executable.source_path).read()


def _code_outside_comments(c_text):
    """C without its block comments (which end at the first `*/`, as in C)."""
    return re.sub(r"/\*.*?\*/", " ", c_text, flags=re.S)


def _assert_inert(so_path):
    lib = ctypes.CDLL(so_path)
    assert not hasattr(lib, MARKER), "user text became C code"


def test_hostile_static_strings(cache_dir):
    def tagged(x, tag):
        return x + float(len(tag))
    f = tp.jit(tagged, static_argnames="tag")
    x = np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a C compiler warning would be a warning here
        for tag in HOSTILE[:4]:
            np.testing.assert_array_equal(f(x, tag=tag), x + len(tag))
    texts = []
    for executable in [e.run for e in f._cache.entries.values()]:
        _assert_inert(executable.so_path)
        texts.append(open(executable.source_path).read())
        assert MARKER not in _code_outside_comments(texts[-1])
    assert len(texts) == 4 and any(f"int {MARKER}" in t for t in texts)   # kept, in a comment


def test_hostile_function_name(cache_dir):
    def named(x):
        return x * 3.0
    named.__qualname__ = named.__name__ = f"*/ int {MARKER} = 2; /*"
    f = tp.jit(named)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(f(np.arange(3.0)), np.arange(3.0) * 3.0)
    so_path, text = _built_module(f)
    _assert_inert(so_path)
    assert MARKER not in _code_outside_comments(text)
    assert "/ *" in text and f"* / int {MARKER}" in text      # kept, escaped, readable


def test_script_in_a_folder_with_comment_characters(tmp_path, cache_dir):
    folder = tmp_path / "build*" / "/*x*"[1:]       # folders named `build*` and `*x*`
    folder.mkdir(parents=True)
    script = folder / "job*.py"
    script.write_text(
        "import numpy as np, transpile as tp, transpile.numpy as tnp\n"
        "f = tp.jit(lambda x: tnp.sum(x * 2.0))\n"
        "print(float(f(np.arange(5.0))))\n")
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache_dir),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", str(script)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "20.0"
    (c_file,) = cache_dir.rglob("module.c")
    assert "build* /" in c_file.read_text()          # the path is there, escaped
