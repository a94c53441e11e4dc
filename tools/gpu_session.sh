#!/usr/bin/env bash
# One call on a lent GPU machine (the workplace's `device` tool): what `tox -e gpu` runs, split
# so that one slow part cannot eat the lease, with every log under $OUT.
#
#   bash tools/gpu_session.sh [bench|tests|suite|all]     (default: all)
#
# The machine's python has numpy but not cffi or libcst: carry them as wheels in .whl/ (the
# device tool's README says how). Steps, each under its own time limit:
#   bench  benchmarks/bench_cuda.py against CuPy and JAX (alone on the GPU, so timings are clean)
#   tests  tests/test_cuda_gpu.py (compute-sanitizer memcheck/racecheck, interop, grids...)
#          except its wrapper around the op suites, which `suite` runs in parallel instead
#   suite  the op, differential, lax, complex, spectral, loop, sort, linalg and scatter suites
#          with TRANSPILE_TEST_BACKEND=cuda on the real device (no -x: the whole failure list)
set -u
what=${1:-all}
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site:$PWD
else
    export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1 TRANSPILE_CACHE_DIR=/tmp/tpc XLA_PYTHON_CLIENT_PREALLOCATE=false
unset TRANSPILE_CUDA_EMULATE
{
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv
    nvcc --version | tail -2; gcc --version | head -1; python3 --version
    python3 -c "import numpy, cffi; print('numpy', numpy.__version__, 'cffi', cffi.__version__)"
    nproc
} >"$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

run_bench() {
    timeout 150 python3 benchmarks/bench_cuda.py --reps 20 >"$OUT/bench.txt" 2>&1
    echo "bench rc=$?" >>"$OUT/bench.txt"
}
run_tests() {
    timeout -s INT -k 20 250 python3 -m pytest -m gpu -v -rf --tb=short -p no:cacheprovider \
        -o addopts="" -n 3 \
        tests/test_cuda_gpu.py -k "not op_differential" >"$OUT/gputests.txt" 2>&1
    echo "tests rc=$?" >>"$OUT/gputests.txt"
}
run_suite() {
    TRANSPILE_TEST_BACKEND=cuda HYPOTHESIS_PROFILE=cuda-emulated TP_LOOP_EXAMPLES=5 \
        timeout -s INT -k 20 250 python3 -m pytest -v -rf --tb=short -p no:cacheprovider \
        -o addopts="" -n 12 \
        tests/test_ops.py tests/test_differential.py tests/test_lax.py tests/test_complex.py \
        tests/test_linalg_spectral.py tests/test_loop_ranges.py tests/test_sorting.py \
        tests/test_linalg.py tests/test_scatter.py \
        >"$OUT/suite.txt" 2>&1
    echo "suite rc=$?" >>"$OUT/suite.txt"
}

case $what in
    bench) run_bench ;;
    tests) run_tests ;;
    suite) run_suite ;;
    all) run_bench; run_tests & run_suite; wait ;;
esac
for f in bench gputests suite; do
    [ -f "$OUT/$f.txt" ] && { echo "== $f"; tail -n 25 "$OUT/$f.txt"; }
done
exit 0
