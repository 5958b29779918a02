#pragma once
// A program step's cycles per tile, summarised: one row per phase (compute,
// exchange, sync) with the maximum, mean and minimum over the target's tiles
// and the tile that takes the longest, from the step's per-tile arrays
// (reports::StepTiles). Display text is formatted; raw values under kSortRole.
#include "reports/ReportTypes.h"
#include "views/models/ModelRoles.h"

#include <QAbstractTableModel>

#include <array>

namespace tessera::views {

class StepCyclesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Phase, Max, Mean, Min, MaxTile, ColumnCount };
    enum PhaseRow { Compute, Exchange, Sync, RowCount };

    struct Stats {
        std::uint64_t max = 0;
        double mean = 0;
        std::uint64_t min = 0;
        std::uint32_t maxTile = 0; // the lowest-numbered tile at the maximum
    };

    explicit StepCyclesModel(QObject* parent = nullptr);

    void setTiles(const reports::StepTiles& tiles);
    void clear();

    bool hasStep() const { return hasStep_; }
    const Stats& stats(PhaseRow phase) const { return stats_[phase]; }
    std::uint64_t totalCycles() const { return totalCycles_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::array<Stats, RowCount> stats_{};
    std::uint64_t totalCycles_ = 0;
    bool hasStep_ = false;
};

} // namespace tessera::views
