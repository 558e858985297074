/* One launch of c = a + b over N floats in work-groups of 64, of which only the first GROUPS run (a
 * global size of GROUPS * 64): what the work-count tests run under oclgrind. Usage: N GROUPS. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cstdio>
#include <cstdlib>

static const char* kSource =
    "__kernel void vecadd(__global const float* a, __global const float* b, __global float* c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const size_t n = strtoull(argv[1], NULL, 10), groups = strtoull(argv[2], NULL, 10), local = 64;
  float* host = static_cast<float*>(calloc(n, sizeof(float)));
  cl_platform_id platform;
  cl_device_id device;
  cl_int status = clGetPlatformIDs(1, &platform, NULL);
  status |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &status);
  status |= clBuildProgram(program, 1, &device, "", NULL, NULL);
  cl_kernel kernel = clCreateKernel(program, "vecadd", &status);
  cl_mem buffers[3];
  for (int i = 0; i < 3; ++i) {
    buffers[i] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host, &status);
    status |= clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &buffers[i]);
  }
  const size_t global = groups * local;
  status |= clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  status |= clFinish(queue);
  free(host);
  if (status != CL_SUCCESS) fprintf(stderr, "vecadd: an OpenCL call failed\n");
  return status == CL_SUCCESS ? 0 : 1;
}
