#include "repl/commands.h"

#include <fmt/format.h>

#include "repl/output.h"

namespace oprec::repl {

const std::vector<CommandInfo>& command_table() {
    static const std::vector<CommandInfo> table{
        {"set", "set NAME=VALUE ...", "state fields of the layer",
         "States layer fields. A value is a number (8, 2.5), true/false, none (stated as none)\n"
         "or a string (ulysses_cp). Names are checked against the records' field schema.\n"
         "micro_factor and dropless_tok_factor set the context.\n"
         "  set t=8 cp=2\n  set cp_algo=ulysses_cp qk_nope_head_dim=none"},
        {"unset", "unset NAME ...", "forget fields (a formula reading one then fails)",
         "Forgets layer fields, as if the layer document left them out: a record's\n"
         "default then applies, or reading the field fails.\n  unset n_qknorm"},
        {"switch", "switch NAME|all on|off ...", "keep (on) or recompute (off) an op's activations",
         "Sets recompute switches: on (1) keeps the op's activations, off (0) recomputes\n"
         "them; `all` names every switch. Switches take effect on a selective layer\n"
         "(`node selective`). With no arguments, lists every switch and its state.\n"
         "  switch softmax off\n  switch all on\n  switch attBMM=0 dropout=0"},
        {"node", "node plain|selective|full", "the layer's kind: no, selective or full recompute",
         "Sets how the layer is priced: plain (NOT_REC_LAYER) keeps every op,\n"
         "selective (SEL_REC_LAYER) obeys the switches, full (FULL_REC_LAYER).\n"
         "With no argument, shows the kind.\n  node selective"},
        {"context", "context micro_factor=N dropless_tok_factor=N", "the evaluation context's values",
         "Sets the evaluation context: micro_factor (micro-batches held at the peak) and\n"
         "dropless_tok_factor (token-load imbalance of dropless routing); none leaves one\n"
         "unset. With no arguments, shows the context.\n  context micro_factor=2 dropless_tok_factor=1.5"},
        {"show", "show", "the layer document, as `oprec eval` reads it",
         "Prints the current layer as a JSON layer document: fields, switches, context.\n"
         "Save it to a file and price it with `oprec eval FILE`."},
        {"load", "load FILE", "read a layer document (JSON)",
         "Replaces the layer with the document in FILE (as `oprec eval` takes it).\n  load examples/llama2-7b.json"},
        {"SLOT", "SLOT [only OP]", "a slot's bytes; with `only`, one op (or part) alone",
         "Prices one slot of the layer, under its switches, in exact bytes and\n"
         "human units; `only OP` prices it with that op (and its parts) alone.\n"
         "  qkv\n  qkv only attMM"},
        {"layer", "layer", "every slot the layer holds, by part, and the total",
         "Prices every slot the layer holds, with the part totals and the layer's total."},
        {"ops", "ops", "every op's and part's bytes alone, by slot",
         "For every op and part, its bytes priced alone in each held slot it keeps\n"
         "anything in (the reference's op bytes)."},
        {"params", "params", "the layer's parameter counts",
         "The parameter counts of the native evaluators: attn, mla, ffn, routed_expert,\n"
         "router, shared_expert, norm."},
        {"explain", "explain SLOT", "where a slot's bytes come from",
         "Shows the slot as the records write it, each entry's elements and whether the\n"
         "layer keeps or recomputes it, `total` (the kept elements' sum) and the bytes.\n"
         "  explain score"},
        {"diff", "diff A [B]", "the layer's bytes under two settings, side by side",
         "Prices the layer twice, with setting A and with setting B (with one setting:\n"
         "as it is, and with A), slot by slot. A setting is NAME=VALUE, several joined\n"
         "by commas; NAME is a switch, a field, node, micro_factor or dropless_tok_factor.\n"
         "  diff softmax=0 softmax=1\n  diff t=4 t=8\n  diff node=plain node=selective,softmax=0"},
        {"EXPR", "EXPR", "an expression over the layer's fields",
         "Evaluates an expression of the records' language (Python's arithmetic) over\n"
         "the layer: its fields, the records' defaults, micro_factor,\n"
         "dropless_tok_factor, kv_shards, and slot names for their bytes.\n"
         "  s * b * h / t\n  qkv + score + proj"},
        {"fit", "fit CONFIG [NAME=VALUE ...]", "will a training job fit? every byte a rank holds, per stage",
         "Prices a whole training job as `oprec fit` does (docs/fit.md): every byte a rank\n"
         "holds, per pipeline stage, from a Hugging Face config.json and a strategy, and\n"
         "whether the busiest stage fits the device. The options are `oprec fit`'s, written\n"
         "NAME=VALUE: gpus tp pp vpp cp cp_algo sp ep etp mbs gbs seq dtype flash_attention\n"
         "recompute recompute_method recompute_layers zero schedule optimizer\n"
         "first_stage_layers last_stage_layers untied vocab device_memory records family.\n"
         "  fit examples/hf/llama-2-7b.json tp=2 pp=2 gbs=64\n"
         "  fit examples/hf/llama-2-7b.json tp=8 recompute=full records=reference device_memory=40GiB"},
        {":reload", ":reload", "load the records again",
         "Loads the records again. The REPL also reloads by itself when a records file\n"
         "(or one it imports) changes on disk. When the new text does not load, it\n"
         "shows why and keeps the records that last loaded."},
        {"help", "help [COMMAND]", "this list, or one command's help", "  help diff"},
        {":quit", ":quit", "leave (also Ctrl-D)", "Leaves the REPL; so do `quit`, `exit` and Ctrl-D."},
    };
    return table;
}

const CommandInfo* find_command(std::string_view name) {
    if (name == "quit" || name == "exit") name = ":quit";
    if (name == "reload") name = ":reload";
    for (const CommandInfo& c : command_table())
        if (c.name == name) return &c;
    return nullptr;
}

std::vector<std::string> command_names() {
    std::vector<std::string> names;
    for (const CommandInfo& c : command_table())
        if (c.name != "SLOT" && c.name != "EXPR") names.emplace_back(c.name);
    return names;
}

std::string help_text() {
    std::string out = "Commands (`help NAME` for more):\n";
    for (const CommandInfo& c : command_table()) out += fmt::format("  {:<45} {}\n", c.usage, c.summary);
    out += "Tab completes commands and names; Ctrl-C cancels a line; Ctrl-D leaves.\n";
    return out;
}

std::string help_text(std::string_view name) {
    const CommandInfo* c = find_command(name);
    if (c == nullptr) {
        std::vector<std::string> known = command_names();
        known.push_back("SLOT");
        known.push_back("EXPR");
        const std::string note = did_you_mean(name, known);
        throw CommandError(fmt::format("no command `{}`", name), note.empty() ? "`help` lists the commands" : note);
    }
    return fmt::format("{}\n  {}\n{}\n", c->usage, c->summary, c->details);
}

}  // namespace oprec::repl
