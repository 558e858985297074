#pragma once
// The worker process: `rooflab __worker` (started by the batch, analyzer/batch/point_worker.cpp) reads its
// setup on `commands_fd`, rebuilds the batch's plan, opens the device once and then runs the points
// it is asked for, one "run <index>" line at a time, answering on `messages_fd`. A kernel that
// crashes takes this process down, never the batch.
namespace rooflab {

// The worker's exit status: 0 when the batch closed its commands, 1 when its OpenCL context broke,
// 3 when it could not open the device.
int runPointWorker(int commands_fd, int messages_fd);

}  // namespace rooflab
