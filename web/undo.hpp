#pragma once
// Undo and redo over whole states: each committed state that differs from the current one makes
// the current one undoable (and forgets what could be redone). The page commits the scenario
// after every edit, example, import or link it opens, so Ctrl+Z steps back through all of them.
// States are compared by a key (the scenario's JSON text), so a commit that changes nothing adds
// no step. Header-only and free of browser code: tested natively in tests/web/undo_test.cpp.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace traincost::web {

template <typename State>
class UndoHistory {
 public:
  explicit UndoHistory(size_t limit = 100) : limit_(limit) {}

  // Forgets everything: `state` is the starting point.
  void reset(State state, std::string key) {
    undo_.clear();
    redo_.clear();
    current_ = {std::move(state), std::move(key), ""};
    started_ = true;
  }

  // `state` is what the user now has, reached by `what` ("loading the example …"). Returns false
  // when it equals the current state (nothing to record).
  bool commit(State state, std::string key, std::string what = "") {
    if (!started_) {
      reset(std::move(state), std::move(key));
      return true;
    }
    if (key == current_.key) return false;
    undo_.push_back(std::move(current_));
    if (undo_.size() > limit_) undo_.erase(undo_.begin());
    current_ = {std::move(state), std::move(key), std::move(what)};
    redo_.clear();
    return true;
  }

  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }
  // What an undo would take back ("loading the example …"; "" for an ordinary edit).
  const std::string& undo_what() const { return current_.what; }
  const std::string& redo_what() const { return redo_.empty() ? none_ : redo_.back().what; }

  // The state to go back to, which becomes current; nothing when there is none.
  std::optional<State> undo() {
    if (undo_.empty()) return std::nullopt;
    redo_.push_back(std::move(current_));
    current_ = std::move(undo_.back());
    undo_.pop_back();
    return current_.state;
  }
  std::optional<State> redo() {
    if (redo_.empty()) return std::nullopt;
    undo_.push_back(std::move(current_));
    current_ = std::move(redo_.back());
    redo_.pop_back();
    return current_.state;
  }

  const State& current() const { return current_.state; }
  const std::string& current_key() const { return current_.key; }
  size_t undo_steps() const { return undo_.size(); }
  size_t redo_steps() const { return redo_.size(); }

 private:
  struct Step {
    State state;
    std::string key;
    std::string what;
  };
  size_t limit_;
  bool started_ = false;
  Step current_{};
  std::vector<Step> undo_, redo_;
  std::string none_;
};

}  // namespace traincost::web
