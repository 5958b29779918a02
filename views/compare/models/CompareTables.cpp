#include "views/compare/models/CompareTables.h"

#include "reports/CompareFormat.h"
#include "views/common/Format.h"
#include "views/compare/CompareData.h"
#include "views/models/ProgramKinds.h"

#include <QStringList>

#include <functional>

namespace tessera::views {

namespace {

using reports::Change;
using reports::Delta;

QString changeText(Change change) {
    return QString::fromLatin1(reports::changeName(change));
}

CompareTone changeTone(Change change) {
    return change == Change::Added     ? CompareTone::Worse
           : change == Change::Removed ? CompareTone::Better
                                       : CompareTone::Neutral;
}

// The unit a CSV header names: "" for a count.
QString csvUnit(const std::string& unit) {
    return unit == "count" ? QString() : QString::fromStdString(unit);
}

// Columns over a vector of rows held by the CompareData (which owns them).
template <class Row>
class Columns {
public:
    Columns(const std::vector<Row>& rows, std::vector<CompareColumn>& out)
        : rows_(&rows)
        , out_(&out) {}

    template <class Get>
    void text(const QString& header, Get get) {
        const auto* rows = rows_;
        out_->push_back({header, false,
                         [rows, get](std::size_t r) { return QVariant(get((*rows)[r])); },
                         [rows, get](std::size_t r) { return get((*rows)[r]); }});
    }

    template <class Get>
    void number(const QString& header, const std::string& unit, Get get) {
        const auto* rows = rows_;
        out_->push_back(
            {header,
             true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]))); },
             [rows, get, unit](std::size_t r) { return valueText(get((*rows)[r]), unit); },
             {},
             csvUnit(unit)});
    }

    // Baseline, comparison, Δ and Δ% of one Delta of each row. The side a
    // row lacks (added / removed) shows as "—" but keeps its 0 as raw value.
    template <class Get>
    void delta(const QString& name, const std::string& unit, Get get, bool percent = true) {
        const auto* rows = rows_;
        auto side = [rows, get, unit](bool baseline) {
            return [rows, get, unit, baseline](std::size_t r) {
                const Row& row = (*rows)[r];
                const Change lacking = baseline ? Change::Added : Change::Removed;
                if (row.change == lacking) {
                    return QStringLiteral("—");
                }
                const Delta& d = get(row);
                return valueText(baseline ? d.baseline : d.comparison, unit);
            };
        };
        out_->push_back(
            {name + " (baseline)",
             true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]).baseline)); },
             side(true),
             {},
             csvUnit(unit)});
        out_->push_back(
            {name + " (comparison)",
             true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]).comparison)); },
             side(false),
             {},
             csvUnit(unit)});
        // Counts of things (executions, vertices...) are neither better nor worse.
        std::function<CompareTone(std::size_t)> tone;
        if (unit != "count") {
            tone = [rows, get](std::size_t r) { return toneOf(get((*rows)[r])); };
        }
        out_->push_back(
            {name + " Δ", true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]).delta())); },
             [rows, get, unit](std::size_t r) { return deltaText(get((*rows)[r]).delta(), unit); },
             tone, csvUnit(unit)});
        if (percent) {
            out_->push_back({name + " Δ%", true,
                             [rows, get](std::size_t r) {
                                 const auto p = get((*rows)[r]).percent();
                                 return p ? QVariant(*p) : QVariant();
                             },
                             [rows, get](std::size_t r) {
                                 return QString::fromStdString(
                                     reports::formatPercent(get((*rows)[r])));
                             },
                             tone, QStringLiteral("%")});
        }
    }

    void change() {
        const auto* rows = rows_;
        out_->push_back({QStringLiteral("Change"), false,
                         [rows](std::size_t r) { return QVariant(changeText((*rows)[r].change)); },
                         [rows](std::size_t r) { return changeText((*rows)[r].change); },
                         [rows](std::size_t r) { return changeTone((*rows)[r].change); }});
    }

private:
    const std::vector<Row>* rows_;
    std::vector<CompareColumn>* out_;
};

