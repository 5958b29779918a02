#pragma once
// Helpers shared by the suites that run programs: engine options and a
// bit-for-bit comparison of result vectors.
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QString>
#include <QTest>

#include <cstring>
#include <ostream>
#include <vector>

namespace tessera::test {

inline EngineOptions options(unsigned threads, record::Recorder* recorder = nullptr,
                             std::ostream* print = nullptr) {
    EngineOptions o;
    o.threads = threads;
    o.recorder = recorder;
    o.printStream = print;
    return o;
}

// Empty when equal bit for bit; otherwise the first difference.
template <typename T>
QString difference(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size()) {
        return QStringLiteral("%1 values, expected %2").arg(got.size()).arg(want.size());
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            return QStringLiteral("value %1 is %2, expected %3")
                .arg(i)
                .arg(double(got[i]), 0, 'g', 10)
                .arg(double(want[i]), 0, 'g', 10);
        }
    }
    return {};
}

} // namespace tessera::test

#define CHECK_EQUAL(got, want)                                                                     \
    do {                                                                                           \
        const QString why_ = tessera::test::difference((got), (want));                             \
        QVERIFY2(why_.isEmpty(), qPrintable(why_));                                                \
    } while (false)
