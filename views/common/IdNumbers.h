#pragma once
// The strong ids (engine/record/Ids.h) at the Qt boundary: item-model roles,
// QVariants and spin boxes carry an id as a number, -1 for none(). Everything
// behind the boundary (the Selection, the panes' state) keeps the id's type.
#include "engine/record/Ids.h"

#include <QDebug>
#include <QMetaType>
#include <QVariant>

#include <limits>

namespace tessera::views {

// The id as a number for Qt: its value, -1 for none().
template <class Tag, class T>
constexpr int idNumber(record::Typedef<Tag, T> id) {
    return id.isNone() ? -1 : static_cast<int>(id.value());
}

// The id a number from Qt stands for: a negative number (or one out of the
// id's range) is none().
template <class Id>
constexpr Id idFromNumber(qint64 number) {
    using T = typename Id::value_type;
    if (number < 0 || static_cast<quint64>(number) >= std::numeric_limits<T>::max()) {
        return Id::none();
    }
    return Id{static_cast<T>(number)};
}

// The id a QVariant holds: the id itself, or a number as idFromNumber reads
// it. A variant that holds neither (invalid, not a number) is none().
template <class Id>
Id idFromVariant(const QVariant& value) {
    if (value.metaType() == QMetaType::fromType<Id>()) {
        return value.value<Id>();
    }
    bool ok = false;
    const qint64 number = value.toLongLong(&ok);
    return ok ? idFromNumber<Id>(number) : Id::none();
}

// The id as a QVariant for an item model's role: idNumber(id).
template <class Tag, class T>
QVariant idVariant(record::Typedef<Tag, T> id) {
    return QVariant(idNumber(id));
}

} // namespace tessera::views

namespace tessera::record {
// "id(3)", "id(none)": qDebug() and QCOMPARE's failure messages.
template <class Tag, class T>
QDebug operator<<(QDebug debug, Typedef<Tag, T> id) {
    const QDebugStateSaver saver(debug);
    debug.nospace() << "id(";
    if (id.isNone()) {
        debug << "none";
    } else {
        debug << id.value();
    }
    return debug << ')';
}
} // namespace tessera::record

// No Q_DECLARE_METATYPE: Qt 6 registers the ids by themselves where they
// travel, in signals (queued too, and QSignalSpy) through moc's metatypes and
// in QVariants through QMetaType::fromType.
