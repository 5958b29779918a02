// Engine and Device items of issue 12: enableExecutionProfiling /
// disableExecutionProfiling / resetExecutionProfile (seen in the profile
// summary's run count), setPrintStream, Device::createCPUDevice, attach /
// detach, and DeviceManager's simulated system (16 IPUs of the kind
// TESSERA_DEVICE names, mk2 by default).
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

// The "Runs: N" part of the execution section of the profile summary.
static std::string runsLine(const Engine& engine) {
    std::ostringstream summary;
    engine.printProfileSummary(summary);
    std::istringstream lines(summary.str());
    std::string line;
    while (std::getline(lines, line)) {
        if (line.find("Programs run") != std::string::npos) {
            return line;
        }
    }
    return "(no runs line)";
}

int main() {
    DeviceManager manager = DeviceManager::createDeviceManager();
    std::cout << "devices: " << manager.getNumDevices() << "\n";
    for (unsigned n : {1u, 2u, 4u, 8u, 16u, 3u, 32u}) {
        std::vector<Device> devices = manager.getDevices(TargetType::IPU, n);
        std::cout << n << " IPU(s): " << devices.size() << " device(s)";
        if (!devices.empty()) {
            const Target& t = devices.front().getTarget();
            std::cout << ", first id " << devices.front().getId() << ", " << t.getNumIPUs()
                      << " IPUs of " << t.getTilesPerIPU() << " tiles, " << t.getNumTiles()
                      << " tiles, " << t.getBytesPerTile() << " bytes a tile, clock "
                      << t.getTileClockFrequency() << ", arch " << t.getTargetArchString();
        }
        std::cout << "\n";
    }

    Device device;
    for (Device& d : manager.getDevices(TargetType::IPU, 1)) {
        if (d.attach()) {
            device = std::move(d);
            break;
        }
    }
    std::cout << "attached device " << device.getId() << ": " << device.isAttached() << "\n";
    device.detach();
    std::cout << "after detach: " << device.isAttached() << "\n";

    Device cpu = Device::createCPUDevice();
    const Target& ct = cpu.getTarget();
    std::cout << "CPU device: type CPU " << (ct.getTargetType() == TargetType::CPU) << ", "
              << ct.getNumIPUs() << " IPU, " << ct.getNumTiles() << " tile\n";
    std::cout << "DeviceManager device type IPU "
              << (device.getTarget().getTargetType() == TargetType::IPU) << "\n";

    // A program on the CPU device, printing into a stream of our own.
    Graph graph(cpu.getTarget());
    Tensor x = graph.addConstant<int>(INT, {3}, {7, 8, 9});
    graph.setTileMapping(x, 0);
    Engine engine(graph, Sequence({PrintTensor("x", x)}));
    engine.load(cpu);
    std::ostringstream printed;
    engine.setPrintStream(printed);
    engine.run(0);
    std::cout << "captured: " << printed.str();

    std::cout << "after 1 profiled run: " << runsLine(engine) << "\n";
    engine.disableExecutionProfiling();
    engine.run(0);
    engine.run(0);
    std::cout << "after 2 runs with profiling disabled: " << runsLine(engine) << "\n";
    engine.enableExecutionProfiling();
    engine.run(0);
    std::cout << "after 1 more profiled run: " << runsLine(engine) << "\n";
    engine.resetExecutionProfile();
    std::cout << "after resetExecutionProfile: " << runsLine(engine) << "\n";
    engine.run(0);
    std::cout << "after 1 more run: " << runsLine(engine) << "\n";
    std::cout << "printed 5 times: "
              << (printed.str().size() == 5 * std::string("x: [7 8 9]\n").size()) << "\n";
    return 0;
}
