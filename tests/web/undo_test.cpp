// Undo and redo over whole scenarios (web/undo.hpp).
#include "undo.hpp"

#include <gtest/gtest.h>

#include <string>

namespace traincost::web {
namespace {

TEST(Undo, StartsEmpty) {
  UndoHistory<std::string> h;
  h.reset("a", "a");
  EXPECT_FALSE(h.can_undo());
  EXPECT_FALSE(h.can_redo());
  EXPECT_FALSE(h.undo());
  EXPECT_FALSE(h.redo());
  EXPECT_EQ(h.current(), "a");
}

TEST(Undo, FirstCommitIsTheStartingPoint) {
  UndoHistory<std::string> h;
  EXPECT_TRUE(h.commit("a", "a"));
  EXPECT_FALSE(h.can_undo());
}

TEST(Undo, StepsBackAndForward) {
  UndoHistory<std::string> h;
  h.reset("a", "a");
  h.commit("b", "b");
  h.commit("c", "c", "loading the example");
  EXPECT_EQ(h.undo_what(), "loading the example");
  EXPECT_EQ(*h.undo(), "b");
  EXPECT_EQ(h.redo_what(), "loading the example");
  EXPECT_EQ(*h.undo(), "a");
  EXPECT_FALSE(h.undo());
  EXPECT_EQ(*h.redo(), "b");
  EXPECT_EQ(*h.redo(), "c");
  EXPECT_FALSE(h.redo());
  EXPECT_EQ(h.current(), "c");
}

TEST(Undo, SameStateAddsNoStep) {
  UndoHistory<std::string> h;
  h.reset("a", "a");
  EXPECT_FALSE(h.commit("a again", "a"));
  EXPECT_FALSE(h.can_undo());
}

TEST(Undo, ANewEditForgetsRedo) {
  UndoHistory<std::string> h;
  h.reset("a", "a");
  h.commit("b", "b");
  h.undo();
  EXPECT_TRUE(h.can_redo());
  h.commit("c", "c");
  EXPECT_FALSE(h.can_redo());
  EXPECT_EQ(*h.undo(), "a");
}

TEST(Undo, KeepsAtMostItsLimit) {
  UndoHistory<int> h(3);
  h.reset(0, "0");
  for (int i = 1; i <= 10; ++i) h.commit(i, std::to_string(i));
  EXPECT_EQ(h.undo_steps(), 3u);
  EXPECT_EQ(*h.undo(), 9);
  EXPECT_EQ(*h.undo(), 8);
  EXPECT_EQ(*h.undo(), 7);
  EXPECT_FALSE(h.undo());
}

}  // namespace
}  // namespace traincost::web
