#pragma once
// Codelet files for Graph::addCodelets: C++ sources compiled at run time (the
// shared object cached by content) and files precompiled by `popc` (.gp).
#include "engine/codelets/Codelet.h"

#include <string>
#include <vector>

namespace poplar::detail {

// Compiles (or finds in the cache) and loads a codelet file; the codelets it
// defines, ready for Graph::addCodelet. Throws graph_object_load_error.
// `sharedObject`, when given, receives the path of the loaded shared object.
std::vector<tessera::CodeletInfo> loadCodeletFile(const std::string& path,
                                                  const std::string& extraFlags,
                                                  std::string* sharedObject = nullptr);
// Loads a codelet shared object (from the cache) directly.
std::vector<tessera::CodeletInfo> loadCodeletObject(const std::string& sharedObject);

// Loads the bytes of a codelet shared object (one embedded in a saved
// executable), placed in the cache under its content's hash.
std::vector<tessera::CodeletInfo> loadEmbeddedCodeletObject(const std::string& bytes,
                                                            std::string* sharedObject);

// Saves a codelet source given as text (addCodelets(stream)) in the user's
// codelet cache under its content's hash, written privately and renamed into
// place (no predictable path in a shared /tmp); returns its path.
std::string saveCodeletSource(const std::string& text);

// Compiles a codelet source into a .gp file (what `popc` does).
void compileCodeletFile(const std::string& source, const std::string& output,
                        const std::string& extraFlags);

// The default cycle estimate of a user codelet without setPerfEstimate or a
// registered estimator: 20 + one thread cycle per element of every edge.
tessera::PerfEstimate defaultCodeletEstimate(const tessera::VertexIntrospector& v,
                                             const std::vector<tessera::FieldInfo>& fields);

// "Foo< float >" -> "Foo<float>": vertex names compare without spaces.
std::string normaliseVertexName(const std::string& name);
// The same name: `name` itself when it has no whitespace (as nearly every
// addVertex spells it, so no string is made), else normalised into scratch.
const std::string& normalisedVertexName(const std::string& name, std::string& scratch);

} // namespace poplar::detail
