#include "engine/runtime/JoinedVertices.h"

#include "engine/runtime/PreparedEngine.h"

#include <atomic>

namespace tessera::runtime {

namespace {

std::atomic<JoinVertices> joinMode{JoinVertices::Auto};

} // namespace

void setJoinVertices(JoinVertices mode) {
    joinMode.store(mode);
}

JoinVertices joinVertices() {
    return joinMode.load();
}

std::size_t joinConsecutive(std::vector<Instance>& list) {
    if (joinVertices() == JoinVertices::Never) {
        return 0;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Instance& next = list[i];
        if (kept > 0) {
            const Instance& into = list[kept - 1];
            if (into.codelet == next.codelet && next.codelet->join &&
                next.codelet->join(into.object, next.object)) {
                continue;
            }
        }
        list[kept++] = next;
    }
    const std::size_t joined = list.size() - kept;
    list.resize(kept);
    return joined;
}

} // namespace tessera::runtime
