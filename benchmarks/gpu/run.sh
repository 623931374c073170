#!/usr/bin/env bash
# The GPU run of issue 30, sized to a lent GPU machine (one command of at most 10 minutes, no
# package registry). From the repository root there:
#
#     bash benchmarks/gpu/run.sh        (carry .whl: the wheels below, made here beforehand)
#
# The wheels the machine lacks travel in .whl (python-graphblas, SuiteSparse, cffi, donfig,
# mpi4py and mpich for Python 3.12; benchmarks/gpu/README.md says how to fetch them). Writes
# under $OUT: device.txt, tests.log, bench.log, gpu.json, gpu.png, properties.log.
# GBLAS2D_GPU_BACKEND=array rehearses all of it without a GPU (the same kernels on numpy).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/gblas2d-gpu}
BACKEND=${GBLAS2D_GPU_BACKEND:-cupy}
SCALE=${GBLAS2D_GPU_SCALE:-22}
BPT_SCALE=${GBLAS2D_GPU_BPT_SCALE:-16}
SITE=${GBLAS2D_GPU_SITE:-/tmp/gblas2d-site}
# seconds for the three steps: the backend's tests, the figures, the property tests
read -r T_TESTS T_BENCH T_PROPS <<<"${GBLAS2D_GPU_LIMITS:-90 330 120}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
# (a rehearsal uses this machine's packages: the wheels are the GPU machine's Python's)
if [ "$BACKEND" = cupy ] && [ -d "$ROOT/.whl" ] && ls "$ROOT"/.whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$SITE" \
        "$ROOT"/.whl/*.whl || exit 1
fi
# gblas2d as pip would lay it out (pyproject.toml's package-dir), without building a wheel
mkdir -p "$SITE" && rm -rf "$SITE/gblas2d" && cp -r "$ROOT/gblas2d" "$SITE/" &&
    cp -r "$ROOT/semirings" "$SITE/gblas2d/semirings" &&
    cp -r "$ROOT/algorithms" "$SITE/gblas2d/algorithms" || exit 1
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
# Run from elsewhere, so the installed gblas2d is imported, not the source folder.
cd /tmp || exit 1
{ nvidia-smi -L; python3 -c "import numpy, scipy; print('numpy', numpy.__version__, 'scipy', scipy.__version__)"
  python3 -c "import cupy; print('cupy', cupy.__version__)"; } 2>&1 | tee "$OUT/device.txt"
tests() {
    timeout "$1" python3 -m pytest "${@:2}" -q -x -p no:cacheprovider -W default \
        --rootdir "$ROOT" -c "$ROOT/pyproject.toml"
}
# 1. the array backend's own tests on the device (the algorithms and vector pieces on it); a
# step given 0 seconds is skipped, as is the rest of a run that failed to set up
[ "$T_TESTS" -gt 0 ] && tests "$T_TESTS" "$ROOT/tests/engine/test_array_backend.py" \
    "$ROOT/tests/engine/test_device_pieces.py" -k "$BACKEND or twin or counted or imported" \
    2>&1 | tee "$OUT/tests.log"
# 2. the figures
# (GBLAS2D_GPU_ARGS: more of bench_gpu.py's options, e.g. --only bfs --profile)
[ "$T_BENCH" -gt 0 ] && timeout "$T_BENCH" python3 "$ROOT/benchmarks/gpu/bench_gpu.py" \
    --backend "$BACKEND" --scale "$SCALE" --bpt-scale "$BPT_SCALE" --out "$OUT" \
    ${GBLAS2D_GPU_ARGS:-} 2>&1 | tee "$OUT/bench.log"
# 3. the engine's property tests against python-graphblas, on the device, in the time left
[ "$T_PROPS" -gt 0 ] && tests "$T_PROPS" "$ROOT/tests/engine/test_properties.py" -k "$BACKEND" 2>&1 | tee "$OUT/properties.log"
