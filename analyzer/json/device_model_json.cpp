// The JSON edge of a device model: the results file's "models" entries.
#include <map>
#include <string>
#include <vector>

#include "analyzer/data/device_model_fields.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {

using namespace device_model_fields;

nlohmann::json toJson(const DeviceModel& model) {
  nlohmann::json json;
  json["key"] = model.key;
  json["display_name"] = model.display_name;
  for (const NumberField& field : kNumberFields) {
    std::visit(
        [&](auto member) {
          using Member = decltype(member);
          if constexpr (std::is_same_v<Member, RequiredReal>) {
            json[field.name] = model.*member;
          } else if (model.*member) {
            json[field.name] = *(model.*member);
          } else if (field.null_when_absent) {
            json[field.name] = nullptr;
          }
        },
        field.member);
  }
  json["sources"] = model.sources;
  json["match"] = model.match_names;
  json["match_exclude"] = model.match_exclude;
  json["measured"] = model.measured ? nlohmann::json{{"at", model.measured->at},
                                                     {"device", model.measured->device},
                                                     {"driver", model.measured->driver}}
                                    : nlohmann::json(nullptr);
  json["notes"] = model.notes.empty() ? nlohmann::json(nullptr) : nlohmann::json(model.notes);
  return json;
}

DeviceModel deviceModelFromJson(const nlohmann::json& json) {
  try {
    DeviceModel model;
    model.key = json.at("key").get<std::string>();
    model.display_name = json.value("display_name", model.key);
    for (const NumberField& field : kNumberFields) {
      const auto it = json.find(field.name);
      const bool present = it != json.end() && !it->is_null();
      std::visit(
          [&](auto member) {
            using Member = decltype(member);
            if constexpr (std::is_same_v<Member, RequiredReal>) {
              model.*member = json.at(field.name).get<double>();
            } else if (present) {
              model.*member = it->get<typename MemberValue<Member>::type::value_type>();
            }
          },
          field.member);
    }
    if (json.contains("sources")) model.sources = json["sources"].get<std::map<std::string, std::string>>();
    if (json.contains("match")) model.match_names = json["match"].get<std::vector<std::string>>();
    if (json.contains("match_exclude")) model.match_exclude = json["match_exclude"].get<std::vector<std::string>>();
    if (json.contains("measured") && !json["measured"].is_null()) {
      const auto& stamp = json["measured"];
      model.measured = MeasurementStamp{stamp.value("at", ""), stamp.value("device", ""), stamp.value("driver", "")};
    }
    if (json.contains("notes") && json["notes"].is_string()) model.notes = json["notes"].get<std::string>();
    return model;
  } catch (const nlohmann::json::exception& error) {
    throw InputError(std::string("device model in results JSON: ") + error.what());
  }
}

}  // namespace rooflab
