#pragma once
// Variables built by hand for the variable tables' tests (Liveness, Memory,
// step comparison), every figure chosen here so tests compare with literals.
#include "views/data/ReportData.h"

#include <memory>
#include <string>

namespace tessera::testing {

// A not-always-live float variable of `bytes` (bytes / 4 elements, shape
// [bytes / 4]) on one tile, live at steps 0 to 1.
inline reports::VariableEntry variable(std::uint32_t id, const std::string& name,
                                       std::uint64_t bytes) {
    reports::VariableEntry v;
    v.id = record::VariableId{static_cast<std::uint32_t>(id)};
    v.name = name;
    v.type = "float";
    v.shape = {bytes / 4};
    v.numElements = bytes / 4;
    v.totalBytes = bytes;
    v.numTiles = 1;
    v.firstStep = record::StepId{0u};
    v.lastStep = record::StepId{1u};
    return v;
}

// Six variables under three name hierarchies, all as variable() makes them.
inline std::shared_ptr<views::ReportData> variablesReport() {
    auto data = std::make_shared<views::ReportData>();
    data->variables = {
        variable(0, "layer1/matmul/weights", 1000), variable(1, "layer1/matmul/out", 500),
        variable(2, "layer1/relu/out", 200),        variable(3, "m4/Conv_1/worklists/a", 30),
        variable(4, "m4/Conv_1/worklists/b", 20),   variable(5, "controlId", 8)};
    return data;
}

// variablesReport()'s six with their kinds, live steps, types and tiles
// varied, and a seventh of the same size as another (a tie), over steps 0-3:
//
//   id  name                    bytes  type   shape   tiles  kind             live steps
//   0   layer1/matmul/weights   1000   float  [250]   4      always-live      always
//   1   layer1/matmul/out        500   float  [125]   2      not-always-live  1 - 3
//   2   layer1/relu/out          200   half   [10,10] 1      not-always-live  2
//   3   m4/Conv_1/worklists/a     30   char   [30]    1      exchange buffer  0 - 1
//   4   m4/Conv_1/worklists/b     20   float  [5]     1      not-always-live  0 - 3
//   5   controlId                  8   int    [2]     1      constant         always
//   6   layer2/out               500   float  [125]   3      not-always-live  3
inline std::shared_ptr<views::ReportData> variedVariablesReport() {
    auto data = variablesReport();
    auto& v = data->variables;
    const auto none = record::StepId::none();
    auto live = [](reports::VariableEntry& e, record::StepId first, record::StepId last) {
        e.firstStep = first;
        e.lastStep = last;
    };
    v[0].alwaysLive = true;
    v[0].numTiles = 4;
    live(v[0], none, none);
    v[1].numTiles = 2;
    live(v[1], record::StepId{1u}, record::StepId{3u});
    v[2].type = "half";
    v[2].shape = {10, 10};
    v[2].numElements = 100;
    live(v[2], record::StepId{2u}, record::StepId{2u});
    v[3].type = "char";
    v[3].shape = {30};
    v[3].numElements = 30;
    v[3].isExchangeBuffer = true;
    live(v[4], record::StepId{0u}, record::StepId{3u});
    v[5].type = "int";
    v[5].isConstant = true;
    v[5].alwaysLive = true;
    live(v[5], none, none);
    v.push_back(variable(6, "layer2/out", 500));
    v[6].numTiles = 3;
    live(v[6], record::StepId{3u}, record::StepId{3u});
    return data;
}

} // namespace tessera::testing
