#pragma once
// One-line JSON encodings: the messages between the batch and its worker process, and the lines of
// the results journal (docs/results-schema.md, "The journal"). Part of the JSON edge.
#include <cstddef>
#include <string>

#include "analyzer/data/results_document.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/data/worker_messages.hpp"

namespace rooflab {

std::string encodeWorkerSetup(const WorkerSetup& setup);
// Throws std::invalid_argument for a line that is not a setup.
WorkerSetup decodeWorkerSetup(const std::string& line);

std::string encodeWorkerMessage(const WorkerMessage& message);
// Throws std::invalid_argument for a line that is not a message.
WorkerMessage decodeWorkerMessage(const std::string& line);

// The journal's first line: {"document": {...the results document as it stands, "records": []}}, so
// that a journal read alone (analyzer/json/journal_file.hpp) renders as its run's results would.
std::string journalHeaderLine(const ResultsDocument& document);
// {"index": <record's index in results.json's records>, "record": {...}}: a later line with the same
// index replaces an earlier one (a normal record gains its mutation verdict once its mutants ran).
std::string journalLine(std::size_t index, const RunRecord& record, const RecordConclusions& conclusions);

}  // namespace rooflab
