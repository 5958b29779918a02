# cmake -DTESSERA_SOURCE_DIR=<repo> -P CheckModuleSources.cmake
# Fails (non-zero exit) if a source file includes a header its module must not
# know about; see docs/ARCHITECTURE.md, "Dependency rules".
if(NOT TESSERA_SOURCE_DIR)
  message(FATAL_ERROR "set -DTESSERA_SOURCE_DIR=<repository root>")
endif()

set(_inc "^[ \t]*#[ \t]*include[ \t]*")
set(_qt "<(Q[A-Za-z]+|Qt[A-Za-z]+/[A-Za-z_.]+|q[a-z]+\\.h)>")
set(_sqlite "[<\"]sqlite3\\.h[>\"]")
set(_plot "[<\"]qcustomplot\\.h[>\"]")
set(_reports "[<\"]reports/")
set(_above_engine "[<\"](reports|views|app)/")
# Any engine/ header but engine/record/ (CMake regexes have no negative lookahead).
set(_engine_not_record
    "[<\"]engine/([^r]|r[^e]|re[^c]|rec[^o]|reco[^r]|recor[^d]|record[^/])")
# module (a folder, may contain '/') | pattern (may itself contain '|') | why
set(_rules
  "engine|${_inc}(${_qt}|${_sqlite}|${_plot})|the engine knows no Qt and no SQLite"
  "engine|${_inc}${_above_engine}|engine/ sits below reports/, views/ and app/: it includes none of their headers"
  "reports|${_inc}${_engine_not_record}|reports/ knows only the record types of the engine (engine/record/)"
  "reports|${_inc}(${_qt}|${_plot})|reports/ knows no Qt"
  "views|(${_inc}(${_sqlite}|<QSql[A-Za-z]*>|<QtSql/))|(sqlite3_[a-z_]+[ \t]*\\()|views/ use reports/' API, never SQL"
  "app/sdk|${_inc}(${_qt}|${_plot})|the Poplar-compatible SDK knows no Qt"
)

set(_violations 0)
foreach(rule IN LISTS _rules)
  string(REPLACE "|" ";" parts "${rule}")
  # The regex itself may contain '|', so the module is the first field and the
  # reason the last; everything between is the pattern.
  list(GET parts 0 module)
  list(POP_BACK parts why)
  list(REMOVE_AT parts 0)
  list(JOIN parts "|" pattern)
  file(GLOB_RECURSE files "${TESSERA_SOURCE_DIR}/${module}/*.h" "${TESSERA_SOURCE_DIR}/${module}/*.hpp"
       "${TESSERA_SOURCE_DIR}/${module}/*.cpp" "${TESSERA_SOURCE_DIR}/${module}/*.cc"
       "${TESSERA_SOURCE_DIR}/${module}/*.inl")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" hits REGEX "${pattern}")
    foreach(hit IN LISTS hits)
      file(RELATIVE_PATH rel "${TESSERA_SOURCE_DIR}" "${file}")
      string(STRIP "${hit}" hit)
      message(SEND_ERROR "module rule broken: ${rel}: '${hit}' (${why})")
      math(EXPR _violations "${_violations} + 1")
    endforeach()
  endforeach()
  list(LENGTH files count)
  message(STATUS "${module}/: ${count} source files checked (${why})")
endforeach()

if(_violations GREATER 0)
  message(FATAL_ERROR "${_violations} module rule violation(s)")
endif()
message(STATUS "module rules hold")
