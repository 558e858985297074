"""SGEMM without TF32 through torch (cuBLAS underneath), at N = 4096 by default, timed with CUDA events
(median of 20 after 5 warm-ups): the vendor rate that `rooflab tune`'s matmul rung is compared with in
the same script run (bench/checks-h100.sh, step tune). Prints JSON; {"available": false, "reason": ...}
when torch or CUDA is missing."""
import json
import statistics
import sys

try:
    import torch
except Exception as e:  # noqa: BLE001 - any import failure means no baseline
    print(json.dumps({"available": False, "reason": f"import torch: {e}"}))
    raise SystemExit(0)

if not torch.cuda.is_available():
    print(json.dumps({"available": False, "reason": "torch.cuda.is_available() is False"}))
    raise SystemExit(0)

# FP32 on the CUDA cores, as rooflab's OpenCL kernels compute: no TF32 tensor-core path.
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
a = torch.rand(n, n, device="cuda", dtype=torch.float32)
b = torch.rand(n, n, device="cuda", dtype=torch.float32)
c = torch.empty(n, n, device="cuda", dtype=torch.float32)
for _ in range(5):
    torch.matmul(a, b, out=c)
times = []
for _ in range(20):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.matmul(a, b, out=c)
    stop.record()
    stop.synchronize()
    times.append(start.elapsed_time(stop))
ms = statistics.median(times)
print(json.dumps({"available": True, "torch": torch.__version__, "device": torch.cuda.get_device_name(0), "N": n,
                  "allow_tf32": torch.backends.cuda.matmul.allow_tf32, "median_ms": ms,
                  "gflops": 2.0 * n ** 3 / ms / 1e6}, indent=2))
