"""The precompiled prelude (issue 22): the runtime's headers, precompiled once into the runtime
library's cache entry, are what modules are compiled with first (`-include`).

What is checked: the library's entry holds the header and its .gch with their hashes in the
manifest; modules are built with it and compute the same answers; a prelude whose files do
not hash as the manifest says, or were replaced after the check, is never used (the module
is then built by parsing the headers, as before)."""
import json
import os
import shutil

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.backends import cpu
from transpile.runtime import runtime_library
from transpile.runtime.compiler import CCompiler

from conftest import assert_same

pytestmark = pytest.mark.skipif(CCompiler.from_environment() is None,
                                reason="the prelude is precompiled with a C compiler")


@pytest.fixture(scope="module")
def library():
    return runtime_library.ensure(cpu.backend().compiler)


def _entry_copy(library, tmp_path):
    """The library entry's prelude files and manifest's `built`, copied to tmp_path."""
    entry = os.path.dirname(library.path)
    for name in (runtime_library.PRELUDE, runtime_library.PRECOMPILED):
        shutil.copyfile(os.path.join(entry, name), tmp_path / name)
    with open(os.path.join(entry, "manifest.json")) as f:
        return json.load(f)["built"]


def test_the_library_entry_holds_the_checked_prelude(library):
    assert library.prelude is not None
    header = runtime_library.prelude(cpu.backend().compiler)
    assert header == library.prelude.header
    assert os.path.dirname(header) == os.path.dirname(library.path)
    assert os.path.getsize(header + ".gch") > 0


def test_modules_are_built_with_the_prelude_and_compute_the_same(library, cache_dir):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((64, 80)), rng.standard_normal((80, 48))

    def fun(a, b):
        return tnp.tanh(a @ b) + tnp.sum(a)
    assert_same(tp.jit(fun)(a, b), np.tanh(a @ b) + np.sum(a), rtol=1e-12)
    (manifest,) = [m for m in cache_dir.glob("*/*/manifest.json")
                   if json.loads(m.read_text())["built"].get("kind") != runtime_library.KIND]
    command = json.loads(manifest.read_text())["built"]["command"].split()
    assert command[command.index("-include") + 1] == library.prelude.header


def test_a_prelude_that_does_not_hash_as_its_manifest_says_is_not_used(library, tmp_path):
    built = _entry_copy(library, tmp_path)
    assert runtime_library.checked_prelude(str(tmp_path), built) is not None
    with open(tmp_path / runtime_library.PRECOMPILED, "r+b") as f:
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 1]))
    assert runtime_library.checked_prelude(str(tmp_path), built) is None
    assert runtime_library.checked_prelude(str(tmp_path), {"kind": "runtime"}) is None


def test_a_prelude_replaced_after_its_check_is_not_used(library, tmp_path):
    built = _entry_copy(library, tmp_path)
    checked = runtime_library.checked_prelude(str(tmp_path), built)
    assert checked.current()
    replacement = tmp_path / "other.gch"
    shutil.copyfile(tmp_path / runtime_library.PRECOMPILED, replacement)
    os.replace(replacement, tmp_path / runtime_library.PRECOMPILED)     # same bytes, new file
    assert not checked.current()


def test_a_prelude_removed_during_the_build_is_built_without(library, cache_dir, monkeypatch,
                                                             tmp_path):
    """The compiler fails on a prelude that went away between its check and its reading
    (`transpile cache clear` meanwhile); the module is then built without it."""
    gone = str(tmp_path / "removed" / runtime_library.PRELUDE)
    answers = iter([gone, None])
    monkeypatch.setattr(runtime_library, "prelude", lambda compiler: next(answers))
    x = np.arange(12.0)
    assert_same(tp.jit(lambda x: x * 2 + 1)(x), x * 2 + 1)
    (manifest,) = cache_dir.glob("*/*/manifest.json")
    assert "-include" not in json.loads(manifest.read_text())["built"]["command"]
