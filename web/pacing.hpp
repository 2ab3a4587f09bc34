#pragma once
// When the page draws. One pure decision per browser animation frame: draw now, or pause the main
// loop (an idle tab costs nothing) and, if something is due later, when to wake up again.
//
// Why a page draws at all:
// - input arrived: ImGui needs a few frames to settle after each event (a press, then the
//   release, then the layout that follows), so every event promises `kFramesPerEvent` frames;
// - input is still queued (a press held back a frame, keys fed in order over several frames);
// - the app has work due now (a PNG snapshot waits for the next drawn frame);
// - the app has timed work (the autosave, a banner that expires): the loop sleeps until the
//   earliest of them; the background computations (the Monte Carlo and the rest) run in tasks of
//   their own and ask for a frame when what is shown changes (main.cpp's pump);
// - a text field is being edited: its caret blinks, so the loop wakes about twice a second.
//
// No browser or ImGui types: it compiles natively and is tested in tests/web/pacing_test.cpp.
#include <limits>

namespace traincost::web::pacing {

inline constexpr int kFramesPerEvent = 3;       // frames an input event asks for
inline constexpr int kFramesAfterWork = 2;      // frames to show what timed work changed
inline constexpr double kCaretBlinkMs = 530;    // half a blink period (ImGui's caret: 1.2 s)
// While background work runs in tasks of its own (main.cpp's pump), a frame shows its progress
// this often: four times a second reads as live, and each drawn frame costs a raster and commit.
inline constexpr double kProgressFrameMs = 250;
inline constexpr double kNever = std::numeric_limits<double>::infinity();

struct Inputs {
  double now_ms = 0;
  int frames_left = 0;           // frames still promised to earlier events
  bool input_queued = false;     // input waiting to be fed to ImGui over the next frames
  bool work_now = false;         // the app needs a drawn frame now
  double next_due_ms = kNever;   // earliest timed work of the app (kNever: none)
  bool caret_blinking = false;   // a text field is being edited
};

struct Decision {
  bool draw = false;             // draw this frame
  int frames_left = 0;           // frames still promised after this one
  // When not drawing, the loop pauses; it wakes again on input, or after this many milliseconds
  // (kNever: only on input).
  double wake_after_ms = kNever;
};

// The decision for one animation frame.
inline Decision decide(const Inputs& in) {
  Decision d;
  d.frames_left = in.frames_left > 0 ? in.frames_left : 0;
  const bool due = in.next_due_ms <= in.now_ms;
  if (d.frames_left > 0 || in.input_queued || in.work_now || due) {
    d.draw = true;
    if (d.frames_left > 0) --d.frames_left;
    // Timed work runs in this frame and changes what is shown: a few more frames settle it.
    if (due && d.frames_left < kFramesAfterWork - 1) d.frames_left = kFramesAfterWork - 1;
    return d;
  }
  double wait = in.next_due_ms - in.now_ms;
  if (in.caret_blinking && kCaretBlinkMs < wait) wait = kCaretBlinkMs;
  d.wake_after_ms = wait;
  return d;
}

// Frames the background work's pump (main.cpp) asks for after a slice run in a task of its own:
// the frames that show timed work's change when what is shown changed (a job finished), one for
// the progress of a job under way every kProgressFrameMs, else none: a slice does not draw.
inline int frames_after_slice(bool shown_changed, bool working, double now_ms, double last_progress_frame_ms) {
  if (shown_changed) return kFramesAfterWork;
  if (working && now_ms - last_progress_frame_ms >= kProgressFrameMs) return 1;
  return 0;
}

// Frames promised after an input event (or a wake-up) that asks for `frames`.
inline int after_event(int frames_left, int frames = kFramesPerEvent) { return frames_left > frames ? frames_left : frames; }

}  // namespace traincost::web::pacing
