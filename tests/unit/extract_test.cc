// Tests for the function extractor of `idlespec validate` (extract/extract.h):
// only what the requested functions reach, the configured branch of a
// duplicate, inline asm neutralised off the judged path, the IDLESPEC_HAVE_
// markers, linear cost, and what a failed build says about the shims.
#include "extract/extract.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "verify/build_paths.h"

namespace idlespec::extraction {
namespace {

Extraction run(const std::string& src, std::vector<std::string> names) {
  return extract(src, names, "t.c");
}

bool has(const std::string& code, const std::string& what) {
  return code.find(what) != std::string::npos;
}

// A file in this project's words: the function under test, a helper it
// calls, and an unrelated routine whose parameter list names an enum and a
// type the shims lack.
const char* kMixed = R"(enum fan_mode {
	FAN_OFF,
	FAN_ON,
};

static int helper(int x)
{
	return x + 1;
}

int under_test(int code)
{
	int n = helper(code);
	return n;
}

static int unrelated(enum fan_mode mode, weird_mask_t mask)
{
	return mode == FAN_ON && mask_empty(mask);
}
)";

TEST(Extract, TakesOnlyWhatTheFunctionReaches) {
  const Extraction ex = run(kMixed, {"under_test"});
  ASSERT_TRUE(ex.functions.at(0).found);
  EXPECT_TRUE(has(ex.code, "static int helper(int x)"));
  // A parameter list is not an enumerator list: `unrelated` defines neither
  // `int` nor `weird_mask_t`, so nothing pulls it (or the enum) in.
  EXPECT_FALSE(has(ex.code, "weird_mask_t"));
  EXPECT_FALSE(has(ex.code, "FAN_OFF"));
}

TEST(Extract, EnumeratorsOfAFileScopeEnum) {
  const std::vector<TopLevelItem> items = top_level_items(kMixed);
  ASSERT_GE(items.size(), 4u);
  EXPECT_EQ(items[0].defines, (std::vector<std::string>{"fan_mode", "FAN_OFF", "FAN_ON"}));
  EXPECT_EQ(items[3].defines, (std::vector<std::string>{"unrelated"}));
}

TEST(Extract, MemberNamesAreNotUses) {
  const std::string src =
      "static int level;\n"
      "struct box { int level; };\n"
      "int get(struct box *b)\n{\n\treturn b->level;\n}\n";
  const Extraction ex = run(src, {"get"});
  EXPECT_FALSE(has(ex.code, "static int level;"));
  EXPECT_TRUE(has(ex.code, "struct box { int level; };"));
}

TEST(Extract, TheConfiguredBranchOfADuplicate) {
  const std::string src =
      "#ifndef CONFIG_SMP\n"
      "static int count_cpus(void)\n{\n\treturn 1;\n}\n"
      "#else\n"
      "static int count_cpus(void)\n{\n\treturn 64;\n}\n"
      "#endif\n"
      "int caller(void)\n{\n\treturn count_cpus();\n}\n";
  const Extraction ex = run(src, {"caller"});
  EXPECT_TRUE(has(ex.code, "return 64;"));
  EXPECT_FALSE(has(ex.code, "return 1;"));
  // Witness: without the #else both bodies would be taken (a redefinition).
  const std::vector<TopLevelItem> items = top_level_items(src);
  int on = 0, off = 0;
  for (const auto& it : items)
    if (it.kind == TopLevelItem::kFunction) (it.cond == 1 ? on : off) += 1;
  EXPECT_EQ(on, 2);  // the #else body and caller
  EXPECT_EQ(off, 1);
}

TEST(Extract, IfZeroIsOff) {
  const std::string src =
      "#if 0\nstatic int pick(void)\n{\n\treturn 0;\n}\n#endif\n"
      "static int pick(void)\n{\n\treturn 7;\n}\n"
      "int f(void)\n{\n\treturn pick();\n}\n";
  const Extraction ex = run(src, {"f"});
  EXPECT_TRUE(has(ex.code, "return 7;"));
  EXPECT_FALSE(has(ex.code, "return 0;"));
}

