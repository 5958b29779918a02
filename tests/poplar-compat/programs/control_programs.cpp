// Control programs of issue 12: If, RepeatWhileTrue / RepeatWhileFalse,
// Switch (and Switch::add), Sync(SyncType), WriteUndef, AbortOnCondition,
// ErrorProgram, Copy of tensor views with dontOutline, remote buffers (Copy
// with and without offsets, Engine::copyTo/FromRemoteBuffer) and cycleStamp.
#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("control_codelets.cpp");

    Tensor counter = graph.addVariable(INT, {}, "counter");
    Tensor limit = graph.addVariable(INT, {}, "limit");
    Tensor flag = graph.addVariable(BOOL, {}, "flag");
    Tensor above = graph.addVariable(BOOL, {}, "above");
    Tensor result = graph.addVariable(INT, {}, "result");
    Tensor control = graph.addVariable(INT, {}, "control");
    for (const Tensor& t : {counter, limit, flag, above, result, control}) {
        graph.setTileMapping(t, 0);
    }
    ComputeSet incCs = graph.addComputeSet("increment");
    graph.setTileMapping(graph.addVertex(incCs, "Increment", {{"counter", counter}}), 0);
    ComputeSet lessCs = graph.addComputeSet("less");
    graph.setTileMapping(
        graph.addVertex(lessCs, "Less", {{"a", counter}, {"b", limit}, {"out", flag}}), 0);
    ComputeSet aboveCs = graph.addComputeSet("above");
    graph.setTileMapping(
        graph.addVertex(aboveCs, "Less", {{"a", limit}, {"b", counter}, {"out", above}}), 0);

    auto constant = [&](int v) {
        Tensor c = graph.addConstant(INT, {}, v);
        graph.setTileMapping(c, 1);
        return c;
    };
    graph.createHostWrite("counter", counter);
    graph.createHostWrite("limit", limit);
    graph.createHostWrite("control", control);
    graph.createHostRead("counter", counter);
    graph.createHostRead("result", result);
    graph.createHostWrite("result", result);

    // 0: count up while counter < limit; 1: count up while limit < counter is
    // false (until counter passes limit); 2: If on counter < limit.
    Sequence whileTrue({RepeatWhileTrue(Execute(lessCs), flag, Execute(incCs))});
    Sequence whileFalse({RepeatWhileFalse(Execute(aboveCs), above, Execute(incCs))});
    Sequence ifProg(
        {Execute(lessCs), If(flag, Copy(constant(1), result), Copy(constant(2), result))});

    // 3: Switch on control: 0 -> 10, 1 -> 20, 5 -> 50 (added later), else 99.
    Switch sw(control, {{0, Copy(constant(10), result)}, {1, Copy(constant(20), result)}},
              Copy(constant(99), result));
    sw.add(5, Copy(constant(50), result));
    Sequence switchProg({sw, Sync(SyncType::INTERNAL), Sync(SyncType::EXTERNAL),
                         Sync(SyncType::GLOBAL), WriteUndef(flag)});

    // 4: abort when counter < limit; 5: an error program printing counter.
    Sequence abortProg({Execute(lessCs), AbortOnCondition(flag, "counter below the limit"),
                        Copy(constant(7), result)});
    Sequence errorProg({ErrorProgram("bad state", counter), Copy(constant(8), result)});

    // 6: copies of views: a transpose, a slice and a concat of a row and a column.
    Tensor m = graph.addConstant<int>(INT, {2, 3}, {1, 2, 3, 4, 5, 6});
    graph.setTileMapping(m, 2);
    Tensor t = graph.addVariable(INT, {3, 2}, "t");
    Tensor corner = graph.addVariable(INT, {2, 2}, "corner");
    Tensor mixed = graph.addVariable(INT, {5}, "mixed");
    graph.setTileMapping(t, 3);
    graph.setTileMapping(corner, 1);
    graph.setTileMapping(mixed.slice(0, 2), 0);
    graph.setTileMapping(mixed.slice(2, 5), 3);
    Sequence viewProg({Copy(m.transpose(), t, true), Copy(m.slice({0, 1}, {2, 3}), corner, true),
                       Copy(concat(m[1], m.slice(1, 3, 1).flatten().slice(0, 2)), mixed, true),
                       PrintTensor("t", t), PrintTensor("corner", corner),
                       PrintTensor("mixed", mixed)});

    // 7: remote buffer of 4 rows of 3: rows 3 and 1 in, written back to rows 0
    // and 2 plus one; then all four rows into a 4x3 tensor.
    RemoteBuffer rb = graph.addRemoteBuffer("rb", FLOAT, 3, 4);
    Tensor two = graph.addVariable(FLOAT, {2, 3}, "two");
    Tensor all = graph.addVariable(FLOAT, {4, 3}, "all");
    graph.setTileMapping(two, 1);
    graph.setTileMapping(all, 2);
    Tensor inOffsets = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {3, 1});
    Tensor outOffsets = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {0, 2});
    Tensor badOffset = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {4, 0});
    graph.setTileMapping(inOffsets, 1);
    graph.setTileMapping(outOffsets, 1);
    graph.setTileMapping(badOffset, 1);
    Sequence remoteProg({Copy(rb, two, inOffsets), Copy(two, rb, outOffsets), Copy(rb, all),
                         PrintTensor("all", all)});
    Sequence badRemote({Copy(rb, two, badOffset)});

    // 8: stamps around one Execute.
    Sequence stampProg;
    Tensor s1 = cycleStamp(graph, stampProg, 0, SyncType::INTERNAL);
    stampProg.add(Execute(incCs));
    Tensor s2 = cycleStamp(graph, stampProg, 0, SyncType::INTERNAL);
    graph.createHostRead("s1", s1);
    graph.createHostRead("s2", s2);

    Engine engine(graph, {whileTrue, whileFalse, ifProg, switchProg, abortProg, errorProg, viewProg,
                          remoteProg, badRemote, stampProg});
    engine.load(device);
    int zero = 0, five = 5, value = 0;
    auto set = [&](const char* h, int v) { engine.writeTensor(h, &v, &v + 1); };
    auto get = [&](const char* h) {
        engine.readTensor(h, &value, &value + 1);
        return value;
    };

    set("counter", 0);
    set("limit", 5);
    engine.run(0);
    std::cout << "RepeatWhileTrue from 0 to limit 5: counter " << get("counter") << "\n";
    set("counter", 0);
    engine.run(1);
    std::cout << "RepeatWhileFalse from 0 past limit 5: counter " << get("counter") << "\n";
    set("counter", 9);
    engine.run(0);
    std::cout << "RepeatWhileTrue from 9: counter " << get("counter") << "\n";
    engine.run(1);
    std::cout << "RepeatWhileFalse from 9: counter " << get("counter") << "\n";
    engine.run(2);
    std::cout << "If (9 < 5): result " << get("result") << "\n";
    set("counter", 3);
    engine.run(2);
    std::cout << "If (3 < 5): result " << get("result") << "\n";

    for (int c : {0, 1, 5, 7, -1}) {
        set("control", c);
        engine.run(3);
        std::cout << "Switch on " << c << ": result " << get("result") << "\n";
    }

    set("result", 0);
    set("counter", 6);
    engine.run(4);
    std::cout << "AbortOnCondition (6 < 5 is false): result " << get("result") << "\n";
    set("counter", 2);
    try {
        engine.run(4);
        std::cout << "AbortOnCondition did not abort\n";
    } catch (const poplar::application_runtime_error& e) {
        std::cout << "AbortOnCondition (2 < 5): application_runtime_error: " << e.what() << "\n";
    }
    set("result", 0);
    try {
        engine.run(5);
        std::cout << "ErrorProgram did not abort\n";
    } catch (const poplar::application_runtime_error& e) {
        std::cout << "ErrorProgram: application_runtime_error: " << e.what() << "; result "
                  << get("result") << "\n";
    }

    engine.run(6);

    for (unsigned row = 0; row < 4; ++row) {
        float v[3] = {row * 10.0f, row * 10.0f + 1, row * 10.0f + 2};
        engine.copyToRemoteBuffer(v, "rb", row);
    }
    engine.run(7);
    for (unsigned row = 0; row < 4; ++row) {
        float v[3];
        engine.copyFromRemoteBuffer("rb", v, row);
        std::cout << "rb row " << row << ": " << v[0] << " " << v[1] << " " << v[2] << "\n";
    }
    try {
        engine.run(8);
        std::cout << "an out-of-range offset was accepted\n";
    } catch (const poplar::poplar_error& e) {
        std::cout << "offset 4 of 4 rows: " << e.what() << "\n";
    }
    try {
        float v[3];
        engine.copyFromRemoteBuffer("rb", v, 4);
        std::cout << "an out-of-range row was accepted\n";
    } catch (const poplar::poplar_error& e) {
        std::cout << "copyFromRemoteBuffer row 4: " << e.what() << "\n";
    }

    engine.run(9);
    unsigned a[2], b[2];
    engine.readTensor("s1", a, a + 2);
    engine.readTensor("s2", b, b + 2);
    std::cout << "cycleStamp difference: " << (b[0] - a[0]) << "\n";

    try {
        std::ostringstream out;
        graph.serialize(out, SerializationFormat::Binary);
        std::cout << "a graph with a remote buffer was serialized\n";
    } catch (const poplar::unsupported_feature_error& e) {
        std::cout << "serialize: " << e.what() << "\n";
    }
    return 0;
}
