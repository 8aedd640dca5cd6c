#include "check/program.h"

namespace oprec {

namespace {
template <class T, class Name>
std::optional<std::uint32_t> find_by(const std::vector<T>& items, std::string_view name, Name get) {
    for (std::size_t i = 0; i < items.size(); ++i)
        if (get(items[i]) == name) return static_cast<std::uint32_t>(i);
    return std::nullopt;
}
}  // namespace

std::optional<SlotId> Program::find_slot(std::string_view name) const {
    return find_by(slots, name, [](const SlotInfo& s) -> const std::string& { return s.name; });
}

std::optional<RecordId> Program::find_record(std::string_view name) const {
    return find_by(records, name, [](const RecordInfo& r) -> const std::string& { return r.name; });
}

std::optional<NameId> Program::find_name(std::string_view name) const {
    return find_by(names, name, [](const std::string& n) -> const std::string& { return n; });
}

const FieldInfo* Program::find_field(std::string_view name) const {
    for (const FieldInfo& f : fields)
        if (f.name == name) return &f;
    return nullptr;
}

bool Program::counts_for(RecordId entry_record, RecordId only) const {
    if (entry_record == only) return true;
    const RecordInfo& r = records[entry_record];
    return r.part_of && *r.part_of == only;
}

std::vector<SlotId> Program::keeps(RecordId record) const {
    std::vector<SlotId> out;
    for (SlotId s = 0; s < slots.size(); ++s)
        for (const SlotEntryInfo& e : slots[s].entries)
            if (counts_for(e.record, record)) {
                out.push_back(s);
                break;
            }
    return out;
}

}  // namespace oprec