TEST(Extract, AsmNeutralisedOnlyOffTheJudgedPath) {
  const std::string src =
      "static void nap(void)\n{\n\tasm volatile(\"waitrsv\" ::: \"memory\");\n"
      "\tregister long sp asm(\"r1\");\n\t(void)sp;\n}\n"
      "int judged(void)\n{\n\tnap();\n\t__asm__ __volatile__(\"nop\");\n\treturn 0;\n}\n";
  const Extraction ex = run(src, {"judged"});
  EXPECT_FALSE(has(ex.code, "waitrsv"));
  EXPECT_TRUE(has(ex.code, "((void)0);"));
  EXPECT_TRUE(has(ex.code, "register long sp ;"));
  EXPECT_TRUE(
      has(ex.code, "__asm__ __volatile__(\"nop\")"));  // the function under test: as written
  ASSERT_EQ(ex.notes.size(), 1u);
  EXPECT_TRUE(has(ex.notes[0], "nap"));
}

TEST(Extract, HaveMarkersForWhatTheFragmentDefines) {
  const std::string src =
      "static unsigned long long nap_timeout;\n"
      "static int other_global;\n"
      "int probe(void)\n{\n\tnap_timeout = 5;\n\treturn 0;\n}\n";
  const Extraction ex = run(src, {"probe"});
  EXPECT_TRUE(has(ex.code, "#define IDLESPEC_HAVE_nap_timeout 1"));
  EXPECT_TRUE(has(ex.code, "#define IDLESPEC_HAVE_probe 1"));
  EXPECT_FALSE(has(ex.code, "IDLESPEC_HAVE_other_global"));
}

// A variable the fragment only declares `extern` (another file of the
// kernel defines it) also gets IDLESPEC_EXTERN_, so a harness may define it;
// one the file defines, static or not, does not (issue 53).
TEST(Extract, ExternMarkersForWhatAnotherFileDefines) {
  const std::string src =
      "extern unsigned int cede_latency_override;\n"
      "static int own_override = 1;\n"
      "extern int shared_count;\n"
      "int shared_count = 2;\n"
      "int probe(void)\n{\n\treturn cede_latency_override + own_override + shared_count;\n}\n";
  const Extraction ex = run(src, {"probe"});
  EXPECT_TRUE(has(ex.code, "#define IDLESPEC_HAVE_cede_latency_override 1"));
  EXPECT_TRUE(has(ex.code, "#define IDLESPEC_EXTERN_cede_latency_override 1")) << ex.code;
  EXPECT_TRUE(has(ex.code, "#define IDLESPEC_HAVE_own_override 1"));
  EXPECT_FALSE(has(ex.code, "IDLESPEC_EXTERN_own_override"));
  EXPECT_FALSE(has(ex.code, "IDLESPEC_EXTERN_shared_count")) << ex.code;
  EXPECT_FALSE(has(ex.code, "IDLESPEC_EXTERN_probe"));
}

