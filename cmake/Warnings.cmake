# Warnings are errors for our own code (third-party sources get their own, quieter flags).
function(traincost_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Werror)
endfunction()
