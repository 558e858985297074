// Where a mutant's changes lie (mutators/mutant_lines.hpp): offsets of a preprocessed program mapped
// through its line directives, files named as the source view names them, changes collated by line.
#include <gtest/gtest.h>

#include "mutators/mutant_lines.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {

using Kind = MutantLineChangeKind;

std::size_t offsetInText(const std::string& text, const std::string& needle) { return text.find(needle); }

}  // namespace

TEST(MutantLines, LineDirectivesAndClangMarkersGiveEachOffsetItsFileAndLine) {
  const std::string text =
      "\n#line 1 \"k.cl\"\nkernel void f() {\n# 1 \"/fam/inc/h.h\" 1\nint h;\n\nint g;\n#line 3 \"k.cl\"\n  x = 1;\n";
  const PreprocessedLineMap map(text);
  EXPECT_EQ(map.origin(0).second, 0);  // before any directive: no line of the user's
  EXPECT_EQ(map.origin(offsetInText(text, "kernel")), std::make_pair(std::string("k.cl"), 1));
  EXPECT_EQ(map.origin(offsetInText(text, "int h")), std::make_pair(std::string("/fam/inc/h.h"), 1));
  EXPECT_EQ(map.origin(offsetInText(text, "int g")), std::make_pair(std::string("/fam/inc/h.h"), 3));
  EXPECT_EQ(map.origin(offsetInText(text, "x = 1")), std::make_pair(std::string("k.cl"), 3));
}

TEST(MutantLines, FilesAreNamedAsTheManifestListsThemAndHeadersRelativeToTheFamilyFolder) {
  rooflab::testing::TempDir dir;
  dir.write("fam/inc/h.h", "int h;\n");
  dir.write("other/o.h", "int o;\n");
  const std::string joined = "\n#line 1 \"src/k.cl\"\nint k;\n\n#line 1 \"second.cl\"\nint s;\n";
  const SourceFileNaming naming = joinedProgramNaming(joined, dir.path() / "fam");
  EXPECT_EQ(naming.listed, (std::set<std::string>{"src/k.cl", "second.cl"}));
  EXPECT_EQ(naming.userPath("src/k.cl"), "src/k.cl");
  EXPECT_EQ(naming.userPath((dir.path() / "fam/inc/h.h").string()), "inc/h.h");
  EXPECT_EQ(naming.userPath((dir.path() / "fam/src/../inc/h.h").string()), "inc/h.h");
  EXPECT_EQ(naming.userPath((dir.path() / "other/o.h").string()), "o.h");  // outside the family: its name
  EXPECT_EQ(naming.userPath("<built-in>"), std::nullopt);
}

TEST(MutantLines, ChangesAreCollatedOneEntryPerLineKindsInTheEnumsOrder) {
  const std::vector<MutantLineChange> lines = collateLineChanges({
      {{"k.cl", 7}, Kind::guarded},
      {{"k.cl", 5}, Kind::made_up},
      {{"inc/h.h", 9}, Kind::folded},
      {{"k.cl", 5}, Kind::kept},
      {{"k.cl", 7}, Kind::made_up},
      {{"k.cl", 5}, Kind::made_up},
  });
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].where, (SourceLine{"inc/h.h", 9}));
  EXPECT_EQ(lines[0].kinds, std::vector<Kind>{Kind::folded});
  EXPECT_EQ(lines[1].where, (SourceLine{"k.cl", 5}));
  EXPECT_EQ(lines[1].kinds, (std::vector<Kind>{Kind::kept, Kind::made_up}));
  EXPECT_EQ(lines[2].where, (SourceLine{"k.cl", 7}));
  EXPECT_EQ(lines[2].kinds, (std::vector<Kind>{Kind::made_up, Kind::guarded}));
}

TEST(MutantLines, OffsetsOfFilesNotTheUsersAreLeftOut) {
  const std::string text = "#line 1 \"<command line>\"\nint a;\n#line 4 \"k.cl\"\nint b;\n";
  SourceFileNaming naming;
  naming.listed = {"k.cl"};
  const std::vector<MutantLineChange> lines = lineChangesOfOffsets(
      text, {{offsetInText(text, "int a"), Kind::folded}, {offsetInText(text, "b;"), Kind::removed}}, naming);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].where, (SourceLine{"k.cl", 4}));
  EXPECT_EQ(lines[0].kinds, std::vector<Kind>{Kind::removed});
}
