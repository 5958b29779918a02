// The codelet scanner (which classes are vertices, which members are fields)
// and addCodelets' errors: compile errors with the compiler's message, no
// vertex classes, a missing compiler, a missing file.
#include "CodeletScanner.h"
#include "Codelets.h"

#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <QTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using poplar::detail::scanCodeletSource;
using poplar::detail::ScannedVertex;

namespace {

// The vertex so named, or one with an empty name.
ScannedVertex find(const std::vector<ScannedVertex>& vs, const std::string& name) {
    for (const ScannedVertex& v : vs) {
        if (v.name == name) {
            return v;
        }
    }
    return {};
}

QStringList members(const ScannedVertex& v) {
    QStringList out;
    for (const std::string& m : v.members) {
        out << QString::fromStdString(m);
    }
    return out;
}

std::string readData(const std::string& name) {
    std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/tests/poplar-compat/scanner/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string writeSource(const std::string& name, const std::string& text) {
    const std::string path = std::string(TESSERA_TEST_OUTPUT_DIR) + "/" + name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

class PoplarCodelets : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        const std::string cache = std::string(TESSERA_TEST_OUTPUT_DIR) + "/codelet-cache";
        // Empty, so entries counted below are this run's (an earlier build's
        // include path gives another cache key).
        std::error_code ec;
        std::filesystem::remove_all(cache, ec);
        ::setenv("TESSERA_CODELET_CACHE", cache.c_str(), 1);
    }

    void plainClassesAndStructs() {
        const auto r = scanCodeletSource(readData("plain_classes.txt"));
        QCOMPARE(r.vertices.size(), std::size_t(2));
        const ScannedVertex a = find(r.vertices, "A");
        QCOMPARE(QString::fromStdString(a.name), QString("A"));
        QCOMPARE(members(a), QStringList({"in", "in2", "out", "scale", "n", "m"}));
        QCOMPARE(QString::fromStdString(a.cppType), QString("::A"));
        const ScannedVertex b = find(r.vertices, "B");
        QCOMPARE(members(b), QStringList({"counter"}));
    }

    void namespacesTemplatesAndInheritance() {
        const auto r = scanCodeletSource(readData("templates_namespaces.txt"));
        QVERIFY(!find(r.vertices, "outer::inner::Tpl<float>").name.empty());
        QVERIFY(!find(r.vertices, "outer::inner::Tpl<int,3>").name.empty());
        QCOMPARE(members(find(r.vertices, "outer::inner::Tpl<float>")),
                 QStringList({"lists", "out"}));
        QCOMPARE(QString::fromStdString(find(r.vertices, "outer::inner::Tpl<float>").cppType),
                 QString("::outer::inner::Tpl<float>"));
        QCOMPARE(members(find(r.vertices, "outer::Base")), QStringList({"x"}));
        QCOMPARE(members(find(r.vertices, "outer::Derived")), QStringList({"x", "y"}));
        QCOMPARE(r.vertices.size(), std::size_t(4));
        QCOMPARE(r.notes.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(r.notes[0]).contains("NoInstance"));
    }

    void defaultCycleEstimate() {
        // 20 + one cycle per element of every edge (a list counts all its entries).
        struct Fake : tessera::VertexIntrospector {
            std::string name = "V";
            const std::string& codeletName() const override { return name; }
            std::size_t fieldSize(const std::string& f) const override { return f == "a" ? 10 : 1; }
            std::vector<std::size_t> listSizes(const std::string&) const override { return {3, 4}; }
            double state(const std::string&) const override { return 0; }
            tessera::Type fieldType(const std::string&) const override {
                return tessera::Type::Float;
            }
            bool isList(const std::string& f) const override { return f == "l"; }
        } fake;
        std::vector<tessera::FieldInfo> fields(3);
        fields[0].name = "a";
        fields[1].name = "s";
        fields[2].name = "l";
        fields[2].shape = tessera::FieldShape::VectorList;
        QCOMPARE(poplar::detail::defaultCodeletEstimate(fake, fields).cycles,
                 std::uint64_t(20 + 10 + 1 + 3 + 4));
    }

    void compileErrorShowsTheCompilersMessage() {
        poplar::Graph g(poplar::IPUModel().createDevice().getTarget());
        const std::string path = writeSource("broken_codelet.cpp", readData("broken_codelet.txt"));
        try {
            g.addCodelets(path);
            QFAIL("a broken codelet compiled");
        } catch (const poplar::graph_object_load_error& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("failed") && what.contains("undeclared_name"), e.what());
        }
    }

    void noVertexClasses() {
        poplar::Graph g(poplar::IPUModel().createDevice().getTarget());
        const std::string path = writeSource("empty_codelet.cpp", "int helper() { return 1; }\n");
        try {
            g.addCodelets(path);
            QFAIL("a file without vertices was accepted");
        } catch (const poplar::graph_object_load_error& e) {
            QVERIFY2(QString(e.what()).contains("no vertex classes"), e.what());
        }
    }

    void missingCompilerAndFile() {
        poplar::Graph g(poplar::IPUModel().createDevice().getTarget());
        const std::string path = writeSource("fresh_codelet.cpp", readData("fresh_codelet.txt"));
        ::setenv("TESSERA_CODELET_CXX", "/nonexistent/c++", 1);
        try {
            g.addCodelets(path);
            ::unsetenv("TESSERA_CODELET_CXX");
            QFAIL("compiled without a compiler");
        } catch (const poplar::graph_object_load_error& e) {
            ::unsetenv("TESSERA_CODELET_CXX");
            QVERIFY2(QString(e.what()).contains("was not found"), e.what());
        }
        try {
            g.addCodelets(std::string(TESSERA_TEST_OUTPUT_DIR) + "/no_such_codelet.cpp");
            QFAIL("a missing file was accepted");
        } catch (const poplar::graph_object_load_error& e) {
            QVERIFY2(QString(e.what()).contains("no such file"), e.what());
        }
        // With the compiler back, the same source compiles; a second graph hits the cache.
        QVERIFY(g.addCodelets(path));
        poplar::Graph g2(poplar::IPUModel().createDevice().getTarget());
        QVERIFY(g2.addCodelets(path));
        int sharedObjects = 0;
        for (const auto& e : std::filesystem::directory_iterator(
                 std::string(TESSERA_TEST_OUTPUT_DIR) + "/codelet-cache")) {
            sharedObjects += e.path().filename().string().rfind("fresh_codelet-", 0) == 0 ? 1 : 0;
        }
        QCOMPARE(sharedObjects, 1);
    }
};

QTEST_GUILESS_MAIN(PoplarCodelets)
#include "tst_poplar_codelets.moc"
