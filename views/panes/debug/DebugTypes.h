#pragma once
// Plain values passed between the Debugger pane (GUI thread) and the debug
// worker (engine thread) through queued signals: no engine object crosses.
#include "engine/debug/DebugSession.h"
#include "engine/record/Records.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::views::debugger {

struct DebugConfig {
    QString workload;
    QString target = QStringLiteral("tiles:16");
    std::map<std::string, std::string> params;
    QString plugin;     // a workload plugin to load first, or empty
    QStringList breaks; // step numbers or names, as `tessera-cli debug --break`
    QString reportDir;  // where the run-so-far reports go; none when empty
    unsigned threads = 0;
};

struct ProgramNode {
    record::ProgramNodeId id{0u};
    record::ProgramNodeId parent = record::ProgramNodeId::none();
    QString name;
    record::ProgramKind kind = record::ProgramKind::Sequence;
    record::StepId step = record::StepId::none(); // program step id when it is a step
};

struct TensorEntry {
    QString name;
    QString type;
    std::vector<std::size_t> shape;
    bool alwaysLive = true;
};

// What a started session shows before it runs.
struct SessionInfo {
    QString workload;
    QString target;
    std::uint32_t numTiles = 0;
    std::vector<ProgramNode> nodes;
    std::vector<QString> stepNames; // by program step id
    std::vector<TensorEntry> tensors;
    std::vector<debug::Breakpoint> breakpoints; // from DebugConfig::breaks
};

struct PauseState {
    int pause = 0; // counts pauses of the session: 0 before the first step
    debug::StopReason reason = debug::StopReason::Stepped;
    // The step about to run (or that failed); none() at the end.
    record::StepId step = record::StepId::none();
    QString stepName;
    QString message;      // an error or out-of-memory message
    QString verification; // once the program finished: the workload's check
    bool finished = false;
    bool insideStep = false;
    std::uint64_t cycles = 0;
    std::uint64_t stepsExecuted = 0;
    std::vector<std::uint64_t> liveBytes; // per tile
};

struct TensorValues {
    QString name;
    QString error; // the read failed (unknown tensor)
    std::vector<std::size_t> shape;
    std::vector<double> values;
    std::vector<record::TileId> owners; // tile of each element
    bool live = true;                   // false: values are not the tensor's own
    int pause = -1;                     // PauseState::pause they were read at
};

QString stopText(const PauseState& state); // "breakpoint before step 3 'add'"

} // namespace tessera::views::debugger

Q_DECLARE_METATYPE(tessera::views::debugger::DebugConfig)
Q_DECLARE_METATYPE(tessera::views::debugger::SessionInfo)
Q_DECLARE_METATYPE(tessera::views::debugger::PauseState)
Q_DECLARE_METATYPE(tessera::views::debugger::TensorValues)
Q_DECLARE_METATYPE(QVector<tessera::views::debugger::TensorValues>)
Q_DECLARE_METATYPE(tessera::debug::Breakpoint)