QString str(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

bool lowerIsBetter(const reports::Figure& figure) {
    return figure.unit != "count" || figure.key == "tiles-over-capacity";
}

CompareTone toneOf(const Delta& delta) {
    const std::int64_t d = delta.delta();
    return d > 0 ? CompareTone::Worse : d < 0 ? CompareTone::Better : CompareTone::Neutral;
}

QString valueText(std::int64_t value, const std::string& unit) {
    if (unit == "bytes" && value >= 0) {
        return formatBytes(static_cast<std::uint64_t>(value));
    }
    if (unit == "ns" && value >= 0) {
        return formatCyclesAsTime(static_cast<std::uint64_t>(value), 1e9); // 1 GHz: ns
    }
    return QString::fromStdString(reports::formatCount(value));
}

QString deltaText(std::int64_t delta, const std::string& unit) {
    if (unit == "bytes" || unit == "ns") {
        const std::uint64_t magnitude =
            delta < 0 ? 0 - static_cast<std::uint64_t>(delta) : static_cast<std::uint64_t>(delta);
        const QString sign = delta > 0   ? QStringLiteral("+")
                             : delta < 0 ? QStringLiteral("-")
                                         : QString();
        return sign + valueText(static_cast<std::int64_t>(magnitude), unit);
    }
    return QString::fromStdString(reports::formatCount(delta, true));
}

void fillTotals(CompareTableModel& model, const std::shared_ptr<const CompareData>& data) {
    if (!data) {
        model.clear();
        return;
    }
    const auto* rows = &data->diff.totals;
    auto get = [rows](std::size_t r) -> const reports::Figure& { return (*rows)[r]; };
    auto tone = [get](std::size_t r) {
        return lowerIsBetter(get(r)) ? toneOf(get(r).value) : CompareTone::Neutral;
    };
    std::vector<CompareColumn> columns;
    columns.push_back({QStringLiteral("Figure"), false,
                       [get](std::size_t r) { return QVariant(str(get(r).key)); },
                       [get](std::size_t r) { return str(get(r).label); }});
    columns.push_back(
        {QStringLiteral("Baseline"), true,
         [get](std::size_t r) { return QVariant(qlonglong(get(r).value.baseline)); },
         [get](std::size_t r) { return valueText(get(r).value.baseline, get(r).unit); }});
    columns.push_back(
        {QStringLiteral("Comparison"), true,
         [get](std::size_t r) { return QVariant(qlonglong(get(r).value.comparison)); },
         [get](std::size_t r) { return valueText(get(r).value.comparison, get(r).unit); }});
    columns.push_back(
        {QStringLiteral("Δ"), true,
         [get](std::size_t r) { return QVariant(qlonglong(get(r).value.delta())); },
         [get](std::size_t r) { return deltaText(get(r).value.delta(), get(r).unit); }, tone});
    columns.push_back({QStringLiteral("Δ%"), true,
                       [get](std::size_t r) {
                           const auto p = get(r).value.percent();
                           return p ? QVariant(*p) : QVariant();
                       },
                       [get](std::size_t r) { return str(reports::formatPercent(get(r).value)); },
                       tone, QStringLiteral("%")});
    // The figures' units differ by row: said in a column of their own.
    columns.push_back({QStringLiteral("Unit"), false,
                       [get](std::size_t r) { return QVariant(str(get(r).unit)); },
                       [get](std::size_t r) { return str(get(r).unit); }});
    model.setTable(data, rows->size(), std::move(columns));
}

void fillSteps(CompareTableModel& model, const std::shared_ptr<const CompareData>& data) {
    if (!data) {
        model.clear();
        return;
    }
    std::vector<CompareColumn> columns;
    using Row = reports::StepDelta;
    Columns<Row> c(data->diff.steps, columns);
    c.text(QStringLiteral("Step"), [](const Row& r) { return str(r.name); });
    c.text(QStringLiteral("Kind"), [](const Row& r) { return programKindText(r.kind); });
    c.change();
    c.delta(QStringLiteral("Cycles"), "cycles",
            [](const Row& r) -> const Delta& { return r.cycles; });
    c.delta(QStringLiteral("Per execution"), "cycles",
            [](const Row& r) -> const Delta& { return r.perExecution; });
    c.delta(
        QStringLiteral("Executions"), "count",
        [](const Row& r) -> const Delta& { return r.executions; }, false);
    c.delta(
        QStringLiteral("Compute"), "cycles", [](const Row& r) -> const Delta& { return r.compute; },
        false);
    c.delta(
        QStringLiteral("Exchange"), "cycles",
        [](const Row& r) -> const Delta& { return r.exchange; }, false);
    c.delta(
        QStringLiteral("Sync"), "cycles", [](const Row& r) -> const Delta& { return r.sync; },
        false);
    c.text(QStringLiteral("Identity"), [](const Row& r) { return str(r.identity); });
    model.setTable(data, data->diff.steps.size(), std::move(columns));
}

void fillComputeSets(CompareTableModel& model, const std::shared_ptr<const CompareData>& data) {
    if (!data) {
        model.clear();
        return;
    }
    std::vector<CompareColumn> columns;
    using Row = reports::ComputeSetDelta;
    Columns<Row> c(data->diff.computeSets, columns);
    c.text(QStringLiteral("Compute set"), [](const Row& r) { return str(r.identity); });
    c.change();
    c.delta(QStringLiteral("Cycles"), "cycles",
            [](const Row& r) -> const Delta& { return r.cycles; });
    c.delta(
        QStringLiteral("Compute"), "cycles", [](const Row& r) -> const Delta& { return r.compute; },
        false);
    c.delta(
        QStringLiteral("Vertices"), "count",
        [](const Row& r) -> const Delta& { return r.vertices; }, false);
    c.delta(
        QStringLiteral("Executions"), "count",
        [](const Row& r) -> const Delta& { return r.executions; }, false);
    model.setTable(data, data->diff.computeSets.size(), std::move(columns));
}

void fillLiveness(CompareTableModel& model, const std::shared_ptr<const CompareData>& data) {
    if (!data) {
        model.clear();
        return;
    }
    std::vector<CompareColumn> columns;
    using Row = reports::LivenessDelta;
    Columns<Row> c(data->diff.liveness, columns);
    c.text(QStringLiteral("Step"), [](const Row& r) { return str(r.name); });
    c.change();
    c.delta(QStringLiteral("Live bytes"), "bytes",
            [](const Row& r) -> const Delta& { return r.bytes; });
    c.delta(
        QStringLiteral("Largest tile"), "bytes",
        [](const Row& r) -> const Delta& { return r.maxTileBytes; }, false);
    c.delta(
        QStringLiteral("Live variables"), "count",
        [](const Row& r) -> const Delta& { return r.liveVariables; }, false);
    c.text(QStringLiteral("Identity"), [](const Row& r) { return str(r.identity); });
    model.setTable(data, data->diff.liveness.size(), std::move(columns));
}

void fillTiles(CompareTableModel& model, const std::shared_ptr<const CompareData>& data) {
    if (!data) {
        model.clear();
        return;
    }
    std::vector<CompareColumn> columns;
    using Row = reports::TileMemoryDelta;
    const auto* rows = &data->diff.tiles;
    columns.push_back(
        {QStringLiteral("Tile"), true,
         [rows](std::size_t r) { return QVariant(qlonglong((*rows)[r].tile.value())); },
         [rows](std::size_t r) { return QString::number((*rows)[r].tile.value()); }});
    // Tiles have no change state (only compared when the tile counts match).
    auto add = [&](const QString& name, auto get, bool percent) {
        auto tone = [rows, get](std::size_t r) { return toneOf(get((*rows)[r])); };
        columns.push_back(
            {name + " (baseline)", true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]).baseline)); },
             [rows, get](std::size_t r) { return valueText(get((*rows)[r]).baseline, "bytes"); }});
        columns.push_back(
            {name + " (comparison)", true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]).comparison)); },
             [rows, get](std::size_t r) {
                 return valueText(get((*rows)[r]).comparison, "bytes");
             }});
        columns.push_back(
            {name + " Δ", true,
             [rows, get](std::size_t r) { return QVariant(qlonglong(get((*rows)[r]).delta())); },
             [rows, get](std::size_t r) { return deltaText(get((*rows)[r]).delta(), "bytes"); },
             tone});
        if (percent) {
            columns.push_back({name + " Δ%", true,
                               [rows, get](std::size_t r) {
                                   const auto p = get((*rows)[r]).percent();
                                   return p ? QVariant(*p) : QVariant();
                               },
                               [rows, get](std::size_t r) {
                                   return str(reports::formatPercent(get((*rows)[r])));
                               },
                               tone});
        }
    };
    add(
        QStringLiteral("Total"), [](const Row& r) -> const Delta& { return r.total; }, true);
    add(
        QStringLiteral("Always-live"), [](const Row& r) -> const Delta& { return r.alwaysLive; },
        false);
    add(
        QStringLiteral("Not-always-live"),
        [](const Row& r) -> const Delta& { return r.notAlwaysLive; }, false);
    add(
        QStringLiteral("Gaps"), [](const Row& r) -> const Delta& { return r.gaps; }, false);
    model.setTable(data, rows->size(), std::move(columns));
}

void fillVariables(CompareTableModel& model, const std::shared_ptr<const CompareData>& data) {
    if (!data) {
        model.clear();
        return;
    }
    std::vector<CompareColumn> columns;
    using Row = reports::VariableDelta;
    Columns<Row> c(data->diff.variables, columns);
    c.text(QStringLiteral("Variable"), [](const Row& r) { return str(r.identity); });
    c.change();
    c.delta(QStringLiteral("Bytes"), "bytes", [](const Row& r) -> const Delta& { return r.bytes; });
    c.delta(
        QStringLiteral("Tiles"), "count", [](const Row& r) -> const Delta& { return r.tiles; },
        false);
    c.text(QStringLiteral("What changed"), [](const Row& r) {
        QStringList what;
        if (r.typeOrShapeChanged) {
            what << QStringLiteral("type or shape");
        }
        if (r.alwaysLiveChanged) {
            what << QStringLiteral("always-live");
        }
        if (r.placementChanged) {
            what << QStringLiteral("placement");
        }
        if (r.bytes.delta() != 0) {
            what << QStringLiteral("size");
        }
        return what.join(QStringLiteral(", "));
    });
    model.setTable(data, data->diff.variables.size(), std::move(columns));
}

} // namespace tessera::views