TEST(Extract, FindsTheLastFunctionOfAFiveMegabyteSource) {
  // 5 MB of small functions and tables, the function under test at the end.
  std::string src;
  for (int i = 0; src.size() < 5u * 1024 * 1024; ++i) {
    src += "/* block " + std::to_string(i) + " */\nstatic int table_" + std::to_string(i) +
           "[] = { 1, 2, 3, 4 };\n";
    src += "#ifdef CONFIG_OPTION_" + std::to_string(i) + "\n";
    src += "static int fn_" + std::to_string(i) + "(int a)\n{\n\tif (a > 2)\n\t\treturn table_" +
           std::to_string(i) + "[a & 3];\n\treturn a;\n}\n#endif\n";
  }
  src += "int last(int a)\n{\n\treturn fn_7(a) + fn_123(a);\n}\n";
  const auto t0 = std::chrono::steady_clock::now();
  const Extraction ex = run(src, {"last"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(ex.functions.at(0).found);
  EXPECT_TRUE(has(ex.code, "table_123[a & 3]"));
  EXPECT_FALSE(has(ex.code, "fn_8("));
  // Printed, not asserted: BM_Extract in make bench measures the growth.
  std::printf("a 5 MB source took %.2f s\n", s);
}

TEST(ExplainBuildError, NamesTheIdentifierAndTheShimLine) {
  const std::string out =
      "t.c:12:20: error: \xe2\x80\x98"
      "CPUIDLE_FLAG_POLLING_SOFT\xe2\x80\x99 undeclared here (not in a function)\n"
      "t.c:40:9: error: unknown type name 'cpumask_var_t'\n"
      "/usr/bin/ld: t.o: in function `f': t.c:(.text+0x1): undefined reference to `get_loadavg'\n"
      "t.c:50:12: error: 'struct cpuidle_device' has no member named 'rh_cpuidle_dev'\n";
  const std::vector<std::string> lines = explain_build_error(out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            "CPUIDLE_FLAG_POLLING_SOFT: not in the shims; harness/shims/cpuidle.h would need "
            "`#define CPUIDLE_FLAG_POLLING_SOFT ...`");
  EXPECT_TRUE(has(lines[1],
                  "cpumask_var_t: not in the shims; harness/shims/kernel.h would need "
                  "`typedef ... cpumask_var_t;`"));
  EXPECT_TRUE(has(lines[2], "get_loadavg"));
  EXPECT_TRUE(has(lines[3], "rh_cpuidle_dev"));
  EXPECT_TRUE(has(lines[3], "struct cpuidle_device"));
  EXPECT_TRUE(explain_build_error("t.c:1:1: error: expected ';' before '}' token\n").empty());
}

// A helper the code only refers to (a state table's .enter) keeps its
// declaration with a stub body; one it calls stays, error and all; the
// function under test is never touched.
TEST(DropFailingItems, StubsAReferencedHelperKeepsACalledOne) {
  const std::string src =
      "static int shaky(void)\n{\n\treturn odd_thing;\n}\n"
      "static int fine(void)\n{\n\treturn 2;\n}\n"
      "static struct ops table[] = { { .enter = &shaky }, { .enter = &fine } };\n"
      "int target(void)\n{\n\treturn fine() + table[0].enter();\n}\n";
  const Extraction ex = run(src, {"target"});
  std::vector<std::string> dropped;
  const std::string out = "t.c:3:9: error: 'odd_thing' undeclared (first use in this function)\n";
  const std::string pruned = drop_failing_items(ex.code, out, "t.c", dropped);
  EXPECT_FALSE(has(pruned, "odd_thing"));
  EXPECT_TRUE(has(pruned, "static int shaky(void)\n{ idlespec_dropped_function(\"shaky\"); }"))
      << pruned;
  EXPECT_TRUE(has(pruned, "return 2;"));
  EXPECT_TRUE(has(pruned, ".enter = &shaky"));
  EXPECT_TRUE(has(pruned, "int target(void)"));
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0],
            "function shaky (line 1) does not compile with the shims: dropped (its body replaced "
            "by a stub that stops the harness if it is called)");
  // The stub blamed in turn (its declaration does not compile): it goes.
  std::vector<std::string> again;
  const std::string gone = drop_failing_items(pruned, "t.c:1:12: error: boom\n", "t.c", again);
  EXPECT_FALSE(has(gone, "shaky(void)")) << gone;
  ASSERT_EQ(again.size(), 1u);
  EXPECT_TRUE(has(again[0], "function shaky (line 1) does not compile with the shims: dropped"));
  // Called by the function under test: on the judged path, not dropped.
  const std::string called_src =
      "static int shaky(void)\n{\n\treturn odd_thing;\n}\n"
      "int target(void)\n{\n\treturn shaky();\n}\n";
  const Extraction called = run(called_src, {"target"});
  std::vector<std::string> kept;
  EXPECT_EQ(drop_failing_items(called.code, out, "t.c", kept), called.code);
  EXPECT_TRUE(kept.empty());
  // An error in the function under test is not dropped: the code comes back unchanged.
  std::vector<std::string> none;
  EXPECT_EQ(drop_failing_items(ex.code, "t.c:13:9: error: boom\n", "t.c", none), ex.code);
  EXPECT_TRUE(none.empty());
}

// The linker's undefined reference inside a pulled function (gcc's clone
// suffix stripped) stubs that function; inside the function under test it
// changes nothing.
TEST(DropFailingItems, StubsAFunctionTheLinkerBlames) {
  const std::string src =
      "extern int override_us;\n"
      "static int loop(void)\n{\n\treturn override_us;\n}\n"
      "static struct ops table[] = { { .enter = &loop } };\n"
      "int target(void)\n{\n\treturn table[0].enter != 0;\n}\n";
  const Extraction ex = run(src, {"target"});
  std::vector<std::string> dropped;
  const std::string out =
      "/usr/bin/ld: /tmp/cc1.o: in function `loop.constprop.0':\n"
      "candidate.c:(.text+0x1): undefined reference to `override_us'\n"
      "collect2: error: ld returned 1 exit status\n";
  const std::string pruned = drop_failing_items(ex.code, out, "t.c", dropped);
  EXPECT_TRUE(has(pruned, "{ idlespec_dropped_function(\"loop\"); }")) << pruned;
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_TRUE(has(dropped[0], "function loop (line 2) does not link with the shims")) << dropped[0];
  std::vector<std::string> none;
  const std::string in_target =
      "/usr/bin/ld: /tmp/cc1.o: in function `target':\n"
      "candidate.c:(.text+0x1): undefined reference to `override_us'\n";
  EXPECT_EQ(drop_failing_items(ex.code, in_target, "t.c", none), ex.code);
}

