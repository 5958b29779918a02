// popnn::bn and popnn::gn, property-based: random [batch][channels][field]
// activations on float and half, biased and unbiased variance, the stable
// and the plain algorithm; statistics, whitening, normalisation (both
// batchNormalise forms), parameter gradients and input gradients (both
// forms each) and the parameter updates (float and tensor scales) against a
// host reference in double; then the error cases. One line per check.
#include "popnn_check.h"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popnn::addCodelets(graph);
    Rng rng(0x0DDB1A5E5BAD5EEDull);
    Sequence prog;
    std::vector<Check> checks;
    unsigned counter = 0;
    auto read = [&](const std::string& what, const Tensor& t, std::vector<double> expected,
                    double tol) {
        const std::string handle = "read" + std::to_string(counter++);
        graph.createHostRead(handle, t);
        checks.push_back({what, handle, t.elementType(), std::move(expected), tol});
    };
    auto variable = [&](Type type, const std::vector<std::size_t>& shape,
                        const std::vector<float>& values) {
        Tensor t = graph.addVariable(type, shape, "v" + std::to_string(counter++));
        poputil::mapTensorLinearly(graph, t, 1, 1);
        graph.setInitialValue(t, ArrayRef<float>(values));
        return t;
    };

    unsigned caseNo = 0;
    for (int group = 0; group < 2; ++group) {
        for (Type type : {FLOAT, HALF}) {
            const double tol = type == HALF ? 2e-2 : 5e-5;
            for (int rep = 0; rep < 4; ++rep) {
                const bool unbiased = rep % 2 == 1, stable = rep >= 2;
                const std::size_t groups = group ? 1 + rng.next(3) : 0;
                const std::size_t batch = 1 + rng.next(3);
                const std::size_t channels = group ? groups * (1 + rng.next(2)) : 1 + rng.next(4);
                std::vector<std::size_t> shape = {batch, channels};
                const std::size_t fieldDims = rng.next(3);
                std::size_t field = 1;
                for (std::size_t d = 0; d < fieldDims; ++d) {
                    shape.push_back(1 + rng.next(4));
                    field *= shape.back();
                }
                if (!group && batch * field < 2) {
                    shape[0] = batch + 1; // at least two elements per statistic
                }
                const std::size_t B = shape[0];
                const float eps = rep % 3 == 0 ? 1e-5f : 0.25f;
                std::ostringstream tag;
                tag << "case " << caseNo++ << (group ? " gn" : " bn") << " "
                    << (type == HALF ? "half" : "float") << " {";
                for (std::size_t i = 0; i < shape.size(); ++i) {
                    tag << (i ? "," : "") << shape[i];
                }
                tag << "}" << (group ? " groups " + std::to_string(groups) : "")
                    << (unbiased ? " unbiased" : " biased") << (stable ? " stable" : "") << " eps "
                    << eps;
                const std::size_t n = B * channels * field;
                std::vector<float> x(n), gin(n), gamma(channels), beta(channels);
                for (float& v : x) {
                    v = rng.step(128, 32.0f);
                }
                for (float& v : gin) {
                    v = rng.step(128, 32.0f);
                }
                for (float& v : gamma) {
                    v = rng.step(128, 32.0f);
                }
                for (float& v : beta) {
                    v = rng.step(128, 32.0f);
                }
                // Reference statistics: per channel (bn) or per (batch, group).
                const std::size_t G = group ? groups : 0;
                const std::size_t stats = group ? B * G : channels;
                auto statOf = [&](std::size_t b, std::size_t c) {
                    return group ? b * G + c % G : c;
                };
                std::vector<double> mean(stats, 0), var(stats, 0), count(stats, 0);
                for (std::size_t b = 0; b < B; ++b) {
                    for (std::size_t c = 0; c < channels; ++c) {
                        for (std::size_t f = 0; f < field; ++f) {
                            const std::size_t s = statOf(b, c);
                            mean[s] += x[(b * channels + c) * field + f];
                            count[s] += 1;
                        }
                    }
                }
                for (std::size_t s = 0; s < stats; ++s) {
                    mean[s] /= count[s];
                }
                for (std::size_t b = 0; b < B; ++b) {
                    for (std::size_t c = 0; c < channels; ++c) {
                        for (std::size_t f = 0; f < field; ++f) {
                            const std::size_t s = statOf(b, c);
                            const double d = x[(b * channels + c) * field + f] - mean[s];
                            var[s] += d * d;
                        }
                    }
                }
                std::vector<double> isd(stats);
                for (std::size_t s = 0; s < stats; ++s) {
                    const double v = var[s] / (unbiased && count[s] > 1 ? count[s] - 1 : count[s]);
                    isd[s] = 1 / std::sqrt(v + eps);
                }
                std::vector<double> w(n), norm(n), gammaD(channels, 0), betaD(channels, 0),
                    sumG(stats, 0), sumGX(stats, 0), dx(n), infer(n);
                for (std::size_t b = 0; b < B; ++b) {
                    for (std::size_t c = 0; c < channels; ++c) {
                        for (std::size_t f = 0; f < field; ++f) {
                            const std::size_t i = (b * channels + c) * field + f, s = statOf(b, c);
                            w[i] = (x[i] - mean[s]) * isd[s];
                            norm[i] = w[i] * gamma[c] + beta[c];
                            infer[i] = x[i] * gamma[c] + beta[c];
                            gammaD[c] += gin[i] * w[i];
                            betaD[c] += gin[i];
                            sumG[s] += gin[i] * gamma[c];
                            sumGX[s] += gin[i] * gamma[c] * w[i];
                        }
                    }
                }
                for (std::size_t b = 0; b < B; ++b) {
                    for (std::size_t c = 0; c < channels; ++c) {
                        for (std::size_t f = 0; f < field; ++f) {
                            const std::size_t i = (b * channels + c) * field + f, s = statOf(b, c);
                            dx[i] = isd[s] *
                                    (gin[i] * gamma[c] - (sumG[s] + w[i] * sumGX[s]) / count[s]);
                        }
                    }
                }
                Tensor acts = variable(type, shape, x);
                Tensor grads = variable(type, shape, gin);
                Tensor gammaT = variable(type, {channels}, gamma);
                Tensor betaT = variable(type, {channels}, beta);
                const std::string t = tag.str();
                std::pair<Tensor, Tensor> st, normalised, pg, pgW;
                Tensor whitened, gradIn, gradInW;
                if (!group) {
                    st = popnn::bn::batchNormStatistics(graph, acts, eps, prog, unbiased, stable,
                                                        FLOAT, "bn");
                    whitened = popnn::bn::batchNormWhiten(graph, acts, st.first, st.second, prog);
                    normalised = popnn::bn::batchNormalise(graph, acts, gammaT, betaT, st.first,
                                                           st.second, prog);
                    read(t + " batchNormalise(combined)",
                         popnn::bn::batchNormalise(graph, acts, gammaT, betaT, prog), infer, tol);
                    pg = popnn::bn::batchNormParamGradients(graph, acts, grads, st.first, st.second,
                                                            prog);
                    pgW = popnn::bn::batchNormParamGradients(graph, whitened, grads, prog);
                    gradIn = popnn::bn::batchNormGradients(graph, acts, grads, st.first, st.second,
                                                           gammaT, prog);
                    gradInW = popnn::bn::batchNormGradients(graph, whitened, grads, st.second,
                                                            gammaT, prog, FLOAT);
                } else {
                    st = popnn::gn::groupNormStatistics(graph, acts, eps, prog,
                                                        static_cast<unsigned>(groups), unbiased,
                                                        stable, FLOAT, "gn");
                    whitened = popnn::gn::groupNormWhiten(graph, acts, st.first, st.second, prog);
                    normalised = popnn::gn::groupNormalise(graph, acts, gammaT, betaT, st.first,
                                                           st.second, prog);
                    pg = popnn::gn::groupNormParamGradients(graph, acts, grads, st.first, st.second,
                                                            prog);
                    pgW = popnn::gn::groupNormParamGradients(graph, whitened, grads, prog);
                    gradIn = popnn::gn::groupNormGradients(graph, acts, grads, st.first, st.second,
                                                           gammaT, prog);
                    gradInW = popnn::gn::groupNormGradients(graph, whitened, grads, st.second,
                                                            gammaT, prog, FLOAT);
                }
                read(t + " mean", st.first, mean, tol);
                read(t + " invStdDev", st.second, isd,
                     type == HALF ? 2e-2 * 8 : 5e-5 * 8); // large for tiny variances
                read(t + " whiten", whitened, w, tol * 8);
                read(t + " normalise", normalised.first, norm, tol * 8);
                read(t + " normalise whitened", normalised.second, w, tol * 8);
                read(t + " paramGradients gamma", pg.first, gammaD, tol * 16);
                read(t + " paramGradients beta", pg.second, betaD, tol);
                read(t + " paramGradients(whitened) gamma", pgW.first, gammaD, tol * 16);
                read(t + " gradients", gradIn, dx, tol * 16);
                read(t + " gradients(whitened)", gradInW, dx, tol * 16);
                // Parameter updates: gamma += s * gammaDelta, beta += s * betaDelta,
                // from host-given deltas.
                std::vector<float> gd(channels), bd(channels);
                for (std::size_t c = 0; c < channels; ++c) {
                    gd[c] = rng.step(128, 32.0f);
                    bd[c] = rng.step(128, 32.0f);
                }
                Tensor gdT = variable(type, {channels}, gd), bdT = variable(type, {channels}, bd);
                Tensor g2 = variable(type, {channels}, gamma),
                       b2 = variable(type, {channels}, beta);
                Tensor scaleT = graph.addConstant(FLOAT, {}, -0.5f, "scale");
                graph.setTileMapping(scaleT, 3);
                if (!group) {
                    popnn::bn::batchNormParamUpdate(graph, gdT, bdT, 0.25f, g2, b2, prog);
                    popnn::bn::batchNormParamUpdate(graph, gdT, bdT, scaleT, g2, b2, prog);
                } else {
                    popnn::gn::groupNormParamUpdate(graph, gdT, bdT, 0.25f, g2, b2, prog);
                    popnn::gn::groupNormParamUpdate(graph, gdT, bdT, scaleT, g2, b2, prog);
                }
                std::vector<double> gamma2(channels), beta2(channels);
                for (std::size_t c = 0; c < channels; ++c) {
                    gamma2[c] = gamma[c] + (0.25 - 0.5) * gd[c];
                    beta2[c] = beta[c] + (0.25 - 0.5) * bd[c];
                }
                read(t + " paramUpdate gamma", g2, gamma2, tol);
                read(t + " paramUpdate beta", b2, beta2, tol);
            }
        }
    }

    // Layer norm (one group) and instance norm (a group per channel): the
    // mean of each batch, of each (batch, channel).
    {
        std::vector<float> x(2 * 3 * 4);
        for (float& v : x) {
            v = rng.step(128, 32.0f);
        }
        Tensor acts = variable(FLOAT, {2, 3, 4}, x);
        std::vector<double> perBatch(2, 0.0), perChannel(6, 0.0);
        for (std::size_t i = 0; i < x.size(); ++i) {
            perBatch[i / 12] += x[i] / 12.0;
            perChannel[i / 4] += x[i] / 4.0;
        }
        std::pair<Tensor, Tensor> ln =
            popnn::ln::layerNormStatistics(graph, acts, 1e-5f, prog, false);
        std::pair<Tensor, Tensor> in =
            popnn::in::instanceNormStatistics(graph, acts, 1e-5f, prog, true, true);
        read("layerNormStatistics {2,3,4} mean", ln.first, perBatch, 5e-6);
        read("instanceNormStatistics {2,3,4} mean", in.first, perChannel, 5e-6);
        Tensor gammaT = variable(FLOAT, {3}, std::vector<float>(3, 2.0f));
        Tensor betaT = variable(FLOAT, {3}, std::vector<float>(3, 1.0f));
        std::pair<Tensor, Tensor> out =
            popnn::in::instanceNormalise(graph, acts, gammaT, betaT, in.first, in.second, prog);
        // 2 * whitened + 1 with instance statistics (unbiased variance).
        std::vector<double> expected(x.size());
        for (std::size_t plane = 0; plane < 6; ++plane) {
            double var = 0;
            for (std::size_t i = plane * 4; i < plane * 4 + 4; ++i) {
                var += (x[i] - perChannel[plane]) * (x[i] - perChannel[plane]) / 3.0;
            }
            for (std::size_t i = plane * 4; i < plane * 4 + 4; ++i) {
                expected[i] = 2.0 * (x[i] - perChannel[plane]) / std::sqrt(var + 1e-5) + 1.0;
            }
        }
        read("instanceNormalise {2,3,4}", out.first, expected, 5e-5);
    }

    // Error cases.
    Tensor a = variable(FLOAT, {2, 3, 4}, std::vector<float>(24, 1.0f));
    Tensor one = variable(FLOAT, {4}, std::vector<float>(4, 1.0f));
    Tensor ints = graph.addVariable(INT, {2, 3}, "ints");
    poputil::mapTensorLinearly(graph, ints);
    Sequence unused;
    expectError("batch norm of a 1-D tensor",
                [&] { popnn::bn::batchNormStatistics(graph, one, 1e-5f, unused, false); });
    expectError("batch norm of INT",
                [&] { popnn::bn::batchNormStatistics(graph, ints, 1e-5f, unused, false); });
    expectError("group norm of 3 channels in 2 groups",
                [&] { popnn::gn::groupNormStatistics(graph, a, 1e-5f, unused, 2, false); });
    expectError("whiten with 4 statistics for 3 channels",
                [&] { popnn::bn::batchNormWhiten(graph, a, one, one, unused); });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    reportChecks(engine, checks);
    return 0;
}
