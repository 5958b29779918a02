#pragma once
// A LiveVariablesModel's variables grouped by their debug-name hierarchy, as
// PopVision's liveness tables are: "layer1/matmul/weights" sits under
// "layer1", then "matmul". A group row carries the sum of its variables'
// bytes and their count; a group whose only child is another group reads as
// one row ("m4/Conv_1/worklists"). Variable rows show the last part of the
// name and forward every other column to the flat model, so both read alike.
// Same columns as LiveVariablesModel; kIdRole is unset on group rows.
#include "views/models/LiveVariablesModel.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace tessera::views {

class LiveVariablesTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    // The full "/"-separated name of a row (a group's is its prefix): filter on it.
    static constexpr int kPathRole = Qt::UserRole + 20;

    // Follows `flat` (its resets rebuild the tree); `flat` outlives this model.
    explicit LiveVariablesTreeModel(LiveVariablesModel* flat, QObject* parent = nullptr);
    ~LiveVariablesTreeModel() override;

    // The row of variable `id`, or an invalid index.
    QModelIndex indexOfVariable(std::uint32_t id) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    struct Node;

private:
    void rebuild();
    const Node* node(const QModelIndex& index) const;
    QVariant groupData(const Node& n, int column, int role) const;

    LiveVariablesModel* flat_;
    std::unique_ptr<Node> root_;
    std::vector<const Node*> leaves_; // by the flat model's row
};

} // namespace tessera::views
