#pragma once
// The Memory pane's Exchanges tab: per program step, the bytes the selected
// tiles (all tiles when none are selected) receive and send, from the
// report's per-step tile arrays. Steps where they exchange nothing are left
// out. DisplayRole is formatted; kSortRole raw (the Kind column sorts in
// record::ProgramKind order, as the engine declares kinds); kIdRole the step id.
// All tiles come from the steps' stored sums; a selection reads every
// exchanging step's arrays, which computeRows does on any thread.
#include "reports/ReportTypes.h"

#include <QAbstractTableModel>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;

class TileExchangesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Step, Kind, BytesIn, BytesOut, ColumnCount };
    // One step's tile arrays (ReportSource::stepTiles); may throw ReportError.
    using StepTilesFetch =
        std::function<std::shared_ptr<const reports::StepTiles>(record::StepId step)>;

    explicit TileExchangesModel(QObject* parent = nullptr);

    struct Row {
        record::StepId step;
        QString name;
        record::ProgramKind kind = record::ProgramKind::Execute;
        std::uint64_t bytesIn = 0;
        std::uint64_t bytesOut = 0;
    };
    struct Rows {
        std::vector<Row> rows;
        QString error; // the first step that could not be read
        bool cancelled = false;
    };
    // The rows for `tiles` (ascending; empty: all tiles, from the stored
    // sums). Thread-safe given a thread-safe fetch; stops when *cancel is set.
    static Rows computeRows(const ReportData& data, const StepTilesFetch& fetch,
                            const std::vector<int>& tiles,
                            const std::atomic<bool>* cancel = nullptr);

    void setReport(std::shared_ptr<const ReportData> data, StepTilesFetch fetch);
    // computeRows here and now; a step that fails to read is named in error().
    void setTiles(const std::vector<int>& tiles);
    // Rows computed elsewhere (a worker) for `tiles`.
    void setRows(Rows rows, std::vector<int> tiles);
    const QString& error() const { return error_; }
    const std::shared_ptr<const ReportData>& report() const { return data_; }
    const StepTilesFetch& fetch() const { return fetch_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ReportData> data_;
    StepTilesFetch fetch_;
    std::vector<int> tiles_;
    std::vector<Row> rows_;
    QString error_;
};

} // namespace tessera::views
