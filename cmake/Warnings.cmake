# Warnings are errors for our own code (third-party sources get their own, quieter flags).
# The core is held to -Wconversion; the UI code, which converts between ImGui's floats and the
# core's doubles on every line, is not.
function(traincost_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Werror)
endfunction()
function(traincost_ui_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Werror)
endfunction()
