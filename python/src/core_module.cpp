// traincost._core: the Python binding of the core's JSON-text API (traincost/api.hpp). It only
// moves strings: traincost/__init__.py turns dicts into JSON text, calls `call`, and turns the
// reply into dicts or a ScenarioError. The core runs without the GIL, so other Python threads
// keep running during a long `analyze` and several threads may call it at once (it is reentrant).
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "traincost/api/api.hpp"
#include "traincost/io/read_file.hpp"

namespace py = pybind11;

namespace {

// Whether the last call on this thread ran the core with the GIL held: the tests check it is
// false (a check that needs no timing).
thread_local bool last_call_held_gil = true;

std::pair<bool, std::string> call(const std::string& name, const std::string& first, const std::string& second) {
  traincost::ApiReply reply;
  {
    py::gil_scoped_release release;
    last_call_held_gil = PyGILState_Check() != 0;
    reply = traincost::api_call(name, first, second);
  }
  return {reply.ok, std::move(reply.json)};
}

// The CLI's bounded reader (traincost/io/read_file.hpp): at most 1 MiB, regular files and pipes
// already open; directories, devices (/dev/zero) and named pipes are refused unread, so a
// call never waits or fills memory whatever path it is handed.
std::pair<bool, py::bytes> read_file(const std::string& path) {
  traincost::ReadRules rules;
  rules.wait_on_named_pipes = false;
  traincost::ReadText read;
  {
    py::gil_scoped_release release;
    read = traincost::read_text_file(path, rules);
  }
  return read.text ? std::make_pair(true, py::bytes(*read.text)) : std::make_pair(false, py::bytes(read.why));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The TrainCost core (C++), reached through its JSON-text API. Use the functions of the "
            "traincost package; this module is its implementation.";
  m.def("call", &call, py::arg("name"), py::arg("first") = "", py::arg("second") = "",
        "call(name, first='', second='') -> (ok, json_text)\n\n"
        "Runs the API function `name` (evaluate, analyze, explain, encode_link, decode_link, catalog, "
        "import_hf, schema, replay, version) on JSON text arguments. Returns whether it succeeded and the reply: "
        "the result, or {\"error\", \"problems\"}.");
  m.def("read_file", &read_file, py::arg("path"),
        "read_file(path: bytes) -> (ok, bytes)\n\n"
        "The file's bytes (at most 1 MiB), or why it cannot be read (a directory, a device, a named pipe, "
        "too large, the system's reason), as the CLI reads its input.");
  m.def("functions", [] {
    py::list names;
    for (const traincost::ApiFunction& f : traincost::api_functions()) names.append(py::make_tuple(f.name, f.arity));
    return names;
  }, "functions() -> [(name, arity)]: every function of the core's API and how many text arguments it takes.");
  m.def("_last_call_held_gil", [] { return last_call_held_gil; },
        "For tests: whether the last call on this thread ran the core while holding the GIL.");
}
