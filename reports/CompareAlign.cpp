#include "reports/CompareAlign.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

namespace tessera::reports::detail {

namespace {

// Beyond this many cells the quadratic LCS gives way to occurrence matching.
constexpr std::size_t kLcsCells = std::size_t{1} << 22;
// Identity paths longer than this keep only their tail (pathological trees).
constexpr std::size_t kMaxIdentity = 2048;

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

std::uint64_t mix(std::uint64_t x) { // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

std::uint64_t hashText(const std::string& text) { // FNV-1a
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char ch : text) {
        h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull;
    }
    return h;
}

// Longest common subsequence by dynamic programming over a[a0, a1) × b[b0, b1).
void lcs(const std::vector<std::uint64_t>& a, std::size_t a0, std::size_t a1,
         const std::vector<std::uint64_t>& b, std::size_t b0, std::size_t b1, Pairs& out) {
    const std::size_t n = a1 - a0, m = b1 - b0;
    std::vector<std::uint32_t> len((n + 1) * (m + 1), 0); // len[i][j]: LCS of the suffixes
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return len[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = m; j-- > 0;) {
            at(i, j) = a[a0 + i] == b[b0 + j] ? at(i + 1, j + 1) + 1
                                              : std::max(at(i + 1, j), at(i, j + 1));
        }
    }
    std::size_t i = 0, j = 0;
    while (i < n && j < m) {
        if (a[a0 + i] == b[b0 + j]) {
            out.emplace_back(a0 + i, b0 + j);
            ++i;
            ++j;
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            ++i;
        } else {
            ++j;
        }
    }
}

// For long sequences: the k-th occurrence of a key matches the k-th, then the
// longest subset increasing on both sides is kept (patience-style).
void occurrences(const std::vector<std::uint64_t>& a, std::size_t a0, std::size_t a1,
                 const std::vector<std::uint64_t>& b, std::size_t b0, std::size_t b1, Pairs& out) {
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> inB;
    for (std::size_t j = b0; j < b1; ++j) {
        inB[b[j]].push_back(j);
    }
    std::unordered_map<std::uint64_t, std::size_t> seen;
    Pairs candidates;
    for (std::size_t i = a0; i < a1; ++i) {
        const auto it = inB.find(a[i]);
        if (it == inB.end()) {
            continue;
        }
        const std::size_t k = seen[a[i]]++;
        if (k < it->second.size()) {
            candidates.emplace_back(i, it->second[k]);
        }
    }
    // Longest strictly increasing subsequence of the b indices.
    std::vector<std::size_t> tails; // candidate index ending each length
    std::vector<std::size_t> previous(candidates.size(), kUnmatched);
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        const auto pos = std::lower_bound(
            tails.begin(), tails.end(), candidates[c].second,
            [&](std::size_t t, std::size_t value) { return candidates[t].second < value; });
        if (pos != tails.begin()) {
            previous[c] = *(pos - 1);
        }
        if (pos == tails.end()) {
            tails.push_back(c);
        } else {
            *pos = c;
        }
    }
    Pairs kept;
    for (std::size_t c = tails.empty() ? kUnmatched : tails.back(); c != kUnmatched;
         c = previous[c]) {
        kept.push_back(candidates[c]);
    }
    out.insert(out.end(), kept.rbegin(), kept.rend());
}

void matchRange(const std::vector<std::uint64_t>& a, std::size_t a0, std::size_t a1,
                const std::vector<std::uint64_t>& b, std::size_t b0, std::size_t b1, Pairs& out) {
    while (a0 < a1 && b0 < b1 && a[a0] == b[b0]) {
        out.emplace_back(a0++, b0++);
    }
    Pairs tail;
    while (a1 > a0 && b1 > b0 && a[a1 - 1] == b[b1 - 1]) {
        tail.emplace_back(--a1, --b1);
    }
    const std::size_t n = a1 - a0, m = b1 - b0;
    if (n > 0 && m > 0) {
        if (n * m <= kLcsCells) {
            lcs(a, a0, a1, b, b0, b1, out);
        } else {
            occurrences(a, a0, a1, b, b0, b1, out);
        }
    }
    out.insert(out.end(), tail.rbegin(), tail.rend());
}

