//! Positions and orders for benchmarks and tests: a game set up, and scripted players
//! (see [`policy`]).
