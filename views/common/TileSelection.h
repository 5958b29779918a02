#pragma once
// A set of tiles typed by the user, "0-3, 17": numbers and inclusive ranges
// separated by commas or spaces. Parsing checks every tile against the
// report's tile count and names the first bad item.
#include <QString>

#include <vector>

namespace tessera::views {

struct TileRange {
    int first = 0;
    int last = 0; // inclusive
    bool operator==(const TileRange&) const = default;
};

struct TileSelection {
    std::vector<TileRange> ranges; // ascending, merged where they touch
    QString error;                 // empty when the text parsed
    bool ok() const { return error.isEmpty(); }
    bool empty() const { return ranges.empty(); }
    std::vector<int> tiles() const; // ascending, each once
    int count() const;
    bool contains(int tile) const;
};

// Empty or blank text is an empty selection, not an error.
TileSelection parseTileSelection(const QString& text, int tileCount);
// The canonical text of a selection: "0-3, 17".
QString formatTileSelection(const std::vector<TileRange>& ranges);

} // namespace tessera::views
