// poplar::OptionFlags: string options, built from braced lists
// {{"key", "value"}, ...}.
#ifndef TESSERA_POPLAR_OPTIONFLAGS_HPP
#define TESSERA_POPLAR_OPTIONFLAGS_HPP

#include <initializer_list>
#include <map>
#include <string>
#include <utility>

namespace poplar {

class OptionFlags {
public:
    typedef std::pair<const std::string, std::string> OptionFlag;
    typedef std::map<std::string, std::string>::const_iterator const_iterator;

    OptionFlags() {}
    OptionFlags(std::initializer_list<OptionFlag> flags)
        : flags_(flags.begin(), flags.end()) {}

    void set(const std::string& key, const std::string& value) { flags_[key] = value; }
    void set(std::initializer_list<OptionFlag> flags) {
        for (std::initializer_list<OptionFlag>::const_iterator it = flags.begin();
             it != flags.end(); ++it) {
            flags_[it->first] = it->second;
        }
    }
    const std::string& at(const std::string& key) const { return flags_.at(key); }
    bool has(const std::string& key) const { return flags_.count(key) != 0; }
    void remove(const std::string& key) { flags_.erase(key); }
    void clear() { flags_.clear(); }
    bool empty() const { return flags_.empty(); }
    const_iterator begin() const { return flags_.begin(); }
    const_iterator end() const { return flags_.end(); }

private:
    std::map<std::string, std::string> flags_;
};

} // namespace poplar

#endif
