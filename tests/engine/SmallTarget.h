#pragma once
// The target the cycle and memory suites work their figures out on: tiles:4
// (mk2-like; parameters asserted in tst_engine_cycles::targetParameters) with
// the host link at 8 B/cycle and the IPU-Links at 32 B/cycle per IPU.
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"
#include "engine/target/Target.h"

#include <cstdint>

namespace tessera::test {

inline constexpr std::uint32_t kBase = 0x4c000; // the first data address

inline Target smallTarget() {
    Target t = Target::preset("tiles:4");
    t.set("hostBytesPerCycle", "8");
    t.set("ipuLinkBytesPerCycle", "32");
    return t;
}

inline EngineOptions withRecorder(record::Recorder* r, unsigned threads = 1) {
    EngineOptions o;
    o.threads = threads;
    o.recorder = r;
    return o;
}

} // namespace tessera::test
