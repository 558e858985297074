#pragma once
// A program run unchanged under the capture library (docs/capture.md): the library comes in as an
// OpenCL loader layer or preloaded in front of libOpenCL, and writes into the capture folder.
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/capture.hpp"

namespace rooflab {

enum class CaptureMechanism { layer, preload };
std::string toString(CaptureMechanism mechanism);  // "layer" | "preload"

struct CaptureRunRequest {
  std::vector<std::string> command;  // the program and its arguments
  std::filesystem::path folder;      // the capture folder, already made
  std::filesystem::path library;     // librooflab_capture.so
  CaptureMechanism mechanism = CaptureMechanism::layer;
};

// The program's path as exec will find it: `command[0]` itself when it names a folder, else the
// first executable of that name on PATH. Throws InputError when there is none or it is not
// executable. Call before making the folder, so that nothing is left behind.
std::filesystem::path findProgram(const std::string& program);

// Runs the program with stdin, stdout and stderr passed through, and waits for it; Ctrl-C reaches
// the program, and rooflab stays to seal what was captured. Throws IoError when it cannot start.
CapturedProcess runUnderCapture(const CaptureRunRequest& request);

// The capture library beside the running rooflab binary.
std::filesystem::path captureLibraryPath();

}  // namespace rooflab
