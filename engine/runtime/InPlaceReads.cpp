#include "engine/runtime/InPlaceReads.h"

#include "engine/core/LargeArray.h"
#include "engine/runtime/ByteRanges.h"
#include "engine/runtime/StepEntries.h"

#include <algorithm>
#include <atomic>
#include <numeric>

namespace tessera::runtime {

namespace {

std::atomic<ReadInPlace> readInPlaceMode{ReadInPlace::Auto};

// Bytes [begin, end) of a block.
struct Span {
    compiler::BlockId block;
    std::uint64_t begin, end;
};

bool spanBefore(const Span& a, const Span& b) {
    return rangeBefore<&Span::block>(a, b);
}

} // namespace

void setReadInPlace(ReadInPlace mode) {
    readInPlaceMode.store(mode);
}

ReadInPlace readInPlace() {
    return readInPlaceMode.load();
}

InPlaceReads planInPlaceReads(const Graph& graph, const compiler::CompiledGraph& compiled,
                              const compiler::StepPlan& step) {
    InPlaceReads out;
    const std::size_t transfers = step.gather.size();
    if (step.kind != record::ProgramKind::Execute || transfers == 0 || step.vertices.empty() ||
        readInPlace() == ReadInPlace::Never) {
        return out;
    }
    // The gather's destinations in byte order, to find what fills an entry.
    // The step's big temporaries (a 2048^3 matMul's reduction: 184k transfers,
    // 246k entries) on huge pages: fresh 4 KiB pages made this 72 ms in a
    // guest where each costs 7-17 us.
    LargeVector<std::uint32_t> order(transfers);
    std::iota(order.begin(), order.end(), 0u);
    const auto destination = [&](std::uint32_t i) {
        const compiler::Transfer& t = step.gather[i];
        return Span{t.destination.block, t.destination.offset, t.destination.offset + t.bytes};
    };
    const auto byDestination = [&](std::uint32_t a, std::uint32_t b) {
        return spanBefore(destination(a), destination(b));
    };
    if (!std::is_sorted(order.begin(), order.end(), byDestination)) {
        std::sort(order.begin(), order.end(), byDestination);
    }
    // Calls fn(transfer) for each transfer whose destination overlaps `s`.
    // Entries mostly come in the order their transfers were planned: the
    // search starts where the last one ended when that is the place.
    std::size_t hint = 0;
    const auto forOverlapping = [&](const Span& s, auto&& fn) {
        const auto before = [&](std::uint32_t i) {
            const Span d = destination(i);
            return d.block != s.block ? d.block < s.block : d.end <= s.begin;
        };
        std::size_t at = hint;
        if (at >= order.size() || before(order[at]) || (at > 0 && !before(order[at - 1]))) {
            at = static_cast<std::size_t>(std::partition_point(order.begin(), order.end(), before) -
                                          order.begin());
        }
        for (; at < order.size(); ++at) {
            const Span d = destination(order[at]);
            if (d.block != s.block || d.begin >= s.end) {
                break;
            }
            fn(order[at]);
        }
        hint = at;
    };
    // Variables' bytes the vertices write: they may change while the step's
    // vertices run, so no entry reads them in place.
    LargeVector<Span> written;
    struct Read {
        std::uint64_t entry;
        Span span;
    };
    LargeVector<Read> reads;            // inputs in exchange buffers
    LargeVector<Span> buffersOtherwise; // buffer bytes written or copied out
    // At most an entry each: reserved, so no array grows by moving its pages
    // (a page moved costs 4-6 us at its next touch in a guest).
    written.reserve(step.entries.size());
    reads.reserve(step.entries.size());
    forEachEntry(graph, step, [&](std::size_t, std::uint64_t e, const FieldInfo& field) {
        const compiler::FieldEntryPlan& entry = step.entries[e];
        const bool buffer = compiled.blocks[entry.block].var.isNone();
        const Span span{entry.block, entry.offset, entry.offset + entry.count * sizeOf(field.type)};
        if (writes(field.direction) && buffer) {
            buffersOtherwise.push_back(span);
        } else if (writes(field.direction)) {
            written.push_back(span);
        } else if (buffer && entry.count > 0) {
            reads.push_back({e, span});
        }
    });
    coalesce<&Span::block>(written);
    const auto isWritten = [&](const Span& s) {
        const auto it = std::partition_point(written.begin(), written.end(), [&](const Span& w) {
            return w.block != s.block ? w.block < s.block : w.end <= s.begin;
        });
        return it != written.end() && it->block == s.block && it->begin < s.end;
    };
    for (const compiler::Transfer& t : step.scatter) {
        buffersOtherwise.push_back({t.source.block, t.source.offset, t.source.offset + t.bytes});
    }
    out.copy.assign(transfers, 1);
    // Kept for the whole of Engine::prepare, one a step: no room to spare.
    out.redirects.reserve(reads.size());
    LargeVector<std::uint8_t> readInPlace(transfers, 0), readCopied(transfers, 0);
    for (const Read& r : reads) {
        std::uint32_t only = 0, overlapping = 0;
        forOverlapping(r.span, [&](std::uint32_t i) {
            only = i;
            ++overlapping;
        });
        bool inPlace = false;
        compiler::Location source;
        if (overlapping == 1) {
            const compiler::Transfer& t = step.gather[only];
            const Span d = destination(only);
            source = {t.source.block,
                      compiler::inBlock(t.source.offset + (r.span.begin - d.begin))};
            inPlace = d.begin <= r.span.begin && r.span.end <= d.end &&
                      !isWritten({source.block, source.offset,
                                  source.offset + (r.span.end - r.span.begin)});
        }
        if (inPlace) {
            out.redirects.push_back({r.entry, source});
            readInPlace[only] = 1;
        } else {
            forOverlapping(r.span, [&](std::uint32_t i) { readCopied[i] = 1; });
        }
    }
    // A transfer is still copied when any byte it writes is read otherwise.
    // The exchange planner gives every entry a slot of its own, so today a
    // transfer feeds one entry; this holds if it comes to share them.
    for (std::size_t i = 0; i < transfers; ++i) {
        out.copy[i] = !readInPlace[i] || readCopied[i];
    }
    for (const Span& s : buffersOtherwise) {
        forOverlapping(s, [&](std::uint32_t i) { out.copy[i] = 1; });
    }
    for (std::size_t i = 0; i < transfers; ++i) {
        if (!out.copy[i]) {
            out.bytesNotCopied += step.gather[i].bytes;
        }
    }
    if (out.bytesNotCopied == 0) {
        out.copy.clear();
    }
    // Reads were collected in entry order.
    return out;
}

} // namespace tessera::runtime
