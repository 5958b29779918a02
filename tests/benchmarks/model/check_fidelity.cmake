# Runs `tessera-bench --only model --quick` and checks each figure's ratio
# (model / published) against the bound in docs/model-fidelity.md's table, so
# a change to the model that breaks fidelity fails. Every bounded row must be
# measured, and every figure measured must have a row (the unbounded
# utilisation rows are named `.whole_matmul` / `.utilisation` and only shown).
#
#   cmake -DBENCH=<tessera-bench> -DDOC=<docs/model-fidelity.md> -P check_fidelity.cmake
cmake_minimum_required(VERSION 3.25) # IN_LIST, string(JSON)
foreach(var BENCH DOC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_fidelity.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${BENCH} --only model --quick
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "tessera-bench --only model --quick failed (${result}):\n${errors}")
endif()

# Bounds: rows "| `model.name` | ... | [lo, hi] |" of the doc's table.
file(STRINGS ${DOC} rows ENCODING UTF-8 REGEX "^\\| `model\\.[a-z0-9_.]+` \\|")
set(bounded "")
foreach(row IN LISTS rows)
  string(REGEX MATCH "^\\| `(model\\.[a-z0-9_.]+)` \\|" _ "${row}")
  set(name ${CMAKE_MATCH_1})
  if(NOT row MATCHES "\\| \\[([0-9.]+), ([0-9.]+)\\] \\|$")
    message(FATAL_ERROR "${DOC}: the row of ${name} ends without a bound [lo, hi]: ${row}")
  endif()
  set(lo_${name} ${CMAKE_MATCH_1})
  set(hi_${name} ${CMAKE_MATCH_2})
  list(APPEND bounded ${name})
endforeach()
list(LENGTH bounded count)
if(count EQUAL 0)
  message(FATAL_ERROR "${DOC} has no bounded rows")
endif()

string(REPLACE "\n" ";" lines "${output}")
set(measured "")
set(failures "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^{")
    continue()
  endif()
  string(JSON name GET "${line}" name)
  string(JSON ratio GET "${line}" ratio)
  if(name MATCHES "\\.(whole_matmul|utilisation)$")
    continue()
  endif()
  list(APPEND measured ${name})
  if(NOT DEFINED lo_${name})
    string(APPEND failures "  ${name}: measured (ratio ${ratio}) but has no bounded row in ${DOC}\n")
  elseif(ratio LESS lo_${name} OR ratio GREATER hi_${name})
    string(APPEND failures
           "  ${name}: ratio ${ratio} outside [${lo_${name}}, ${hi_${name}}]\n")
  else()
    message(STATUS "${name}: ratio ${ratio} within [${lo_${name}}, ${hi_${name}}]")
  endif()
endforeach()
foreach(name IN LISTS bounded)
  if(NOT name IN_LIST measured)
    string(APPEND failures "  ${name}: bounded in ${DOC} but not measured\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "model fidelity:\n${failures}")
endif()
