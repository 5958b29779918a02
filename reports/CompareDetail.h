#pragma once
// Helpers shared by the files of the comparison core (private to reports/).
#include "reports/Compare.h"
#include "reports/Saturating.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace tessera::reports::detail {

using reports::addSat;
using reports::addSat64;
using reports::i64;
using reports::mulSat;

inline Delta delta(std::uint64_t baseline, std::uint64_t comparison) {
    return {i64(baseline), i64(comparison)};
}

inline Change changeOf(bool inBaseline, bool inComparison, bool same) {
    if (!inBaseline) {
        return Change::Added;
    }
    if (!inComparison) {
        return Change::Removed;
    }
    return same ? Change::Same : Change::Changed;
}

// "name", or "name#k" for the k-th (k ≥ 1) earlier entry of the same name.
template <class T, class Name>
std::vector<std::string> occurrenceKeys(const std::vector<T>& rows, Name name) {
    std::map<std::string, std::size_t> seen;
    std::vector<std::string> keys;
    keys.reserve(rows.size());
    for (const T& row : rows) {
        const std::string& n = name(row);
        const std::size_t k = seen[n]++;
        keys.push_back(k == 0 ? n : n + "#" + std::to_string(k));
    }
    return keys;
}

// Compute sets and variables, matched by name (CompareByName.cpp).
void compareComputeSets(const ReportData& b, const ReportData& c, ReportDiff& d);
void compareVariables(const ReportData& b, const ReportData& c, ReportDiff& d);

} // namespace tessera::reports::detail
