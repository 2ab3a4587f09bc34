#pragma once
// Deterministic elementary functions.
//
// glibc (native) and musl (Emscripten) implement exp/log/pow differently, and glibc may pick an
// FMA variant at run time, so the same expression can differ in the last bit between the CLI and
// the browser. TrainCost promises that a scenario (and a Monte Carlo seed) gives the same numbers
// everywhere, bit for bit, so every transcendental function the core uses comes from here. They
// use only +, -, *, / and exact bit operations (frexp/ldexp), which IEEE 754 fixes exactly.
// Accuracy: exp within 2 ulp (a table of 2^(j/32) and a degree-6 polynomial, 1 ulp measured),
// log within a few ulp; pow (as exp(y log x)) within 1e-13 relative. Tested against libm in
// tests/core/detmath_test.cpp.
namespace traincost::det {

double exp(double x);
double log(double x);
double log2(double x);
double pow(double x, double y);  // x > 0, or x == 0 with y > 0

}  // namespace traincost::det
