// The page's frame pacing (web/pacing.hpp): when it draws, when it pauses, when it wakes.
#include "pacing.hpp"

#include <gtest/gtest.h>

namespace traincost::web::pacing {
namespace {

Inputs at(double now) {
  Inputs in;
  in.now_ms = now;
  return in;
}

TEST(Pacing, IdlePausesWithoutWakeUp) {
  const Decision d = decide(at(1000));
  EXPECT_FALSE(d.draw);
  EXPECT_EQ(d.frames_left, 0);
  EXPECT_EQ(d.wake_after_ms, kNever);
}

TEST(Pacing, AnEventDrawsItsFramesThenPauses) {
  Inputs in = at(0);
  in.frames_left = after_event(0);
  int drawn = 0;
  for (int frame = 0; frame < 10; ++frame) {
    const Decision d = decide(in);
    if (!d.draw) break;
    ++drawn;
    in.frames_left = d.frames_left;
  }
  EXPECT_EQ(drawn, kFramesPerEvent);
}

TEST(Pacing, EventsDoNotShortenWhatIsPromised) {
  EXPECT_EQ(after_event(0), kFramesPerEvent);
  EXPECT_EQ(after_event(7), 7);
  EXPECT_EQ(after_event(0, 1), 1);
  EXPECT_EQ(after_event(2, 1), 2);
}

TEST(Pacing, QueuedInputAndWorkDrawWithoutPromisedFrames) {
  Inputs in = at(0);
  in.input_queued = true;
  EXPECT_TRUE(decide(in).draw);
  in = at(0);
  in.work_now = true;
  EXPECT_TRUE(decide(in).draw);
}

TEST(Pacing, TimedWorkSleepsUntilDueThenDrawsAndSettles) {
  Inputs in = at(100);
  in.next_due_ms = 350;
  Decision d = decide(in);
  EXPECT_FALSE(d.draw);
  EXPECT_DOUBLE_EQ(d.wake_after_ms, 250);
  in.now_ms = 350;
  d = decide(in);
  EXPECT_TRUE(d.draw);
  EXPECT_EQ(d.frames_left, kFramesAfterWork - 1);  // one more frame shows what the work changed
}

TEST(Pacing, CaretBlinksWhileEditing) {
  Inputs in = at(0);
  in.caret_blinking = true;
  Decision d = decide(in);
  EXPECT_FALSE(d.draw);
  EXPECT_DOUBLE_EQ(d.wake_after_ms, kCaretBlinkMs);
  in.next_due_ms = 100;  // earlier work wins
  d = decide(in);
  EXPECT_DOUBLE_EQ(d.wake_after_ms, 100);
}

TEST(Pacing, NegativeFramesAreTreatedAsNone) {
  Inputs in = at(0);
  in.frames_left = -4;
  const Decision d = decide(in);
  EXPECT_FALSE(d.draw);
  EXPECT_EQ(d.frames_left, 0);
}

// The background work runs a slice per task of its own (main.cpp's pump); a slice draws no frame
// unless what is shown changed, or a job under way is due to show its progress.
TEST(Pacing, ASliceDrawsOnlyWhatChangedOrProgress) {
  // A job finished in this slice: the frames timed work asks for, however recent the last frame.
  EXPECT_EQ(frames_after_slice(true, false, 1000, 1000), kFramesAfterWork);
  EXPECT_EQ(frames_after_slice(true, true, 1000, 999), kFramesAfterWork);
  // A job under way: no frame until kProgressFrameMs (250 ms) after the last one, then one.
  EXPECT_EQ(frames_after_slice(false, true, 1249, 1000), 0);
  EXPECT_EQ(frames_after_slice(false, true, 1250, 1000), 1);
  // Nothing under way and nothing changed (a sweep slice that published nothing): no frame.
  EXPECT_EQ(frames_after_slice(false, false, 5000, 0), 0);
}

}  // namespace
}  // namespace traincost::web::pacing
