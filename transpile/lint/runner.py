"""Lint (and fix) many files: read, decode, lint or fix, in parallel worker processes when the
tree is large enough for that to pay for the workers' start-up."""

from __future__ import annotations

import multiprocessing
import os
import tokenize
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from .codes import Code
from .config import LintConfig
from .engine import lint_source
from .fixer import fix_source
from .model import Finding

IO_ERROR = Code.E902
PARALLEL_THRESHOLD = 24  # files; below this one process is faster


@dataclass
class FileResult:
    path: str
    source: str = ""
    findings: list[Finding] = field(default_factory=list)
    fixed: str | None = None  # the new text, when fixing changed it
    applied: int = 0  # findings settled by fixes
    encoding: str = "utf-8"
    warnings: list[str] = field(default_factory=list)

    @property
    def lines(self) -> int:
        return self.source.count("\n") + (1 if self.source and not self.source.endswith("\n") else 0)


@dataclass(frozen=True)
class Job:
    config: LintConfig
    fix: bool = False
    unsafe: bool = False


def read_source(data: bytes) -> tuple[str, str]:
    """Decode like Python does (BOM, coding cookie), keeping line endings as they are."""
    try:
        encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    return data.decode(encoding), encoding


def process_source(path: str, source: str, job: Job) -> FileResult:
    result = FileResult(path, source)
    if job.fix:
        fixed = fix_source(source, path, job.config, job.unsafe)
        result.findings = fixed.findings
        result.applied = fixed.fixed
        result.warnings = fixed.warnings
        result.fixed = fixed.source if fixed.source != source else None
    else:
        result.findings = lint_source(source, path, job.config)
    return result


def process_file(path: str, job: Job) -> FileResult:
    try:
        source, encoding = read_source(Path(path).read_bytes())
    except (OSError, UnicodeDecodeError, LookupError) as error:
        return FileResult(path, findings=[Finding(path, 1, 1, IO_ERROR, f"cannot read file: {error}")])
    result = process_source(path, source, job)
    result.encoding = encoding
    return result


def _process(args: tuple[str, Job]) -> FileResult:
    return process_file(*args)


def run(paths: list[str], job: Job, jobs: int | None = None) -> list[FileResult]:
    workers = jobs if jobs is not None else _default_workers(len(paths))
    context = _fork_context()
    if workers <= 1 or len(paths) < 2 or context is None:
        return [process_file(path, job) for path in paths]
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        chunk = max(1, len(paths) // (workers * 8))
        return list(pool.map(_process, [(path, job) for path in paths], chunksize=chunk))


def _fork_context():
    """Workers are forked: a spawned worker would re-run `python -m transpile`'s __main__
    (which has no main guard), and forking skips re-importing libcst. Where fork does not
    exist, files are linted in this process."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    return multiprocessing.get_context("fork")


def _default_workers(count: int) -> int:
    if count < PARALLEL_THRESHOLD:
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


def write_fixed(result: FileResult) -> None:
    if result.fixed is not None:
        Path(result.path).write_bytes(result.fixed.encode(result.encoding))
