#pragma once
// The data compiled into this binary (cmake/EmbedFiles.cmake turns assets/ into C++ at build
// time), each parsed once: the catalog with the published runs checked against it, and the
// step-time measurements. Only the API and the programs on top of the core (CLI, page, packages,
// tests) read them; everything below takes its catalog as a parameter.
//
// The embedded files are checked by the tests, so one that does not load is a build defect, not
// user input: these say what is wrong and stop.
#include "traincost/data/catalog.hpp"
#include "traincost/evidence/calibration.hpp"
#include "traincost/evidence/published_runs.hpp"

namespace traincost {

// assets/catalog.json, with assets/published_runs.json as its `runs` and the whole-run spread
// their replay realized (catalog.whole_run).
const Catalog& builtin_catalog();
// Replays one more of the published runs that builtin_catalog() needs; true once all are and the
// catalog is built. For the page, which replays them a run per task (web/main.cpp) instead of in
// one 60 ms task at the first call of builtin_catalog(); its result is the same. Not thread-safe:
// one thread (the page's) calls it, before anything else asks for builtin_catalog().
bool builtin_catalog_replay_step();
// The same catalog before the replay: its whole_run is empty. For what evaluates but never samples
// (the page's card module, web/card/card_main.cpp: no Monte Carlo, no whole-run note), which so
// skips the replay (about 40 ms in WebAssembly) and carries none of its code.
const Catalog& builtin_catalog_unreplayed();
// The catalog's version, read without the replay: the page's first call, so that the reading and
// the replay (about 40 ms each in WebAssembly) run in two tasks (web/main.cpp).
const std::string& builtin_catalog_version();
const RunLibrary& builtin_published_runs();
// assets/measurements.json: in a file of its own, so only programs that call this carry it.
const MeasurementSet& builtin_measurements();

}  // namespace traincost
