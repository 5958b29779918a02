// A real training loop: a linear model (poplin::matMul + a bias, popops::add)
// with softmax cross-entropy (popnn::nonLinearity SOFTMAX, popnn::calcLoss
// with numCorrect) trained by SGD (popops::scaledAddTo) over mini-batches
// streamed from the host inside a Repeat, on a linearly separable data set
// made here. numCorrect is zeroed once per epoch and accumulates over its
// batches, as public Poplar programs rely on (issue 13). The program checks
// itself and prints one pass/FAIL line per claim; the per-epoch figures go
// to standard error.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t kSamples = 96, kFeatures = 4, kClasses = 3, kBatch = 8;
const std::size_t kSteps = kSamples / kBatch;
const unsigned kEpochs = 8;
const float kLearningRate = 0.5f;

struct Rng {
    std::uint64_t s = 0x853C49E6748FEA9Bull;
    float uniform() { // in [-1, 1)
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<float>((s >> 40) % 65536) / 32768.0f - 1.0f;
    }
};

void report(const char* claim, bool ok) {
    std::cout << claim << ": " << (ok ? "pass" : "FAIL") << "\n";
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);

    // Three classes around three centres, noise well inside the margins.
    const float centres[kClasses][kFeatures] = {
        {1.5f, -1.0f, 0.5f, 0.0f}, {-1.0f, 1.5f, 0.0f, 0.5f}, {0.0f, 0.0f, -1.5f, 1.0f}};
    Rng rng;
    std::vector<float> xs(kSamples * kFeatures);
    std::vector<unsigned> ys(kSamples);
    for (std::size_t i = 0; i < kSamples; ++i) {
        ys[i] = static_cast<unsigned>(i % kClasses);
        for (std::size_t f = 0; f < kFeatures; ++f) {
            xs[i * kFeatures + f] = centres[ys[i]][f] + 0.6f * rng.uniform();
        }
    }

    Tensor x = graph.addVariable(FLOAT, {kBatch, kFeatures}, "x");
    Tensor y = graph.addVariable(UNSIGNED_INT, {kBatch}, "y");
    Tensor w = graph.addVariable(FLOAT, {kFeatures, kClasses}, "weights");
    Tensor b = graph.addVariable(FLOAT, {kClasses}, "bias");
    Tensor loss = graph.addVariable(FLOAT, {kBatch}, "loss");
    Tensor deltas = graph.addVariable(FLOAT, {kBatch, kClasses}, "deltas");
    Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {}, "numCorrect");
    Tensor lossSum = graph.addVariable(FLOAT, {}, "lossSum");
    for (Tensor t : {x, y, w, b, loss, deltas}) {
        poputil::mapTensorLinearly(graph, t, 1, 1);
    }
    graph.setTileMapping(numCorrect, 6);
    graph.setTileMapping(lossSum, 7);
    graph.setInitialValue(w, std::vector<float>(kFeatures * kClasses, 0.0f));
    graph.setInitialValue(b, std::vector<float>(kClasses, 0.0f));
    Tensor zeroU = graph.addConstant(UNSIGNED_INT, {}, 0u, "zeroU");
    Tensor zeroF = graph.addConstant(FLOAT, {}, 0.0f, "zeroF");
    graph.setTileMapping(zeroU, 6);
    graph.setTileMapping(zeroF, 7);
    DataStream xIn = graph.addHostToDeviceFIFO("x", FLOAT, kBatch * kFeatures);
    DataStream yIn = graph.addHostToDeviceFIFO("y", UNSIGNED_INT, kBatch);

    // One batch: forward, loss and accuracy (accumulated), and, when
    // training, the SGD update.
    auto batch = [&](bool train) {
        Sequence s;
        s.add(Copy(xIn, x));
        s.add(Copy(yIn, y));
        Tensor logits = poplin::matMul(graph, x, w, s, "logits");
        logits = popops::add(graph, logits, b, s, "bias");
        Tensor probs =
            popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, s, "softmax");
        s.add(popnn::calcLoss(graph, probs, y, loss, deltas, numCorrect, popnn::CROSS_ENTROPY_LOSS,
                              "loss"));
        popops::reduceWithOutput(graph, loss, lossSum, {0},
                                 popops::ReduceParams(popops::Operation::ADD, true), s, "lossSum");
        if (train) {
            Tensor dw = poplin::matMul(graph, x.transpose(), deltas, s, "dW");
            Tensor db = popops::reduce(graph, deltas, {0},
                                       popops::ReduceParams(popops::Operation::ADD), s, "db");
            const float scale = -kLearningRate / kBatch;
            popops::scaledAddTo(graph, w, dw, scale, s, "sgdW");
            popops::scaledAddTo(graph, b, db, scale, s, "sgdB");
        }
        return s;
    };
    // An epoch: counters zeroed once, then every batch.
    auto epoch = [&](bool train) {
        Sequence s;
        s.add(Copy(zeroU, numCorrect));
        s.add(Copy(zeroF, lossSum));
        s.add(Repeat(static_cast<unsigned>(kSteps), batch(train)));
        return s;
    };
    graph.createHostRead("numCorrect", numCorrect);
    graph.createHostRead("lossSum", lossSum);

    Engine engine(graph, {epoch(true), epoch(false)});
    engine.load(device);
    engine.connectStream("x", xs.data(), xs.data() + xs.size());
    engine.connectStream("y", ys.data(), ys.data() + ys.size());
    auto measure = [&](unsigned programIndex, double& accuracy, double& meanLoss) {
        engine.run(programIndex);
        unsigned correct = 0;
        float sum = 0;
        engine.readTensor("numCorrect", &correct, &correct + 1);
        engine.readTensor("lossSum", &sum, &sum + 1);
        accuracy = 100.0 * correct / kSamples;
        meanLoss = sum / kSamples;
        return correct;
    };

    double accuracy = 0, meanLoss = 0;
    const unsigned before = measure(1, accuracy, meanLoss);
    const double lossBefore = meanLoss;
    std::cerr << std::fixed << std::setprecision(4) << "before training: accuracy " << accuracy
              << "% loss " << meanLoss << "\n";
    double firstEpoch = 0;
    for (unsigned e = 1; e <= kEpochs; ++e) {
        measure(0, accuracy, meanLoss);
        if (e == 1) {
            firstEpoch = accuracy;
        }
        std::cerr << "epoch " << e << " (training): accuracy " << accuracy << "% loss " << meanLoss
                  << "\n";
    }
    const unsigned after = measure(1, accuracy, meanLoss);
    std::cerr << "after training: accuracy " << accuracy << "% loss " << meanLoss << "\n";

    // With zero weights every class is equally likely; the first (class 0,
    // a third of the samples) is the arg-max.
    report("before training: 32 of 96 correct (chance), counted over all 12 batches", before == 32);
    report("before training: mean loss is log(3)", std::fabs(lossBefore - std::log(3.0)) < 1e-4);
    report("first training epoch: accuracy above chance", firstEpoch > 40.0);
    report("after 8 epochs: accuracy above 90%", after > 0.9 * kSamples);
    report("after 8 epochs: mean loss below a quarter of log(3)", meanLoss < 0.25 * std::log(3.0));
    return 0;
}
