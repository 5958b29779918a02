#pragma once
// Consecutive vertices of one tile's list in a step that run as one
// compute() call, where their codelet can join them (CodeletInfo::join):
// the host makes one call where the IPU's workers made several. Outputs keep
// their bits, and the plan (records, cycles, step grouping) is untouched.
#include <cstddef>
#include <vector>

namespace tessera::runtime {

struct Instance; // PreparedEngine.h

// Joins each instance into the one before it where their codelet allows and
// drops it from the list (its object stays owned by the engine). Returns how
// many were joined.
std::size_t joinConsecutive(std::vector<Instance>& list);

enum class JoinVertices { Auto, Never };
// For tests and benchmarks (the results are the same bytes either way);
// applies to engines prepared afterwards.
void setJoinVertices(JoinVertices mode);
JoinVertices joinVertices();

} // namespace tessera::runtime
