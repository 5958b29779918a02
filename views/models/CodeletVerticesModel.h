#pragma once
// What the Memory pane's Vertices tab (TileVerticesModel) and the Liveness
// pane's vertices of a step (StepVerticesModel) share: the report's vertex
// counts of some tiles and compute sets, summed per codelet, the most
// vertices first (then by name). Each subclass chooses which entries count
// and which columns it shows. Display text is formatted; raw values are
// under kSortRole, the codelet id under kIdRole.
#include "views/data/ReportData.h"

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace tessera::views {

class CodeletVerticesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    struct Row {
        record::CodeletId codelet;
        QString name;
        std::uint64_t vertices = 0;
        std::uint32_t tiles = 0;       // tiles holding any of them
        std::uint32_t computeSets = 0; // compute sets holding any of them
        std::uint64_t stateBytes = 0;
        std::uint64_t codeBytes = 0; // the codelet's code size
        QString cycleFormula;        // as the report states it; empty: none
    };

    enum class Field {
        Codelet,
        Vertices,
        Tiles,
        ComputeSets,
        StateBytes,
        CodeBytes,
        CycleEstimate
    };
    struct ColumnSpec {
        Field field;
        const char* title;
        const char* tip = nullptr; // header tool tip
    };

    const std::vector<Row>& rows() const { return rows_; }
    std::uint64_t totalVertices() const { return totalVertices_; }
    std::uint32_t tilesUsed() const { return tilesUsed_; } // tiles holding any vertex counted

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    CodeletVerticesModel(std::vector<ColumnSpec> columns, QObject* parent);

    // Resets the model to the codelets of the entries `counts` accepts
    // (entries without vertices never count); null data: no rows.
    void fill(const ReportData* data,
              const std::function<bool(const record::VertexCountRecord&)>& counts);

private:
    std::vector<ColumnSpec> columns_;
    std::vector<Row> rows_;
    std::uint64_t totalVertices_ = 0;
    std::uint32_t tilesUsed_ = 0;
};

} // namespace tessera::views
