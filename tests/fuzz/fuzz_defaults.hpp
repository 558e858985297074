#pragma once
// Included by each fuzz target: UBSan is built recoverable so that scripts/fuzz.sh can suppress a
// known, already-reported finding (tests/fuzz/ubsan.supp) and keep fuzzing past it; every other
// report still stops the run, also when a target is started by hand without UBSAN_OPTIONS.
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }
