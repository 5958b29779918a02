#include "views/common/TileSelection.h"

#include <QRegularExpression>

#include <algorithm>

namespace tessera::views {

namespace {

// One tile number; false (and an error) for anything but decimal digits.
bool parseTile(const QString& text, const QString& item, int tileCount, int& tile, QString& error) {
    if (text.isEmpty() ||
        !std::all_of(text.begin(), text.end(), [](QChar c) { return c >= '0' && c <= '9'; })) {
        error = QString("'%1' is not a tile number or range (e.g. 0-3, 17)").arg(item);
        return false;
    }
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok); // fails only past 2^63: beyond any report
    if (!ok || value >= tileCount) {
        error = tileCount > 0 ? QString("tile %1 is beyond the report's %2 tiles (0-%3)")
                                    .arg(text)
                                    .arg(tileCount)
                                    .arg(tileCount - 1)
                              : QString("tile %1: the report has no tiles").arg(text);
        return false;
    }
    tile = static_cast<int>(value);
    return true;
}

} // namespace

std::vector<int> TileSelection::tiles() const {
    std::vector<int> out;
    for (const auto& r : ranges) {
        for (int t = r.first; t <= r.last; ++t) {
            out.push_back(t);
        }
    }
    return out;
}

int TileSelection::count() const {
    int n = 0;
    for (const auto& r : ranges) {
        n += r.last - r.first + 1;
    }
    return n;
}

bool TileSelection::contains(int tile) const {
    return std::any_of(ranges.begin(), ranges.end(),
                       [tile](const TileRange& r) { return r.first <= tile && tile <= r.last; });
}

TileSelection parseTileSelection(const QString& text, int tileCount) {
    TileSelection out;
    // Spaces around a dash belong to the range ("0 - 3"); other spaces and
    // commas separate items. En and em dashes read as a dash.
    QString normalized = text;
    normalized.replace(QChar(0x2013), '-').replace(QChar(0x2014), '-');
    normalized.replace(QRegularExpression("\\s*-\\s*"), "-");
    const QStringList items = normalized.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts);
    std::vector<TileRange> ranges;
    for (const QString& item : items) {
        const QStringList ends = item.split('-');
        TileRange r;
        if (ends.size() == 1) {
            if (!parseTile(ends[0], item, tileCount, r.first, out.error)) {
                return out;
            }
            r.last = r.first;
        } else if (ends.size() == 2) {
            if (!parseTile(ends[0], item, tileCount, r.first, out.error) ||
                !parseTile(ends[1], item, tileCount, r.last, out.error)) {
                return out;
            }
            if (r.last < r.first) {
                out.error = QString("range '%1' runs backwards (write %2-%3)")
                                .arg(item)
                                .arg(r.last)
                                .arg(r.first);
                return out;
            }
        } else {
            out.error = QString("'%1' is not a tile number or range (e.g. 0-3, 17)").arg(item);
            return out;
        }
        ranges.push_back(r);
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const TileRange& a, const TileRange& b) { return a.first < b.first; });
    for (const auto& r : ranges) {
        if (!out.ranges.empty() && r.first <= out.ranges.back().last + 1) {
            out.ranges.back().last = std::max(out.ranges.back().last, r.last);
        } else {
            out.ranges.push_back(r);
        }
    }
    return out;
}

QString formatTileSelection(const std::vector<TileRange>& ranges) {
    QStringList parts;
    for (const auto& r : ranges) {
        parts << (r.first == r.last ? QString::number(r.first)
                                    : QString("%1-%2").arg(r.first).arg(r.last));
    }
    return parts.join(", ");
}

} // namespace tessera::views
