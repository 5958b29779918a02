#include "views/common/HandOver.h"

#include <QEvent>

namespace tessera::views {

const HandOver& poolHandOver() {
    static const HandOver handOver;
    return handOver;
}

bool HandOverPort::event(QEvent* event) {
    if (event->type() == QEvent::MetaCall) {
        handOver_.received();
    }
    return QObject::event(event);
}

} // namespace tessera::views
