#pragma once
// Fills a TileExchangesModel for a tile selection: all tiles at once (the
// steps' stored sums), a selection on a worker (every exchanging step's tile
// arrays are read), the newest load replacing any read still running.
#include "views/common/BackgroundTask.h"
#include "views/models/TileExchangesModel.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

namespace tessera::views {

class TileExchangesLoader : public QObject {
    Q_OBJECT

public:
    explicit TileExchangesLoader(TileExchangesModel* model); // owned by the model
    ~TileExchangesLoader() override;

    void load(std::vector<int> tiles); // ascending; empty: all tiles
    void cancel();                     // a read in progress is dropped
    bool isReading() const { return pending_; }

signals:
    void loaded(); // the model holds the rows of the latest load

private:
    void read();

    TileExchangesModel* model_;
    BackgroundTask<TileExchangesModel::Rows> task_;
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>();
    std::vector<int> tiles_; // what the read in progress is for
    bool pending_ = false;   // until the latest read's rows are in the model
};

} // namespace tessera::views