// One side's program tree, indexed by position in the node list.
struct Tree {
    const std::vector<record::ProgramNodeRecord>* nodes = nullptr;
    std::vector<std::string> labels;
    std::vector<std::uint64_t> weak;   // the label alone
    std::vector<std::uint64_t> strong; // the label and the whole subtree
    std::vector<std::vector<std::size_t>> children;
    std::vector<std::size_t> roots;
};

Tree buildTree(const std::vector<record::ProgramNodeRecord>& nodes,
               const std::vector<ProgramStepEntry>& steps) {
    Tree t;
    t.nodes = &nodes;
    const std::size_t n = nodes.size();
    t.labels.resize(n);
    t.weak.resize(n);
    t.children.resize(n);
    std::unordered_map<ProgramNodeId, std::size_t> byId;
    for (std::size_t i = 0; i < n; ++i) {
        byId.emplace(nodes[i].id, i);
        t.labels[i] = nodeLabel(nodes[i], steps);
        t.weak[i] = hashText(t.labels[i]);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto parent = nodes[i].parent.isNone() ? byId.end() : byId.find(nodes[i].parent);
        if (parent == byId.end()) {
            t.roots.push_back(i);
        } else if (parent->second != i) {
            t.children[parent->second].push_back(i);
        }
    }
    std::stable_sort(t.roots.begin(), t.roots.end(), [&](std::size_t x, std::size_t y) {
        return nodes[x].programIndex < nodes[y].programIndex;
    });
    // Pre-order from the roots (iterative: trees can be deep), then subtree
    // signatures in reverse so children come before their parent. Nodes not
    // reachable from a root (a corrupt parent cycle) keep their label's hash.
    t.strong = t.weak;
    std::vector<std::size_t> order;
    std::vector<std::size_t> stack(t.roots.rbegin(), t.roots.rend());
    std::vector<bool> visited(n, false);
    while (!stack.empty()) {
        const std::size_t i = stack.back();
        stack.pop_back();
        if (visited[i]) {
            continue;
        }
        visited[i] = true;
        order.push_back(i);
        stack.insert(stack.end(), t.children[i].rbegin(), t.children[i].rend());
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        std::uint64_t h = mix(t.weak[*it]);
        for (const std::size_t c : t.children[*it]) {
            h = mix(h * 31 + t.strong[c]);
        }
        t.strong[*it] = h;
    }
    return t;
}

// Aligns two sibling lists: by whole subtree first, then by label between
// those anchors. Returns the merged list (kUnmatched where a side is absent):
// within a gap the baseline's unmatched nodes come before the comparison's.
Pairs alignSiblings(const Tree& tb, const std::vector<std::size_t>& b, const Tree& tc,
                    const std::vector<std::size_t>& c) {
    auto keys = [](const std::vector<std::uint64_t>& of, const std::vector<std::size_t>& list) {
        std::vector<std::uint64_t> out;
        out.reserve(list.size());
        for (const std::size_t i : list) {
            out.push_back(of[i]);
        }
        return out;
    };
    const auto bStrong = keys(tb.strong, b), cStrong = keys(tc.strong, c);
    const auto bWeak = keys(tb.weak, b), cWeak = keys(tc.weak, c);
    Pairs anchors;
    matchRange(bStrong, 0, b.size(), cStrong, 0, c.size(), anchors);
    anchors.emplace_back(b.size(), c.size()); // sentinel
    Pairs matches;
    std::size_t pb = 0, pc = 0;
    for (const auto& [ib, ic] : anchors) {
        matchRange(bWeak, pb, ib, cWeak, pc, ic, matches);
        if (ib < b.size()) {
            matches.emplace_back(ib, ic);
        }
        pb = ib + 1;
        pc = ic + 1;
    }
    Pairs merged;
    pb = 0;
    pc = 0;
    matches.emplace_back(b.size(), c.size());
    for (const auto& [ib, ic] : matches) {
        for (; pb < ib; ++pb) {
            merged.emplace_back(b[pb], kUnmatched);
        }
        for (; pc < ic; ++pc) {
            merged.emplace_back(kUnmatched, c[pc]);
        }
        if (ib < b.size()) {
            merged.emplace_back(b[ib], c[ic]);
            pb = ib + 1;
            pc = ic + 1;
        }
    }
    return merged;
}

} // namespace

