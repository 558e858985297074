// `rooflab capture [--out DIR] [--mechanism layer|preload] -- PROGRAM ARGS...` (docs/capture.md).
#include <cstdio>
#include <iostream>

#include "analyzer/capture/capture_folder.hpp"
#include "analyzer/capture/capture_run.hpp"
#include "analyzer/capture/replay_config.hpp"
#include "analyzer/cli/capture_work.hpp"
#include "analyzer/cli/commands.hpp"
#include "analyzer/json/capture_log_json.hpp"
#include "analyzer/support/errors.hpp"
#include "reports/text/capture_text.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

CaptureMechanism mechanismFrom(const std::string& name) {
  if (name == "layer") return CaptureMechanism::layer;
  if (name == "preload") return CaptureMechanism::preload;
  throw InputError("capture: --mechanism '" + name + "': expected layer or preload");
}

}  // namespace

int captureCommand(const CaptureCommand& cmd) {
  if (cmd.command.empty())
    throw InputError("capture: no program to run: rooflab capture [--out DIR] -- PROGRAM ARGS...");
  CaptureRunRequest request;
  request.mechanism = mechanismFrom(cmd.mechanism);
  request.command = cmd.command;
  findProgram(cmd.command.front());  // before the folder is made: a typo leaves nothing behind
  request.library = captureLibraryPath();
  if (!fs::exists(request.library))
    throw IoError("the capture library " + request.library.string() +
                  " is missing beside rooflab (build target rooflab_capture_library)");
  request.folder = prepareCaptureFolder(cmd.out);

  CaptureSeal seal;
  seal.process = runUnderCapture(request);
  const bool reached_exit = captureLogHasExit(request.folder);
  seal.incomplete_reason = reports::incompleteReason(seal.process, reached_exit);
  seal.complete = seal.incomplete_reason.empty();
  writeCaptureSeal(request.folder, seal);

  std::cout << "rooflab capture: " << reports::programEndText(seal.process) << "\n";
  const CaptureReading reading = readCaptureFolder(request.folder, CaptureAcceptance::incomplete_too);
  if (reading.log.calls_seen == 0 && reading.log.commands.empty() && reading.log.programs.empty()) {
    std::fprintf(stderr, "rooflab: capture: %s", reports::noOpenClCallText(seal.process).c_str());
    return static_cast<int>(ExitCode::variant_failed);
  }
  const ReplayGeneration replay = generateReplay(reading.log, request.folder);
  if (!replay.config.empty())
    countCapturedWork(replay.config, replay.families, [](const FamilyWorkCount& count) {
      std::cout << reports::familyWorkCountText(count);
      std::cout.flush();
    });
  // The folder as the user named it, so that the printed command can be pasted.
  std::cout << reports::captureSummaryText(reading, cmd.out,
                                           replay.config.empty() ? fs::path() : fs::path(cmd.out) / "capture.toml",
                                           replay.families.size(), replay.skipped);
  std::cout.flush();
  if (!seal.complete) {
    std::fprintf(stderr, "rooflab: capture: %s; the capture is incomplete\n", seal.incomplete_reason.c_str());
    return static_cast<int>(ExitCode::variant_failed);
  }
  return 0;
}

}  // namespace rooflab
