# The layers of rooflab, lowest first, and what each one may see: the one place the direction of the
# pipeline is written down. The build links each layer's library to the layers it names, and
# cmake/check_layers.cmake fails the build when a file includes a header of a layer its own does not
# see (directly or through the layers it names). docs/architecture.md draws the same table.
#
# A layer's folder: analyzer/<layer>/ for the pipeline, mutators/ for the mutants, reports/<part>/
# for the renderers (reports_<part>) and reports/ itself for the report writer.
set(ROOFLAB_LAYERS
  support stats data json config verify manifest roofline device ceilings plan counters mutators run
  place diagnose workcount batch tune capture reports_text reports_chart reports_html reports cli)

set(ROOFLAB_LAYER_DEPS_support "")
set(ROOFLAB_LAYER_DEPS_stats support)
set(ROOFLAB_LAYER_DEPS_data stats support)
set(ROOFLAB_LAYER_DEPS_json data)
set(ROOFLAB_LAYER_DEPS_config data)
set(ROOFLAB_LAYER_DEPS_manifest config verify)
set(ROOFLAB_LAYER_DEPS_roofline data)
set(ROOFLAB_LAYER_DEPS_device data)
set(ROOFLAB_LAYER_DEPS_ceilings device roofline)
set(ROOFLAB_LAYER_DEPS_verify data)
set(ROOFLAB_LAYER_DEPS_plan manifest roofline)
set(ROOFLAB_LAYER_DEPS_counters device data)
set(ROOFLAB_LAYER_DEPS_mutators data)
set(ROOFLAB_LAYER_DEPS_run plan mutators counters verify device)
set(ROOFLAB_LAYER_DEPS_place roofline)
set(ROOFLAB_LAYER_DEPS_diagnose place roofline data)
set(ROOFLAB_LAYER_DEPS_workcount data)
set(ROOFLAB_LAYER_DEPS_batch run ceilings place diagnose json config)
set(ROOFLAB_LAYER_DEPS_reports_text json data)
set(ROOFLAB_LAYER_DEPS_reports_chart reports_text)
set(ROOFLAB_LAYER_DEPS_reports_html reports_chart)
set(ROOFLAB_LAYER_DEPS_reports reports_html json)
set(ROOFLAB_LAYER_DEPS_tune batch)
set(ROOFLAB_LAYER_DEPS_capture json manifest)
set(ROOFLAB_LAYER_DEPS_cli batch tune capture reports workcount)

# The folder (relative to the source tree) whose files make up `layer`.
function(rooflab_layer_dir layer out)
  if(layer STREQUAL "mutators")
    set(${out} "mutators" PARENT_SCOPE)
  elseif(layer STREQUAL "reports")
    set(${out} "reports" PARENT_SCOPE)
  elseif(layer MATCHES "^reports_(.*)$")
    set(${out} "reports/${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} "analyzer/${layer}" PARENT_SCOPE)
  endif()
endfunction()

# Every layer `layer` sees: itself and, transitively, those it names.
function(rooflab_layer_closure layer out)
  set(seen ${layer})
  set(queue ${ROOFLAB_LAYER_DEPS_${layer}})
  while(queue)
    list(POP_FRONT queue next)
    if(NOT next IN_LIST seen)
      list(APPEND seen ${next})
      list(APPEND queue ${ROOFLAB_LAYER_DEPS_${next}})
    endif()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()
