#pragma once
// Program identity for the comparison core (private to reports/): aligns two
// program trees so that nodes match by their place in the program, not by id.
//
// Siblings are aligned like lines in a text diff: first by their whole subtree
// (kind, name and everything below), then, between those anchors, by their own
// label (kind and name). Matched pairs are aligned recursively. The result is
// the merged tree in pre-order (program order), each node with an identity
// path: the labels from the root, "#k" marking the k-th sibling of one label.
#include "reports/ReportTypes.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tessera::reports::detail {

inline constexpr std::size_t kUnmatched = std::numeric_limits<std::size_t>::max();

// Aligns two sequences by key, keeping order: the longest common subsequence
// (trimmed of a common prefix and suffix first; beyond a size limit, matching
// the k-th occurrence of a key with the k-th, then keeping the longest
// in-order subset). Returns the matched index pairs, ascending on both sides.
std::vector<std::pair<std::size_t, std::size_t>>
matchSequences(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

struct AlignedNode {
    ProgramNodeId baseline = ProgramNodeId::none(); // node id on each side, none where absent
    ProgramNodeId comparison = ProgramNodeId::none();
    std::string identity;
};

// The label of a node: "Kind:name", the name being the step's for an unnamed
// step node (an Execute is named after its compute set), or "Kind" alone.
std::string nodeLabel(const record::ProgramNodeRecord& node,
                      const std::vector<ProgramStepEntry>& steps);

// The merged program tree in pre-order.
std::vector<AlignedNode>
alignPrograms(const std::vector<record::ProgramNodeRecord>& baselineNodes,
              const std::vector<ProgramStepEntry>& baselineSteps,
              const std::vector<record::ProgramNodeRecord>& comparisonNodes,
              const std::vector<ProgramStepEntry>& comparisonSteps);

} // namespace tessera::reports::detail
