# Project-wide warning flags, applied per target so third-party code is untouched.
function(tessera_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wnull-dereference -Wimplicit-fallthrough)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports false -Wrestrict positives inside std::string concatenation at -O3 (GCC PR 105329).
    target_compile_options(${target} PRIVATE -Wno-restrict)
    if(TESSERA_UNITY_BUILD)
      # A unity build includes each .cpp from another file, so GCC takes a
      # class with a member of a file-local type for one defined in a header.
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
    if(TESSERA_SANITIZE)
      # The sanitizers' instrumentation makes GCC 12 report uninitialised
      # members inside std::regex and std::function that are set.
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
  endif()
  if(TESSERA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
