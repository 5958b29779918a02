// The Program pane's dataflow graph model (no widgets): its edges are the
// report's recorded reads and writes, its tensor versions follow program
// order, and on the elementwise workload it is the chain the program text
// spells out: sigmoid(relu(a*b + c) - a).
#include "ReportFixtures.h"
#include "reports/ReportReader.h"
#include "views/data/ReportData.h"
#include "views/data/ReportSource.h"
#include "views/models/ProgramStats.h"
#include "views/panes/program/DataflowGraph.h"

#include <QtTest>

#include <map>
#include <set>

using namespace tessera;
using namespace tessera::views;

namespace {

struct Built {
    std::shared_ptr<const ReportData> data;
    std::shared_ptr<const ProgramStats> stats;
    DataflowGraph graph;
};

Built build(const QString& path, std::size_t maxSteps = 400) {
    Built b;
    b.data = loadReportData(path.toStdString());
    ReportSource source(path.toStdString());
    b.stats = std::make_shared<ProgramStats>(
        computeProgramStats(*b.data, countStepExecutions(*b.data, source)));
    DataflowOptions options;
    options.steps = stepsInScope(*b.data, *b.stats, -1);
    options.maxSteps = maxSteps;
    b.graph = buildDataflowGraph(*b.data, *b.stats, options);
    return b;
}

// The step node whose name contains `part` (exactly one must).
int stepNamed(const DataflowGraph& g, const std::string& part) {
    int found = -1;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const auto& n = g.nodes[i];
        if (n.kind == DataflowNode::Kind::Step && n.stepKind == record::ProgramKind::Execute &&
            n.name.find(part) != std::string::npos) {
            if (found >= 0) {
                return -2;
            }
            found = static_cast<int>(i);
        }
    }
    return found;
}

std::set<int> inputsOf(const DataflowGraph& g, int node) {
    std::set<int> in;
    for (const auto& [from, to] : g.edges) {
        if (to == node) {
            in.insert(from);
        }
    }
    return in;
}

std::set<int> outputsOf(const DataflowGraph& g, int node) {
    std::set<int> out;
    for (const auto& [from, to] : g.edges) {
        if (from == node) {
            out.insert(to);
        }
    }
    return out;
}

} // namespace

class TestDataflowGraph : public QObject {
    Q_OBJECT

private slots:
    void edgesAreRecordedAccesses_data() {
        QTest::addColumn<QString>("workload");
        for (const char* w :
             {"elementwise", "matmul", "mlp-train", "attention", "gather-scatter"}) {
            QTest::newRow(w) << QString(w);
        }
    }

    // Every edge is a recorded read or write, every recorded access of a
    // drawn step is an edge, and a read links the version the last earlier
    // writer in program order made (recomputed here by brute force).
    void edgesAreRecordedAccesses() {
        QFETCH(QString, workload);
        const QString path = testing::capturedReport(workload.toStdString());
        const Built b = build(path);
        const DataflowGraph& g = b.graph;
        QVERIFY(g.accessesRecorded);
        reports::ReportReader reader(path.toStdString());
        std::map<std::pair<std::uint32_t, std::uint32_t>, reports::VariableAccess> recorded;
        for (const auto& a : reader.variableAccesses()) {
            recorded[{a.step.value(), a.variable.value()}] = a.access;
        }
        QVERIFY(!recorded.empty());

        std::vector<std::uint32_t> drawnSteps; // in node order = program order
        for (const auto& n : g.nodes) {
            if (n.kind == DataflowNode::Kind::Step) {
                drawnSteps.push_back(n.id);
            }
        }
        std::size_t reads = 0, writes = 0;
        for (const auto& [from, to] : g.edges) {
            QVERIFY2(from < to, "edges run forward in program order");
            const auto& f = g.nodes[static_cast<std::size_t>(from)];
            const auto& t = g.nodes[static_cast<std::size_t>(to)];
            QVERIFY(f.kind != t.kind);
            if (f.kind == DataflowNode::Kind::Step) { // a write
                const auto it = recorded.find({f.id, t.id});
                QVERIFY(it != recorded.end() && it->second != reports::VariableAccess::Read);
                QCOMPARE(t.producer, record::StepId{f.id});
                ++writes;
                continue;
            }
            if (f.exchangeBuffer) {
                QCOMPARE(b.data->variable(record::VariableId{f.id})->firstStep,
                         record::StepId{t.id});
                continue;
            }
            const auto it = recorded.find({t.id, f.id});
            QVERIFY(it != recorded.end() && it->second != reports::VariableAccess::Write);
            ++reads;
            // The version read: the last drawn step before t that writes f.
            record::StepId expected = record::StepId::none();
            for (const std::uint32_t s : drawnSteps) {
                if (s == t.id) {
                    break;
                }
                const auto w = recorded.find({s, f.id});
                if (w != recorded.end() && w->second != reports::VariableAccess::Read) {
                    expected = record::StepId{s};
                }
            }
            QCOMPARE(f.producer, expected);
        }
        // ...and nothing recorded for a drawn step is missing.
        std::size_t expectedReads = 0, expectedWrites = 0;
        for (const std::uint32_t s : drawnSteps) {
            for (const auto& [key, access] : recorded) {
                if (key.first == s) {
                    expectedReads += access != reports::VariableAccess::Write ? 1 : 0;
                    expectedWrites += access != reports::VariableAccess::Read ? 1 : 0;
                }
            }
        }
        QCOMPARE(reads, expectedReads);
        QCOMPARE(writes, expectedWrites);
    }

