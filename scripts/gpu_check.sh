#!/usr/bin/env bash
# The one-command GPU check (`make gpu-check`): every framework test marked `gpu`, then the
# ResNet-18 batch-128 training-step benchmark on the GPU against PyTorch CUDA when available.
#
#   bash scripts/gpu_check.sh            # REPEATS=10 by default
#   GPU_CHECK_STRICT=1 bash scripts/gpu_check.sh   # also fail when ours/torch > 2.0
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
REPEATS=${REPEATS:-10}

if ! "$PY" -c "import sys, framework; sys.exit(0 if framework.is_compiled_with_cuda() else 1)"; then
  echo "gpu-check: no usable CUDA GPU (is the 'gpu' extra, cupy-cuda12x, installed?)" >&2
  exit 2
fi

echo "== pytest -m gpu tests/framework_tests"
"$PY" -m pytest -p no:django -q -m gpu tests/framework_tests

echo "== benchmarks/train_step.py --device gpu --models resnet18 --batch-size 128"
report=$("$PY" benchmarks/train_step.py --device gpu --models resnet18 --batch-size 128 \
  --repeats "$REPEATS" --warmup 3 --frameworks ours,torch)
echo "$report"

"$PY" - "$report" <<'PYCODE'
import json, os, sys

row = json.loads(sys.argv[1])["models"]["resnet18"]
ours, torch = row.get("ours", {}), row.get("torch", {})
if "median_ms" not in ours:
    sys.exit(f"gpu-check: our GPU benchmark failed: {ours.get('error')}")
if "time_ours_over_torch" not in row:
    print(f"ResNet-18 b128 GPU: ours {ours['median_ms']} ms; PyTorch CUDA unavailable "
          f"({torch.get('error', 'not installed')})")
    sys.exit(0)
ratio = row["time_ours_over_torch"]
verdict = "PASS" if ratio <= 2.0 else "FAIL"
print(f"ResNet-18 b128 GPU: ours {ours['median_ms']} ms, PyTorch {torch['median_ms']} ms, "
      f"ours/torch = {ratio} (target <= 2.0): {verdict}")
if verdict == "FAIL" and os.environ.get("GPU_CHECK_STRICT") == "1":
    sys.exit(1)
PYCODE
