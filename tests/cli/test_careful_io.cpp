// The commands' input and output as careful tools treat them: every write
// checked (`> /dev/full` is an error), files rewritten through symlinks,
// keeping hard links and modes, FIFOs written through; --jsonl answering
// each line as it arrives; wrong input refused rather than priced.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec;
using testing::run_oprec;
using testing::shell_quote;

namespace {

namespace fs = std::filesystem;

const std::string kRoot = OPREC_SOURCE_DIR;
const std::string kLayer = kRoot + "/examples/llama2-7b.json";
const std::string kYaml = kRoot + "/tests/yaml/op_records.yaml";

// `sh -c script`'s exit status; its standard error into `err`.
int shell(const std::string& script, std::string* err = nullptr) {
    testing::TempDir dir;
    const std::string err_file = (dir / "err").string();
    const int status = std::system(("/bin/sh -c " + shell_quote(script) + " 2> " + shell_quote(err_file)).c_str());
    if (err != nullptr) *err = testing::read_text(err_file);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string oprec_bin() { return shell_quote(OPREC_BINARY); }

// A badly laid out records file, and how fmt lays it out.
const std::string kUgly = "default   x=1\n";
const std::string kPretty = "default x = 1\n";

}  // namespace

TEST_CASE("careful io: a failed write of standard output is an error", "[cli][io]") {
    REQUIRE(fs::exists("/dev/full"));
    REQUIRE(fs::exists(kYaml));
    const std::vector<std::string> commands = {
        "import " + shell_quote(kYaml),
        "export " + shell_quote(kRoot + "/records/op_records.rec"),
        "fmt - < " + shell_quote(kRoot + "/records/op_records.rec"),
        "eval " + shell_quote(kLayer),
        "calc '1 + 1'",
        "calc --jsonl < /dev/null; echo '{\"expr\": \"1\"}' | " + oprec_bin() + " calc --jsonl",
    };
    for (const std::string& c : commands) {
        INFO(c);
        std::string err;
        const int code = shell(oprec_bin() + " " + c + " > /dev/full", &err);
        CHECK(code != 0);
        CHECK(err.find("cannot write") != std::string::npos);
    }
}

TEST_CASE("careful io: fmt writes a symlink's target, keeps hard links and the mode", "[cli][io]") {
    testing::TempDir dir;
    const auto target = dir.write("real.rec", kUgly);
    fs::create_symlink(target, dir / "link.rec");
    fs::create_hard_link(target, dir / "other.rec");
    REQUIRE(::chmod(target.c_str(), 0640) == 0);
    const auto r = run_oprec({"fmt", (dir / "link.rec").string()});
    CHECK(r.exit_code == 0);
    CHECK(fs::is_symlink(dir / "link.rec"));                     // still a link
    CHECK(testing::read_text(target) == kPretty);                // its target formatted
    CHECK(testing::read_text(dir / "other.rec") == kPretty);     // the hard link not split
    CHECK(fs::hard_link_count(target) == 2);
    struct stat st{};
    REQUIRE(::stat(target.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);
    // Nothing left beside it: no temporary, no backup.
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir.path())) files += e.path().filename().string()[0] == '.' ? 100 : 1;
    CHECK(files == 3);
}

TEST_CASE("careful io: fmt of a hard-linked file that cannot be written in full leaves it as it was", "[cli][io]") {
    // A file too large to write in full (a size limit standing for a full
    // disk): the in-place write fails past the limit, and the old text must
    // come back byte for byte, not over the start of the new one.
    testing::TempDir dir;
    std::string text = testing::read_text(kRoot + "/records/op_records.rec");
    for (const char* spaced : {" = ", " * ", " + ", " / "}) {  // fmt puts the spaces back: it grows
        const std::string tight = std::string(1, spaced[1]);
        for (std::size_t at = text.find(spaced); at != std::string::npos; at = text.find(spaced, at))
            text.replace(at, 3, tight);
    }
    constexpr std::size_t kLimitBlocks = 12;  // of 512 bytes, as sh's ulimit -f counts
    REQUIRE(text.size() < kLimitBlocks * 512 - 40);
    text += "# " + std::string(kLimitBlocks * 512 - 20 - text.size(), 'x') + "\n";  // just under the limit
    const auto file = dir.write("big.rec", text);
    fs::create_hard_link(file, dir / "other.rec");
    std::string err;
    const int code = shell("trap '' XFSZ; ulimit -f " + std::to_string(kLimitBlocks) + "; exec " + oprec_bin() +
                               " fmt " + shell_quote(file.string()),
                           &err);
    INFO(err);
    CHECK(code == 2);
    CHECK(err.find("(the file is as it was)") != std::string::npos);
    CHECK(testing::read_text(file) == text);
    CHECK(fs::hard_link_count(file) == 2);
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir.path())) files += e.path().filename().string()[0] == '.' ? 100 : 1;
    CHECK(files == 2);  // no backup left
}

