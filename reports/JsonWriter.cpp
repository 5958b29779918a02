#include "reports/JsonWriter.h"

#include <charconv>
#include <cmath>

namespace tessera::reports {

std::string JsonWriter::escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                static constexpr char kHex[] = "0123456789abcdef";
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 0xf];
            } else {
                out += ch; // UTF-8 passes through unchanged
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::newline() {
    if (pretty_) {
        out_ += '\n';
        out_.append(stack_.size() * 2, ' ');
    }
}

void JsonWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!stack_.empty()) {
        if (!stack_.back().empty) {
            out_ += ',';
        }
        stack_.back().empty = false;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue();
    out_ += '{';
    stack_.push_back({false, true});
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty) {
        newline();
    }
    out_ += '}';
    if (stack_.empty() && pretty_) {
        out_ += '\n';
    }
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    beforeValue();
    out_ += '[';
    stack_.push_back({true, true});
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty) {
        newline();
    }
    out_ += ']';
    if (stack_.empty() && pretty_) {
        out_ += '\n';
    }
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    beforeValue();
    out_ += escape(name);
    out_ += pretty_ ? ": " : ":";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    beforeValue();
    out_ += escape(text);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
    beforeValue();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
    beforeValue();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(double number) {
    if (!std::isfinite(number)) {
        return null();
    }
    beforeValue();
    char buffer[32];
    // Shortest text that reads back as the same double.
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    out_.append(buffer, result.ptr);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    beforeValue();
    out_ += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    out_ += "null";
    return *this;
}

} // namespace tessera::reports
