#include "analyzer/data/results_document.hpp"

namespace rooflab {

std::string toString(BatchStatus status) {
  switch (status) {
    case BatchStatus::running: return "running";
    case BatchStatus::complete: return "complete";
    case BatchStatus::interrupted: return "interrupted";
    case BatchStatus::timed_out: return "timed_out";
  }
  return "running";
}

std::optional<BatchStatus> parseBatchStatus(std::string_view text) {
  for (BatchStatus status : {BatchStatus::running, BatchStatus::complete, BatchStatus::interrupted, BatchStatus::timed_out})
    if (text == toString(status)) return status;
  return std::nullopt;
}

std::string toString(RooflineModelRole role) {
  switch (role) {
    case RooflineModelRole::reference: return "reference";
    case RooflineModelRole::measured: return "measured";
    case RooflineModelRole::datasheet: return "datasheet";
  }
  return "reference";
}

std::optional<RooflineModelRole> parseRooflineModelRole(std::string_view text) {
  for (RooflineModelRole role : {RooflineModelRole::reference, RooflineModelRole::measured, RooflineModelRole::datasheet})
    if (text == toString(role)) return role;
  return std::nullopt;
}

}  // namespace rooflab
