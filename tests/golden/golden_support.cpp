#include "golden_support.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "value/format.h"

namespace oprec::golden {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::runtime_error("golden data: " + what); }

// Python's float.hex text back to the double (strtod reads "0x1.8p+1", "inf", "nan").
double from_hex(const std::string& hex) {
    char* end = nullptr;
    const double x = std::strtod(hex.c_str(), &end);
    if (end == hex.c_str() || *end != '\0') bad("not a float hex: " + hex);
    return x;
}

// A number of the case typed by its Python type; floats from their exact hex.
Value typed_number(const nlohmann::json& value, const std::string& type, const nlohmann::json& hexes,
                   const std::string& name) {
    if (type == "int") return Value::integer(value.get<std::int64_t>());
    if (type == "bool") return Value::boolean(value.get<bool>());
    if (type == "float") {
        if (!hexes.contains(name)) bad("no float hex for " + name);
        return Value::real(from_hex(hexes.at(name).get<std::string>()));
    }
    bad("unexpected type " + type + " of " + name);
}

std::optional<Value> context_number(const nlohmann::json& golden_case, const std::string& name) {
    const auto& context = golden_case.at("context");
    if (!context.contains(name)) return std::nullopt;
    return typed_number(context.at(name), golden_case.at("context_types").at(name).get<std::string>(),
                        golden_case.value("context_float_hex", nlohmann::json::object()), name);
}

}  // namespace

nlohmann::json load_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) bad("cannot open " + path);
    std::stringstream text;
    text << in.rdbuf();
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        bad(path + ": " + e.what());
    }
}

LayerConfig layer_config(const nlohmann::json& golden_case) {
    const auto& types = golden_case.at("config_types");
    const auto hexes = golden_case.value("config_float_hex", nlohmann::json::object());
    LayerConfig config;
    for (const auto& [name, value] : golden_case.at("config").items()) {
        const auto type = types.at(name).get<std::string>();
        if (type == "none") {
            config.set(name, std::monostate{});
        } else if (type == "str") {
            config.set(name, value.get<std::string>());
        } else {
            config.set(name, typed_number(value, type, hexes, name));
        }
    }
    return config;
}

SwitchMap switch_map(const nlohmann::json& values) {
    SwitchMap switches;
    for (const auto& [name, value] : values.items()) {
        // Normalised to int 0/1, as the project holds switches.
        if (value.is_boolean()) {
            switches.insert_or_assign(name, Value::integer(value.get<bool>() ? 1 : 0));
        } else if (value.is_number_integer() && (value == 0 || value == 1)) {
            switches.insert_or_assign(name, Value::integer(value.get<std::int64_t>()));
        } else {
            bad("switch " + name + " is " + value.dump());
        }
    }
    return switches;
}

EvalContext eval_context(const nlohmann::json& golden_case) {
    const auto& context = golden_case.at("context");
    EvalContext out;
    out.micro_factor = context_number(golden_case, "micro_factor");
    out.dropless_tok_factor = context_number(golden_case, "dropless_tok_factor");
    const auto node = context.at("current_node").get<std::string>();
    const auto kind = parse_node_kind(node);
    if (!kind) bad("unknown current_node " + node);
    out.node = *kind;
    const auto& ctx_switches = context.at("ctx_switches");
    if (ctx_switches.at("kind") == "mapping") out.switches = switch_map(ctx_switches.at("values"));
    return out;
}

SwitchMap layer_switches(const nlohmann::json& golden_case) {
    const auto& rec_op = golden_case.at("context").at("rec_op");
    const auto kind = rec_op.at("kind").get<std::string>();
    if (kind == "mapping" || kind == "object") return switch_map(rec_op.at("values"));
    if (kind == "none" || kind == "absent") return {};
    bad("unknown rec_op kind " + kind);
}

LayerDoc layer_doc(const nlohmann::json& golden_case) {
    return LayerDoc{layer_config(golden_case), layer_switches(golden_case), eval_context(golden_case)};
}

Value ffn_width(const nlohmann::json& golden_case) {
    return typed_number(golden_case.at("ffn_width"),
                        golden_case.at("context_types").at("ffn_width").get<std::string>(),
                        golden_case.value("context_float_hex", nlohmann::json::object()), "ffn_width");
}

Value decode(const nlohmann::json& encoded) {
    const auto type = encoded.value("type", std::string());
    if (type == "int") {
        if (!encoded.value("fits_int64", true)) bad("int beyond int64: " + encoded.dump());
        return Value::integer(std::stoll(encoded.at("repr").get<std::string>()));
    }
    if (type == "float") return Value::real(from_hex(encoded.at("hex").get<std::string>()));
    if (type == "bool") return Value::boolean(encoded.at("repr") == "True");
    bad("not an int, float or bool: " + encoded.dump());
}

std::optional<ErrorKind> error_kind_for(std::string_view python_class) {
    if (python_class == "AttributeError") return ErrorKind::MissingField;
    if (python_class == "ZeroDivisionError") return ErrorKind::DivisionByZero;
    if (python_class == "TypeError") return ErrorKind::TypeError;
    if (python_class == "OverflowError") return ErrorKind::Overflow;
    if (python_class == "KeyError") return ErrorKind::UnknownSlot;
    if (python_class == "ModelSpecError") return ErrorKind::UnknownOp;
    if (python_class == "UnboundName") return ErrorKind::UnboundName;
    return std::nullopt;
}

bool matches(const nlohmann::json& expected, Value got) {
    if (!expected.contains("type")) return false;
    const auto type = expected.at("type").get<std::string>();
    const auto repr = expected.at("repr").get<std::string>();
    if (type == "int") return got.is_int() && std::to_string(got.i) == repr;
    if (type == "float") return got.is_float() && float_hex(got.f) == expected.at("hex").get<std::string>();
    if (type == "bool") return got.is_bool() && repr == (got.b ? "True" : "False");
    return false;
}

bool error_matches(const nlohmann::json& expected, const EvalError& error) {
    if (!expected.contains("error")) return false;
    return error_kind_for(expected.at("error").get<std::string>()) == error.kind();
}

std::string describe(const nlohmann::json& expected) {
    if (expected.contains("error"))
        return expected.at("error").get<std::string>() + " (" + expected.value("message", std::string()) + ")";
    const auto type = expected.value("type", std::string("?"));
    std::string text = type + " " + expected.value("repr", std::string());
    if (type == "float") text += " [" + expected.value("hex", std::string()) + "]";
    return text;
}

std::string describe(Value got) {
    std::string text = std::string(type_name(got.type)) + " " + repr(got);
    if (got.is_float()) text += " [" + float_hex(got.f) + "]";
    return text;
}

std::string describe(const EvalError& error) {
    return std::string("error ") + error_kind_name(error.kind()) + " (" + error.what() + ")";
}

}  // namespace oprec::golden
