#pragma once
// The vertices a program step runs, one row per codelet: how many vertices of
// it the step's compute set holds, on how many tiles, their state bytes, the
// codelet's code size and its cycle estimate as the report states it (a
// formula of the vertex's work size: the report keeps no per-vertex size, so
// no per-step number). A step with no compute set (exchange, sync, copy...)
// has no rows. Display text is formatted; raw values are under kSortRole.
#include "views/data/ReportData.h"
#include "views/models/ModelRoles.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tessera::views {

class StepVerticesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Codelet, Vertices, Tiles, StateBytes, CodeBytes, CycleEstimate, ColumnCount };

    struct Row {
        record::CodeletId codelet;
        QString name;
        std::uint64_t vertices = 0;
        std::uint32_t tiles = 0;
        std::uint64_t stateBytes = 0;
        std::uint64_t codeBytes = 0;
        QString cycleFormula;
    };

    explicit StepVerticesModel(QObject* parent = nullptr);

    // Rows of `step`'s compute set, the most vertices first. Null data or an
    // unknown step clears the model.
    void setStep(const std::shared_ptr<const ReportData>& data, std::uint32_t step);
    void clear();

    const std::vector<Row>& rows() const { return rows_; }
    std::uint64_t totalVertices() const { return totalVertices_; }
    std::uint32_t tilesUsed() const { return tilesUsed_; }   // tiles running any of them
    std::uint32_t computeSet() const { return computeSet_; } // reports::kNone: none

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> rows_;
    std::uint64_t totalVertices_ = 0;
    std::uint32_t tilesUsed_ = 0;
    std::uint32_t computeSet_ = reports::kNone;
};

} // namespace tessera::views
