//! Random legal orders (tests, benchmarks, the differential script).
