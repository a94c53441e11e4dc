"""The tests every table of recorded JAX cases gets (tests/jax_*_cases.py, whose answers
tools/record_jax_*.py store through tools/jax_recording.py in tests/data/jax_*.json): each
case run with transpile under JAX's dtype rules with x64 on, eagerly and under jit, its leaves
compared with JAX's (recorded_leaves.py), and each case JAX refused refused here too.

A case table is a tuple of groups; a group is a function of the modules it is given (transpile's
in place of JAX's) returning name -> (make, args, jittable). A test file makes one
RecordedCases and puts its tests() in its namespace, keeping only what is its own.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Sequence

import pytest

import transpile as tp
from recorded_leaves import assert_leaves_like
from transpile.config import config

JAX_RULES_X64 = dict(transpile_dtype_rules="jax", jax_enable_x64=True)
DATA = Path(__file__).parent / "data"


class RecordedCases:
    """The cases of `groups`, built from `modules`, and JAX's answers in tests/data/`data_file`."""

    def __init__(self, data_file: str, groups: Sequence[Callable], modules: tuple):
        self.recorded = json.loads((DATA / data_file).read_text())["cases"]
        self.groups = tuple(groups)
        self.modules = modules
        self.cases = {name: case for table in self.tables() for name, case in table.items()}
        refused = {n for n in self.cases if "error" in self.recorded.get(n, {})}
        self.error_cases = sorted(refused)
        self.value_cases = sorted(set(self.cases) - refused)
        self.jit_cases = sorted(n for n in self.value_cases if self.cases[n][2])

    def tables(self) -> list[dict]:
        """Each group's cases, built afresh as the tests run them (under JAX's rules, x64 on)."""
        with config.settings(**JAX_RULES_X64):
            return [group(*self.modules) for group in self.groups]

    def assert_like_jax(self, result, name: str):
        assert_leaves_like(result, self.recorded[name], name)

    def assert_refused_like_jax(self, name: str, jit: bool, message: Callable[[str], str]):
        """JAX's exception type and message (which transpile may follow with a hint)."""
        make, args, _ = self.cases[name]
        with pytest.raises(Exception) as raised:
            (tp.jit(make) if jit else make)(*args)
        want = self.recorded[name]
        names = {t.__name__ for t in type(raised.value).__mro__}
        assert want["error"] in names, (name, want["error"], names)
        assert message(str(raised.value)).startswith(want["message"]), \
            (name, str(raised.value), want["message"])

    def run_jitted(self, one_program: bool) -> dict:
        """The jittable cases' results: each group's as one jitted program (one C build), or
        all of them as one."""
        tables = [{n: c for n, c in table.items() if n in self.jit_cases}
                  for table in self.tables()]
        if one_program:
            tables = [{n: c for table in tables for n, c in table.items()}]
        results = {}
        for table in tables:
            def run_all(arguments, table=table):
                return {n: table[n][0](*arguments[n]) for n in table}
            results.update(tp.jit(run_all)({n: c[1] for n, c in table.items()}))
        return results

    def tests(self, *, every_case_recorded: bool = True, errors_under_jit: bool = False,
              error_message: Callable[[str], str] = str, one_jit_program: bool = False) -> dict:
        """The tests and fixtures, by name, for a test module's globals(). Options:
        every_case_recorded, a test that the cases and the recording name the same cases;
        errors_under_jit, refusals checked under jit as well as eagerly; error_message, how
        transpile's message is reduced before it is compared (as the recorder reduced JAX's);
        one_jit_program, every jittable case in one program rather than one per group."""
        made = {"jax_rules_with_x64": _jax_rules_with_x64()}     # in the order they run
        if every_case_recorded:
            made["test_every_case_was_recorded"] = self._test_every_case_recorded()
        if self.error_cases:
            made["test_error_matches_jax"] = self._test_errors(errors_under_jit, error_message)
        made["test_eager_matches_jax"] = self._test_eager()
        made["jitted"] = self._jitted(one_jit_program)
        made["test_jit_matches_jax"] = self._test_jit()
        return made

    def _test_every_case_recorded(self):
        def test_every_case_was_recorded():
            cases, recorded = set(self.cases), set(self.recorded)
            assert cases == recorded, \
                f"not recorded: {cases - recorded}; recorded, no case: {recorded - cases}"
        return test_every_case_was_recorded

    def _test_errors(self, under_jit: bool, message: Callable[[str], str]):
        if under_jit:
            @pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
            @pytest.mark.parametrize("name", self.error_cases)
            def test_error_matches_jax(name, jit):
                self.assert_refused_like_jax(name, jit, message)
            return test_error_matches_jax

        @pytest.mark.parametrize("name", self.error_cases)
        def test_error_matches_jax(name):
            self.assert_refused_like_jax(name, False, message)
        return test_error_matches_jax

    def _test_eager(self):
        @pytest.mark.parametrize("name", self.value_cases)
        def test_eager_matches_jax(name):
            make, args, _ = self.cases[name]
            self.assert_like_jax(make(*args), name)
        return test_eager_matches_jax

    def _jitted(self, one_program: bool):
        @pytest.fixture(scope="module")
        def jitted():
            return self.run_jitted(one_program)
        return jitted

    def _test_jit(self):
        @pytest.mark.parametrize("name", self.jit_cases)
        def test_jit_matches_jax(name, jitted):
            self.assert_like_jax(jitted[name], name)
        return test_jit_matches_jax


def _jax_rules_with_x64():
    @pytest.fixture(autouse=True, scope="module")
    def jax_rules_with_x64():
        with config.settings(**JAX_RULES_X64):
            yield
    return jax_rules_with_x64
