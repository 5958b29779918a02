#pragma once
// Helpers shared by the engine suites: checking that a call throws a given
// tessera error whose message names the objects involved.
#include <QList>
#include <QString>
#include <QStringList>
#include <QTest>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

// A misuse to try, as a data-driven test column.
using Action = std::function<void()>;
Q_DECLARE_METATYPE(Action)

namespace tessera::test {

inline std::vector<std::size_t> dims(const QList<int>& list) {
    std::vector<std::size_t> out;
    for (int v : list) {
        out.push_back(static_cast<std::size_t>(v));
    }
    return out;
}

// Runs `action`; returns the message of the E it throws, or sets `thrown`
// to false. Any other exception escapes and fails the test.
template <typename E>
std::string messageOf(const Action& action, bool& thrown) {
    thrown = false;
    try {
        action();
    } catch (const E& e) {
        thrown = true;
        return e.what();
    }
    return {};
}

// The first of `names` missing from `message`, or an empty string.
inline QString missingName(const std::string& message, const QStringList& names) {
    for (const QString& n : names) {
        if (message.find(n.toStdString()) == std::string::npos) {
            return n;
        }
    }
    return {};
}

} // namespace tessera::test

// Verifies that `expr` throws `E` and that its message contains every string
// of the QStringList `names`.
#define TESSERA_EXPECT_ERROR(E, expr, names)                                                       \
    do {                                                                                           \
        bool thrown_ = false;                                                                      \
        const std::string message_ = tessera::test::messageOf<E>([&] { expr; }, thrown_);          \
        QVERIFY2(thrown_, "expected " #E " from: " #expr);                                         \
        const QString missing_ = tessera::test::missingName(message_, names);                      \
        QVERIFY2(missing_.isEmpty(),                                                               \
                 qPrintable(QStringLiteral("message \"%1\" does not name %2")                      \
                                .arg(QString::fromStdString(message_), missing_)));                \
    } while (false)
