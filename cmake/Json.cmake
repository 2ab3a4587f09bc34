# nlohmann_json as the INTERFACE target traincost_json.
# Natively: Debian's CMake package. For WebAssembly the package cannot be used as is: it adds
# /usr/include to the include path, and glibc headers there break em++ (TOOLCHAIN.md quirk 3).
# So the header tree is staged into a build folder of its own and only that folder is added.
add_library(traincost_json INTERFACE)
if(EMSCRIPTEN)
  set(_json_stage "${CMAKE_BINARY_DIR}/staged-include")
  if(NOT EXISTS "${_json_stage}/nlohmann/json.hpp")
    file(MAKE_DIRECTORY "${_json_stage}")
    file(COPY /usr/include/nlohmann DESTINATION "${_json_stage}")
  endif()
  target_include_directories(traincost_json SYSTEM INTERFACE "${_json_stage}")
else()
  find_package(nlohmann_json 3.11 REQUIRED)
  target_link_libraries(traincost_json INTERFACE nlohmann_json::nlohmann_json)
endif()
# The core never throws: a JSON misuse would abort instead of escaping as an exception, the
# same natively and in WebAssembly (where exceptions are off). Parsing reports errors as values.
target_compile_definitions(traincost_json INTERFACE JSON_NOEXCEPTION)