    // sigmoid(relu(a*b + c) - a): each op reads what the previous one wrote,
    // and both uses of `a` read the one input node.
    void elementwiseChainMatchesTheProgram() {
        const Built b = build(testing::capturedReport("elementwise"));
        const DataflowGraph& g = b.graph;
        const int mul = stepNamed(g, "mul"), add = stepNamed(g, "add"), relu = stepNamed(g, "relu"),
                  sub = stepNamed(g, "sub"), sigmoid = stepNamed(g, "sigmoid");
        for (int s : {mul, add, relu, sub, sigmoid}) {
            QVERIFY2(s >= 0, "one Execute step per op");
        }
        auto names = [&](const std::set<int>& nodes) {
            std::set<std::string> out;
            for (int n : nodes) {
                if (!g.nodes[static_cast<std::size_t>(n)].exchangeBuffer) {
                    out.insert(g.nodes[static_cast<std::size_t>(n)].name);
                }
            }
            return out;
        };
        QCOMPARE(names(inputsOf(g, mul)), (std::set<std::string>{"a", "b"}));
        auto onlyOutput = [&](int step) {
            const auto out = outputsOf(g, step);
            return out.size() == 1 ? *out.begin() : -1;
        };
        const int ab = onlyOutput(mul), abc = onlyOutput(add), r = onlyOutput(relu),
                  d = onlyOutput(sub);
        QVERIFY(ab >= 0 && abc >= 0 && r >= 0 && d >= 0);
        QVERIFY(inputsOf(g, add).count(ab));
        QVERIFY(names(inputsOf(g, add)).count("c"));
        QVERIFY(inputsOf(g, relu).count(abc));
        QVERIFY(inputsOf(g, sub).count(r));
        QVERIFY(inputsOf(g, sigmoid).count(d));
        int aNode = -1;
        for (int n : inputsOf(g, mul)) {
            if (g.nodes[static_cast<std::size_t>(n)].name == "a") {
                aNode = n;
            }
        }
        QVERIFY(aNode >= 0);
        QVERIFY(g.nodes[static_cast<std::size_t>(aNode)].producer.isNone());
        QVERIFY2(inputsOf(g, sub).count(aNode), "sub reads the same a as mul");
        QCOMPARE(g.nodes[static_cast<std::size_t>(aNode)].readers, 2u);
    }

    void truncatedScopesCountTheirSteps() {
        const Built b = build(testing::capturedReport("mlp-train"), 5);
        QVERIFY(b.graph.stepsShown > 0 && b.graph.stepsShown <= 5);
        QVERIFY(b.graph.stepsInScope > 5);
    }
};

QTEST_GUILESS_MAIN(TestDataflowGraph)
#include "tst_dataflow_graph.moc"
