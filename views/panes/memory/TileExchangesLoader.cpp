#include "views/panes/memory/TileExchangesLoader.h"

namespace tessera::views {

TileExchangesLoader::TileExchangesLoader(TileExchangesModel* model)
    : QObject(model)
    , model_(model) {
    connect(&task_.watcher(), &QFutureWatcher<void>::finished, this, &TileExchangesLoader::read);
}

TileExchangesLoader::~TileExchangesLoader() {
    cancel_->store(true); // the worker holds what it reads; it just stops early
}

void TileExchangesLoader::cancel() {
    cancel_->store(true);
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    pending_ = false;
}

void TileExchangesLoader::load(std::vector<int> tiles) {
    cancel(); // a read for an older selection is not wanted
    const auto& report = model_->report();
    if (tiles.empty() || !report || !model_->fetch()) {
        model_->setTiles(tiles); // the stored sums: no step arrays to read
        emit loaded();
        return;
    }
    task_.start([report, fetch = model_->fetch(), tiles, c = cancel_] {
        return TileExchangesModel::computeRows(*report, fetch, tiles, c.get());
    });
    tiles_ = std::move(tiles);
    pending_ = true;
}

void TileExchangesLoader::read() {
    if (!pending_) {
        return; // superseded by rows shown since (all tiles, or another report)
    }
    TileExchangesModel::Rows rows = task_.take();
    if (rows.cancelled) {
        return; // a newer read follows
    }
    pending_ = false;
    model_->setRows(std::move(rows), tiles_);
    emit loaded();
}

} // namespace tessera::views
