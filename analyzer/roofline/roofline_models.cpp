#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

ResultsModels resultsModels(const RooflineModels& models) {
  ResultsModels out;
  out.roofline_models[models.reference.key] = {models.reference, RooflineModelRole::reference};
  if (models.device)
    out.roofline_models["device"] = {*models.device, models.ceilings && models.ceilings->model
                                                         ? RooflineModelRole::measured
                                                         : RooflineModelRole::datasheet};
  if (models.datasheet) out.roofline_models["datasheet"] = {*models.datasheet, RooflineModelRole::datasheet};
  out.ceilings = models.ceilings;
  return out;
}

}  // namespace rooflab