std::vector<std::pair<std::size_t, std::size_t>>
matchSequences(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
    Pairs out;
    matchRange(a, 0, a.size(), b, 0, b.size(), out);
    return out;
}

std::string nodeLabel(const record::ProgramNodeRecord& node,
                      const std::vector<ProgramStepEntry>& steps) {
    std::string name = node.name;
    if (name.empty() && !node.step.isNone()) {
        // Steps are dense by id in a well-formed report; search otherwise.
        const std::uint32_t i = node.step.value();
        if (i < steps.size() && steps[i].id == node.step) {
            name = steps[i].name;
        } else {
            const auto it = std::find_if(steps.begin(), steps.end(),
                                         [&](const auto& s) { return s.id == node.step; });
            name = it == steps.end() ? std::string() : it->name;
        }
    }
    const std::string kind = record::programKindName(node.kind);
    return name.empty() ? kind : kind + ":" + name;
}

std::vector<AlignedNode>
alignPrograms(const std::vector<record::ProgramNodeRecord>& baselineNodes,
              const std::vector<ProgramStepEntry>& baselineSteps,
              const std::vector<record::ProgramNodeRecord>& comparisonNodes,
              const std::vector<ProgramStepEntry>& comparisonSteps) {
    const Tree tb = buildTree(baselineNodes, baselineSteps);
    const Tree tc = buildTree(comparisonNodes, comparisonSteps);

    struct Item {
        std::size_t b = kUnmatched;
        std::size_t c = kUnmatched;
        std::string identity;
    };
    std::vector<Item> stack;
    // Pushes a merged sibling list, reversed so the first pops first, each
    // with its identity: the parent's, then the label with "#k" for the k-th
    // sibling of the same label.
    auto push = [&](const Pairs& merged, const std::string& parent) {
        std::map<std::string, std::size_t> seen;
        std::vector<Item> items;
        items.reserve(merged.size());
        for (const auto& [b, c] : merged) {
            const std::string& label = b != kUnmatched ? tb.labels[b] : tc.labels[c];
            const std::size_t k = seen[label]++;
            std::string element = k == 0 ? label : label + "#" + std::to_string(k);
            std::string identity = parent.empty()                 ? std::move(element)
                                   : parent.size() > kMaxIdentity ? "... > " + element
                                                                  : parent + " > " + element;
            items.push_back({b, c, std::move(identity)});
        }
        stack.insert(stack.end(), std::make_move_iterator(items.rbegin()),
                     std::make_move_iterator(items.rend()));
    };
    auto unmatched = [](const std::vector<std::size_t>& list, bool baselineSide) {
        Pairs out;
        for (const std::size_t i : list) {
            out.push_back(baselineSide ? std::make_pair(i, kUnmatched)
                                       : std::make_pair(kUnmatched, i));
        }
        return out;
    };

    std::vector<AlignedNode> out;
    push(alignSiblings(tb, tb.roots, tc, tc.roots), "");
    std::vector<bool> seenB(baselineNodes.size(), false), seenC(comparisonNodes.size(), false);
    while (!stack.empty()) {
        Item item = std::move(stack.back());
        stack.pop_back();
        // A corrupt tree can reach a node twice; visit it once.
        if ((item.b != kUnmatched && seenB[item.b]) || (item.c != kUnmatched && seenC[item.c])) {
            continue;
        }
        AlignedNode node;
        node.identity = item.identity;
        if (item.b != kUnmatched) {
            seenB[item.b] = true;
            node.baseline = baselineNodes[item.b].id;
        }
        if (item.c != kUnmatched) {
            seenC[item.c] = true;
            node.comparison = comparisonNodes[item.c].id;
        }
        out.push_back(std::move(node));
        if (item.b != kUnmatched && item.c != kUnmatched) {
            push(alignSiblings(tb, tb.children[item.b], tc, tc.children[item.c]), item.identity);
        } else if (item.b != kUnmatched) {
            push(unmatched(tb.children[item.b], true), item.identity);
        } else {
            push(unmatched(tc.children[item.c], false), item.identity);
        }
    }
    return out;
}

} // namespace tessera::reports::detail
