//! The judge's tests that need more than one of its files.

mod carryover_screen;
