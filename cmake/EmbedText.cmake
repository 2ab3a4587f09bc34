# cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -P EmbedText.cmake
# Writes a C++ source defining `std::string_view traincost::embedded::SYMBOL()` that returns the
# file's text. Used for assets/catalog.json, so the native and WebAssembly builds carry the same
# catalog and a link evaluates identically everywhere.
file(READ "${INPUT}" content)
string(LENGTH "${content}" length)
# Raw string literals are limited only by the compiler; split into 16 KB chunks to stay portable.
set(chunks "")
set(pos 0)
while(pos LESS length)
  string(SUBSTRING "${content}" ${pos} 16000 piece)
  string(APPEND chunks "    R\"tc_embed(${piece})tc_embed\"\n")
  math(EXPR pos "${pos} + 16000")
endwhile()
file(WRITE "${OUTPUT}.tmp"
"// Generated from ${INPUT} by cmake/EmbedText.cmake. Do not edit.\n"
"#include <string_view>\n"
"namespace traincost::embedded {\n"
"std::string_view ${SYMBOL}() {\n"
"  static constexpr char text[] =\n${chunks}  ;\n"
"  return {text, sizeof(text) - 1};\n"
"}\n"
"}  // namespace traincost::embedded\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
