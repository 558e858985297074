"""torch baselines for issues 8 and 17, in the same script as rooflab's rungs: torch.sum, a + b and a
device copy (c.copy_(a), counted as bytes read + written) on 2^26 and 2^28 float32 elements, timed with CUDA events (median of 20 after 3 warm-ups). Prints JSON; prints
{"available": false, "reason": ...} when torch or CUDA is missing."""
import json
import statistics

try:
    import torch
except Exception as e:  # noqa: BLE001 - any import failure means no baseline
    print(json.dumps({"available": False, "reason": f"import torch: {e}"}))
    raise SystemExit(0)

if not torch.cuda.is_available():
    print(json.dumps({"available": False, "reason": "torch.cuda.is_available() is False"}))
    raise SystemExit(0)


def median_ms(fn, warmup=3, reps=20):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


results = {"available": True, "torch": torch.__version__, "device": torch.cuda.get_device_name(0), "streams": []}
for log2 in (26, 28):
    n = 1 << log2
    a = torch.rand(n, device="cuda", dtype=torch.float32)
    b = torch.rand(n, device="cuda", dtype=torch.float32)
    c = torch.empty_like(a)
    sum_ms = median_ms(lambda: torch.sum(a))
    add_ms = median_ms(lambda: torch.add(a, b, out=c))
    copy_ms = median_ms(lambda: c.copy_(a))
    results["streams"].append({"N": n, "sum_ms": sum_ms, "sum_gbps": 4 * n / sum_ms / 1e6,
                               "add_ms": add_ms, "add_gbps": 12 * n / add_ms / 1e6,
                               "copy_ms": copy_ms, "copy_gbps": 8 * n / copy_ms / 1e6})
    del a, b, c
print(json.dumps(results, indent=2))
