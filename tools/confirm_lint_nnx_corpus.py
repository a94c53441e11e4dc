"""Run every hazard of tests/lint/corpus/hazards_nnx.py under JAX and flax, and check that each
line marked `# expect:` is where a call fails (the innermost frame in the corpus file), and
that valid_nnx.py runs. Needs jax, flax and optax (not a test dependency):

    /tmp/jaxenv/bin/python tools/confirm_lint_nnx_corpus.py

Prints one line per call and exits non-zero when a marked line is not confirmed."""

from __future__ import annotations

import importlib.util
import re
import sys
import traceback
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "lint" / "corpus"
EXPECT = re.compile(r"#\s*expect:")


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, CORPUS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def failing_line(path: Path, call) -> tuple[int | None, str]:
    try:
        call()
    except Exception as error:  # the point: which line fails, with which error
        frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename) == path]
        return (frames[-1].lineno if frames else None), type(error).__name__
    return None, "ran"


def hazard_calls(m):
    import jax.numpy as jnp
    import optax
    from flax import nnx

    x4 = jnp.ones((4,)) * 100.0
    optimizer = nnx.Optimizer(m.clipping, optax.sgd(1e-3), wrt=nnx.Param)
    return {
        "predict(clipping)": lambda: m.predict(m.clipping, x4),
        "predict(gating)": lambda: m.predict(m.gating, x4),
        "predict(normalizing)": lambda: m.predict(m.normalizing, x4),
        "count_calls": lambda: m.count_calls(m.counter, x4),
        "train_step(normalizing)": lambda: m.train_step(
            m.GatedMLP(4, 8, 2, 0.0, "none", rngs=nnx.Rngs(0)), optimizer, x4, jnp.ones((2,))),
        "smooth": lambda: m.smooth(m.state, jnp.ones((8,))),
        "pad_to": lambda: m.pad_to(x4, 2, 1.0),
        "window": lambda: m.window(x4, 3),
        "embed": lambda: m.embed(m.encoder, x4),
    }


def main() -> int:
    hazards_path = CORPUS / "hazards_nnx.py"
    expected = {n for n, line in enumerate(hazards_path.read_text().splitlines(), 1) if EXPECT.search(line)}
    hazards = load("hazards_nnx")
    confirmed = set()
    for label, call in hazard_calls(hazards).items():
        line, error = failing_line(hazards_path, call)
        print(f"{label:28} line {line}: {error}")
        if line in expected and error != "ran":
            confirmed.add(line)
    valid_path = CORPUS / "valid_nnx.py"
    valid = load("valid_nnx")
    line, error = failing_line(valid_path, valid.run_all)
    print(f"{'valid_nnx.run_all':28} {error}" + (f" at line {line}" if line else ""))
    missing = sorted(expected - confirmed)
    print(f"confirmed {len(confirmed)}/{len(expected)} marked lines; not confirmed: {missing}")
    return 0 if not missing and error == "ran" else 1


if __name__ == "__main__":
    sys.exit(main())
