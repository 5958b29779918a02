#pragma once
// Where a view's visible columns end, for tests of columns that fill a pane.
#include <QHeaderView>

#include <algorithm>

namespace tessera::testing {

// The right edge, in viewport pixels, of the rightmost visible section.
inline int rightEdgeOfColumns(const QHeaderView& header) {
    int last = 0;
    for (int c = 0; c < header.count(); ++c) {
        if (!header.isSectionHidden(c)) {
            last = std::max(last, header.sectionViewportPosition(c) + header.sectionSize(c));
        }
    }
    return last;
}

} // namespace tessera::testing
