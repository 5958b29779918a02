#pragma once
// A read-only table over rows of a ReportDiff, its columns described by
// functions of the row index (CompareTables.h builds the ones the compare
// panes show). DisplayRole is text for people, kSortRole the raw number (the
// same integer `tessera-cli diff --json` prints), ForegroundRole colours
// regressions and improvements (worseColor / betterColor of the application
// palette), kToneRole says which (a CompareTone).
#include "views/models/ModelRoles.h"

#include <QAbstractTableModel>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace tessera::views {

inline constexpr int kToneRole = Qt::UserRole + 3;

enum class CompareTone { Neutral, Better, Worse };

struct CompareColumn {
    QString header;
    bool numeric = true;
    std::function<QVariant(std::size_t row)> value; // kSortRole: qlonglong, double or text
    std::function<QString(std::size_t row)> text;   // DisplayRole
    std::function<CompareTone(std::size_t row)> tone = {};
    QString unit = {}; // a numeric column's unit for CSV ("bytes", "cycles", "%", "" a count)
};

class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit CompareTableModel(QObject* parent = nullptr);

    // `owner` keeps what the column functions read alive.
    void setTable(std::shared_ptr<const void> owner, std::size_t rows,
                  std::vector<CompareColumn> columns);
    void clear();

    int columnOf(const QString& header) const; // -1 when there is none
    CompareTone toneAt(int row, int column) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const void> owner_;
    std::size_t rows_ = 0;
    std::vector<CompareColumn> columns_;
};

} // namespace tessera::views
