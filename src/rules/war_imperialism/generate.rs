//! Positions and orders for the benchmark and tests: a movement round with six
//! players and about 200 units.
