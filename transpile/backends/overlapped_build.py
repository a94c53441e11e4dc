"""A first call that does not wait for the C compiler: the module builds in a background
thread while the program executor (program_executor.py) answers the call.

Only the first call runs on the executor. Every later call waits for the module (if it is
not ready yet) and runs it: the executor gives the same bits, but the module is the fast
path, and a second call that waited no longer than it would have without the overlap is
what keeps steady-state timings steady. A build that fails raises its error at the next
call, as the first call's would have. `TRANSPILE_FIRST_CALL_EXECUTOR=0` turns the overlap off
(every first call then waits for its module, as `Lowered.compile()` always does).

The thread is not a daemon: a process that made only one call still finishes the build (and
publishes it to the disk cache, where its next run finds it) before it exits. A child
forked while a build was running has no such thread: it builds its own.
"""
from __future__ import annotations

import os
import threading
import time

from .. import logs

ENVIRONMENT = "TRANSPILE_FIRST_CALL_EXECUTOR"

# Builds running at once: a loop calling a function once per new shape must not start a
# compiler per shape (each cc1 takes tens of megabytes); the others queue.
_builders = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))


def _fresh_builders_in_forked_child() -> None:
    global _builders          # a forked child has none of its parent's build threads
    _builders = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))


os.register_at_fork(after_in_child=_fresh_builders_in_forked_child)


def enabled() -> bool:
    raw = os.environ.get(ENVIRONMENT, "1").strip().lower()
    if raw in ("1", "true", "yes", "on", ""):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"environment variable {ENVIRONMENT}={raw!r} is not a boolean; use 1 or 0")


class OverlappedBuild:
    """An executable whose first call runs `executor` while `build()` (-> (executable,
    found_on_disk)) makes the module in a thread; later calls run the module."""
    compiled = True
    device_inputs = False

    def __init__(self, executor, build, name: str = "module"):
        self._executor = executor
        self._build = build
        self._name = name
        self._module = None
        self._error = None
        self._lock = threading.Lock()
        self._started_in = os.getpid()
        self._first_call_done = False
        self._thread = threading.Thread(target=self._run_build, name=f"transpile build {name}")
        self._thread.start()

    def _run_build(self) -> None:
        started = time.perf_counter()
        try:
            with _builders:
                self._module, _ = self._build()
        except BaseException as err:          # re-raised by the call that needs the module
            self._error = err
            return
        logs.compiles(f"built {self._name} in the background in "
                      f"{1e3 * (time.perf_counter() - started):.1f} ms")

    def module(self):
        """The built module, waiting for it (or building it, in a forked child)."""
        if self._module is None and self._error is None:
            if os.getpid() != self._started_in:
                with self._lock:
                    if self._module is None and self._error is None:
                        self._run_build()
            else:
                self._thread.join()
        if self._error is not None:
            raise self._error
        return self._module

    def __call__(self, arrays):
        if not self._first_call_done:
            with self._lock:
                first, self._first_call_done = not self._first_call_done, True
            if first:
                try:
                    return self._executor(arrays)
                except Exception as err:      # noqa: BLE001 - the module answers instead
                    # An executor failure is a transpile bug (tests compare it with the
                    # module directly); the user still gets the module's answer.
                    logs.compiles(f"the executor failed on {self._name} ({type(err).__name__}"
                                  f": {err}); waiting for the module")
        return self.module()(arrays)

    def plain_runner(self, single: bool = False, convert=None):
        """The module's fast-path runner (waiting for the module): see cpu.Executable."""
        make = getattr(self.module(), "plain_runner", None)
        return None if make is None else make(single, convert)

    @property
    def so_path(self) -> str:
        return self.module().so_path

    @property
    def source_path(self) -> str:
        return self.module().source_path