TEST_CASE("careful io: files named like the standard library's in the working directory are not taken for them", "[cli][io]") {
    // fit, eval --hf and sweep load the standard library's profiles.rec by
    // name; a copy (edited, or with the rest of the library beside it) in
    // the working directory once priced in its place, silently.
    testing::TempDir dir;
    for (const auto& e : fs::directory_iterator(kRoot + "/stdlib")) fs::copy_file(e.path(), dir.path() / e.path().filename());
    std::string profiles = testing::read_text(dir / "profiles.rec");
    profiles += "\n# edited\nprofile nothing_like_the_library { default kind dense\n kind dense = 1 1 1 1 1 1 1 1 1 1 }\n";
    dir.write("profiles.rec", profiles);
    const std::string fit = " fit " + shell_quote(kRoot + "/examples/hf/llama-2-7b.json") + " --format json";
    const std::string config = shell_quote(kRoot + "/examples/hf/llama-2-7b.json");
    for (const std::string& command : {fit, " eval --hf " + config + " --format json"}) {
        INFO(command);
        const std::string here = (dir / "here.json").string(), elsewhere = (dir / "elsewhere.json").string();
        CHECK(shell("cd " + shell_quote(dir.path().string()) + " && " + oprec_bin() + command + " > " + shell_quote(here)) == 0);
        CHECK(shell("cd / && " + oprec_bin() + command + " > " + shell_quote(elsewhere)) == 0);
        CHECK(testing::read_text(here) == testing::read_text(elsewhere));
    }
}

TEST_CASE("careful io: a plain file keeps its mode, import -o onto a FIFO writes through it", "[cli][io]") {
    testing::TempDir dir;
    const auto file = dir.write("plain.rec", kUgly);
    REQUIRE(::chmod(file.c_str(), 0600) == 0);
    CHECK(run_oprec({"fmt", file.string()}).exit_code == 0);
    struct stat st{};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0600);
    CHECK(testing::read_text(file) == kPretty);

    const fs::path fifo = dir / "out.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path got = dir / "got.rec";
    const int code = shell("cat " + shell_quote(fifo.string()) + " > " + shell_quote(got.string()) + " & " + oprec_bin() +
                           " import " + shell_quote(kYaml) + " -o " + shell_quote(fifo.string()) + "; s=$?; wait; exit $s");
    CHECK(code == 0);
    CHECK(fs::is_fifo(fifo));  // not replaced by a regular file
    CHECK(testing::read_text(got).find("slot ") != std::string::npos);
}