// With the context: a struct's member in the shim header that defines the
// struct, another name in the component's header, a variable the linker
// lacks told from a function.
TEST(ExplainBuildError, NamesTheShimFromTheContext) {
  const std::string shims = std::string(idlespec::build::source_dir()) + "/harness/shims";
  const std::string out =
      "f.c:49:6: error: 'struct lppaca' has no member named 'byte_b9'\n"
      "f.c:49:17: error: \xe2\x80\x98LPPACA_DONATE_DED_CPU_CYCLES\xe2\x80\x99 undeclared (first "
      "use in this function)\n"
      "f.c:180:30: error: 'MAX_STOP_STATE' undeclared (first use in this function)\n"
      "candidate.c:(.text+0x1): undefined reference to `cede_latency_override'\n"
      "candidate.c:(.text+0x9): undefined reference to `get_cede_override'\n";
  const std::string code =
      "if (cede_latency_override) x = 1;\n"
      "y = get_cede_override (x);\n";
  const std::vector<std::string> lines =
      explain_build_error(out, ExplainContext{"idle_env.h", shims, code});
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0],
            "byte_b9: not a member of `struct lppaca` in the shims; harness/shims/xcede_env.h "
            "would need the field `byte_b9` in `struct lppaca`");
  EXPECT_EQ(lines[1],
            "LPPACA_DONATE_DED_CPU_CYCLES: not in the shims; harness/shims/idle_env.h would need "
            "`#define LPPACA_DONATE_DED_CPU_CYCLES ...`");
  EXPECT_EQ(lines[2],
            "MAX_STOP_STATE: not in the shims; harness/shims/idle_env.h would need "
            "`#define MAX_STOP_STATE ...`");
  EXPECT_EQ(lines[3],
            "cede_latency_override: not in the shims (the linker found no definition); "
            "harness/shims/idle_env.h would need a definition of the variable "
            "`cede_latency_override` (`... cede_latency_override = ...;`)");
  EXPECT_EQ(lines[4],
            "get_cede_override: not in the shims (the linker found no definition); "
            "harness/shims/idle_env.h would need `static inline ... get_cede_override(...) { ... "
            "}`");
}

// Unbalanced braces: named by line, as the extractor matches them (comments,
// literals and the branches after a conditional's first do not count).
TEST(UnbalancedBrace, BalancedFilesAreQuiet) {
  EXPECT_EQ(unbalanced_brace(kMixed), "");
  EXPECT_EQ(unbalanced_brace("int f(void)\n{\n\tconst char *s = \"{\";\n\t/* { */\n"
                             "\tchar c = '}';\n\t// {\n\treturn s[0] + c;\n}\n"),
            "");
  // Each branch of a conditional opens its own brace; one '}' closes them.
  EXPECT_EQ(unbalanced_brace("int g(int a)\n{\n#ifdef CONFIG_X\n\tif (a) {\n#else\n"
                             "\tif (!a) {\n#endif\n\t\ta++;\n\t}\n\treturn a;\n}\n"),
            "");
}

TEST(UnbalancedBrace, NamesTheInnerOpenBraceWithoutItsClose) {
  // Line 3 opens a block that never closes: the '}' in column 1 at line 6
  // closes it instead of the function's.
  const std::string src =
      "int f(int a)\n{\n\tif (a) {\n\t\ta++;\n\treturn a;\n}\n\nint g(void)\n{\n\treturn 0;\n}\n";
  EXPECT_EQ(unbalanced_brace(src),
            "line 3: unbalanced '{': no '}' closes it before the end of the file");
}

TEST(UnbalancedBrace, NamesAnUnopenedClose) {
  EXPECT_EQ(unbalanced_brace("int f(void)\n{\n\treturn 0;\n}\n}\n"),
            "line 5: unbalanced '}': it closes no '{'");
  EXPECT_EQ(unbalanced_brace("int f(void)\n{\n\treturn 0;\n"),
            "line 2: unbalanced '{': no '}' closes it before the end of the file");
}

}  // namespace
}  // namespace idlespec::extraction
