#pragma once
// A minimal streaming JSON writer (objects, arrays, strings, numbers, bools,
// null), pretty-printed with two-space indents. Enough for summaries and
// exports; it does not validate call order beyond what the output needs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::reports {

class JsonWriter {
public:
    explicit JsonWriter(bool pretty = true)
        : pretty_(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint32_t number) { return value(std::uint64_t{number}); }
    JsonWriter& value(double number); // non-finite numbers become null
    JsonWriter& value(bool flag);
    JsonWriter& null();

    const std::string& str() const { return out_; }

    static std::string escape(std::string_view text); // with the quotes

private:
    void beforeValue();
    void newline();

    struct Level {
        bool array = false;
        bool empty = true;
    };
    bool pretty_;
    bool afterKey_ = false;
    std::vector<Level> stack_;
    std::string out_;
};

} // namespace tessera::reports
