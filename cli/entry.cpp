// The traincost program: everything it does is in traincost_cli (main.cpp's run()).
#include "commands.hpp"

int main(int argc, char** argv) { return traincost::cli::run(argc, argv); }
