# Enforces the module boundaries of docs/ARCHITECTURE.md at configure time:
# engine links neither Qt nor SQLite (nor reports/); reports links no Qt; the
# Poplar-compatible SDK (app/sdk) links no Qt. The same rules on #include
# lines (tests/rules/CheckModuleSources.cmake: engine/ includes nothing of
# reports/, views/ or app/, ...) run here too, and again as the test
# `module_rules`, so a broken boundary stops the configure, not only a test.
function(_tessera_forbid target pattern why)
  if(NOT TARGET ${target})
    return()
  endif()
  get_target_property(libs ${target} LINK_LIBRARIES)
  if(NOT libs)
    return()
  endif()
  foreach(lib IN LISTS libs)
    if(lib MATCHES "${pattern}")
      message(FATAL_ERROR "Module rule broken: ${target} links ${lib} (${why})")
    endif()
    # Follow links to our own libraries so an indirect dependency is caught too.
    if(TARGET ${lib} AND lib MATCHES "^tessera_")
      _tessera_forbid(${lib} "${pattern}" "${why}")
    endif()
  endforeach()
endfunction()

function(tessera_check_module_rules)
  execute_process(COMMAND ${CMAKE_COMMAND} -DTESSERA_SOURCE_DIR=${PROJECT_SOURCE_DIR}
                          -P ${PROJECT_SOURCE_DIR}/tests/rules/CheckModuleSources.cmake
                  RESULT_VARIABLE sources_rc OUTPUT_QUIET ERROR_VARIABLE sources_errors)
  if(NOT sources_rc EQUAL 0)
    message(FATAL_ERROR "Module rules broken in the sources:\n${sources_errors}")
  endif()
  _tessera_forbid(tessera_engine "Qt|qt|SQLite|sqlite|QCustomPlot|tessera_reports"
                  "the engine is Qt-free and SQL-free and sits below reports/")
  _tessera_forbid(tessera_reports "Qt|qt|QCustomPlot" "reports/ is Qt-free")
  _tessera_forbid(tessera_reports "^tessera_engine$"
                  "reports/ depends on the record types (tessera_record) only")
  _tessera_forbid(tessera_record "^tessera_|Qt|qt|SQLite|sqlite"
                  "the record types depend on nothing of ours")
  # The Poplar-compatible SDK (app/sdk) sits above reports/ (it links it, and so
  # SQLite: POPLAR_ENGINE_OPTIONS autoReport makes a Poplar program write its
  # report itself) and, like tessera-cli, is Qt-free.
  foreach(lib IN ITEMS poplar popops poplin poputil popnn popc pva pva_python)
    _tessera_forbid(${lib} "Qt|qt|QCustomPlot" "the Poplar-compatible libraries are Qt-free")
  endforeach()
endfunction()