TEST_CASE("careful io: import -o to a full disk leaves nothing behind", "[cli][io]") {
    testing::TempDir dir;
    const auto r = run_oprec({"import", kYaml, "-o", "/dev/full"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cannot write `/dev/full`") != std::string::npos);
}

TEST_CASE("careful io: --jsonl answers a line before the input ends, and names bad lines", "[cli][io]") {
    testing::TempDir dir;
    const std::string in = shell_quote((dir / "in").string());
    const std::string out = shell_quote((dir / "out").string());
    for (const std::string& cmd : std::vector<std::string>{"calc --jsonl", "eval --jsonl"}) {
        INFO(cmd);
        const std::string line = cmd == "calc --jsonl" ? "{\"expr\": \"1 + 1\"}" : testing::read_text(kLayer);
        std::string one_line = line;
        for (char& c : one_line)
            if (c == '\n') c = ' ';
        testing::TempDir d;
        const std::string first = shell_quote((d / "first.json").string());
        d.write("first.json", one_line + "\n");
        // The writer keeps the pipe open until the first answer is there (at
        // most 20 s): a command that reads all its input first never answers.
        const std::string script = "rm -f " + in + " " + out + "; mkfifo " + in + "; " + oprec_bin() + " " + cmd + " < " +
                                   in + " > " + out + " & exec 3> " + in + "; cat " + first + " >&3; i=0; " +
                                   "while [ ! -s " + out + " ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; " +
                                   "early=0; [ -s " + out + " ] && early=1; printf '\\n' >&3; echo 'nonsense' >&3; " +
                                   "exec 3>&-; wait; [ $early = 1 ]";
        CHECK(shell(script) == 0);
        const std::string answers = testing::read_text(dir / "out");
        // One result per line: the blank line and the bad one get errors naming their line.
        CHECK(std::count(answers.begin(), answers.end(), '\n') == 3);
        CHECK(answers.find("\"line\":2") != std::string::npos);
        CHECK(answers.find("\"line\":3") != std::string::npos);
    }
}

TEST_CASE("wrong input: --set of a field no one has is refused with a suggestion", "[cli]") {
    const auto r = run_oprec({"eval", kLayer, "--set", "tt=8"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "oprec eval: --set tt=8: no field `tt` in the records' schema (did you mean `t`?)\n");
    CHECK(run_oprec({"eval", kLayer, "--set", "t=8"}).exit_code == 0);
    // A computed name is no field: --set would be taken and change nothing.
    const auto computed = run_oprec({"eval", kLayer, "--set", "kv_shards=2"});
    CHECK(computed.exit_code == 2);
    CHECK(computed.err == "oprec eval: --set kv_shards=2: `kv_shards` is computed, not stated\n");
    // A context value goes to the context; a bad one names the option.
    const auto huge = run_oprec({"repl", "--layer", kLayer, "--set", "micro_factor=99999999999999999999"});
    CHECK(huge.exit_code == 2);
    CHECK(huge.err == "oprec repl: --set micro_factor=99999999999999999999: an integer beyond 64 bits\n");
}

#include "cli/file_io.h"

TEST_CASE("careful io: a file changed since it was read is left, the new text put beside it", "[cli][io]") {
    testing::TempDir dir;
    const auto file = dir.write("r.rec", "theirs\n");
    const std::string read_before = "what we read\n";
    std::string why;
    CHECK_FALSE(cli::write_file(file, "ours\n", why, &read_before));
    CHECK(why == "it changed since it was read: left as it is, the new text is in `" + file.string() + ".oprec-new`");
    CHECK(testing::read_text(file) == "theirs\n");
    CHECK(testing::read_text(file.string() + ".oprec-new") == "ours\n");
    // Unchanged: written.
    const std::string same = "theirs\n";
    CHECK(cli::write_file(file, "ours\n", why, &same));
    CHECK(testing::read_text(file) == "ours\n");
}

TEST_CASE("careful io: import -o and export -o write a symlink's target and keep hard links", "[cli][io]") {
    testing::TempDir dir;
    for (const char* command : {"import", "export"}) {
        INFO(command);
        const std::string input = std::string(command) == "import" ? kYaml : kRoot + "/records/op_records.rec";
        const auto target = dir.write(std::string(command) + ".out", "old\n");
        const fs::path link = dir / (std::string(command) + ".link");
        const fs::path other = dir / (std::string(command) + ".other");
        fs::create_symlink(target, link);
        fs::create_hard_link(target, other);
        REQUIRE(::chmod(target.c_str(), 0640) == 0);
        const auto r = run_oprec({command, input, "-o", link.string()});
        CHECK(r.exit_code == 0);
        CHECK(fs::is_symlink(link));
        const std::string written = testing::read_text(target);
        CHECK(written.size() > 1000);
        CHECK(testing::read_text(other) == written);  // the hard link not split
        CHECK(fs::hard_link_count(target) == 2);
        struct stat st{};
        REQUIRE(::stat(target.c_str(), &st) == 0);
        CHECK((st.st_mode & 07777) == 0640);
    }
}

TEST_CASE("wrong input: export refuses records whose YAML import would refuse, writing nothing", "[cli]") {
    testing::TempDir dir;
    // 1e999 is Python's inf, which YAML writes as .inf and the reference's
    // loader cannot take as a default: the export would not load back.
    // (A name YAML reads as null, `null`, was such a case; it is quoted now.)
    const std::string records = testing::read_text(kRoot + "/records/op_records.rec") + "default huge = 1e999\n";
    const auto file = dir.write("infdefault.rec", records);
    const fs::path out = dir / "out.yaml";
    const auto r = run_oprec({"export", file.string(), "-o", out.string()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("would accept: nothing written") != std::string::npos);
    CHECK(!fs::exists(out));
}

TEST_CASE("careful io: fmt leaves a read-only file alone, though its directory is writable", "[cli][io]") {
    // Root may write anything: the check needs another user (setpriv, util-linux).
    if (::geteuid() != 0 || !fs::exists("/usr/bin/setpriv")) {
        WARN("skipped: needs root and setpriv to act as another user");
        return;
    }
    testing::TempDir dir;
    fs::permissions(dir.path(), fs::perms::all);  // anyone may create and rename here
    const auto file = dir.write("ro.rec", "op   a\n");
    REQUIRE(::chown(file.c_str(), 65534, 65534) == 0);
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const std::string bin = (dir / "oprec").string();  // where nobody may run it
    fs::copy_file(OPREC_BINARY, bin);
    fs::permissions(bin, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
    std::string err;
    const int code = shell("cd " + shell_quote(dir.path().string()) +
                               " && exec setpriv --reuid=65534 --regid=65534 --clear-groups ./oprec fmt ro.rec",
                           &err);
    CHECK(code == 2);
    CHECK(err == "oprec fmt: cannot write `ro.rec`: Permission denied\n");
    CHECK(testing::read_text(file) == "op   a\n");  // once rewritten through a rename
}

TEST_CASE("repl: a script's error says which line of the input it is from", "[repl][errors]") {
    // Piped, an expression's error read `<input>:1:1` whatever line it was on.
    const auto r = testing::run_oprec({"repl", "--layer", kLayer}, "qkv\nqkv\n(1+\nfoo\n");
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("note: from line 3 of the input: '(1+'\n") != std::string::npos);
    CHECK(r.err.find("note: from line 4 of the input: 'foo'\n") != std::string::npos);
    CHECK(r.err.find("line 1 of the input") == std::string::npos);  // a line that did not fail is not named
    const auto escaped = testing::run_oprec({"repl", "--layer", kLayer}, "foo\x1b[31mX\n");
    CHECK(escaped.err.find("note: from line 1 of the input: 'foo\\x1b[31mX'\n") != std::string::npos);
}
