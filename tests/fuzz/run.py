"""Run a range of seeds in batches; classify, deduplicate and (optionally) shrink."""
from __future__ import annotations

import dataclasses
import time

from . import generate, oracle
from .findings import deduplicate

BATCH = 12         # programs per compiled function: gcc's fixed cost is shared by them


@dataclasses.dataclass
class Report:
    programs: int = 0
    seconds: float = 0.0
    findings: list = dataclasses.field(default_factory=list)

    def classes(self) -> dict:
        return deduplicate(self.findings)

    def failing_programs(self) -> int:
        return len({f.seed for f in self.findings})


def run_seeds(seeds, batch: int = BATCH, progress=None) -> Report:
    report = Report()
    started = time.perf_counter()
    seeds = list(seeds)
    for i in range(0, len(seeds), batch):
        programs = [generate.program(s) for s in seeds[i:i + batch]]
        found, n = oracle.check_batch(programs)
        report.findings += found
        report.programs += n
        if progress is not None:
            progress(report, seeds[min(i + batch, len(seeds)) - 1])
    report.seconds = time.perf_counter() - started
    return report
