//! Mirrors the builtin `sum()` of floats of the Python that runs the reference (held equal by
//! tests/test_core_greedy.py and the other parity tests, on whichever Python runs them).
//!
//! CPython adds the floats left to right up to 3.11; from 3.12 `sum()` compensates the rounding
//! (Neumaier's improvement of Kahan's summation, with the compensation added at the end when it is
//! non-zero and finite). The evaluation sums its terms with `sum()`, so the core sums them the way
//! the interpreter it is loaded into does: the extension module sets the mode when Python imports it
//! (the pure-Rust tests run in the 3.11 mode).

use std::sync::atomic::{AtomicBool, Ordering};

static COMPENSATED: AtomicBool = AtomicBool::new(false);

/// Sum as CPython 3.12 and later (`true`) or 3.11 and earlier (`false`) do.
pub fn set_compensated(on: bool) {
    COMPENSATED.store(on, Ordering::Relaxed);
}

/// `sum(items)` for floats, starting from the integer 0 as Python's does.
pub fn py_sum<I: IntoIterator<Item = f64>>(items: I) -> f64 {
    if COMPENSATED.load(Ordering::Relaxed) {
        compensated_sum(items)
    } else {
        plain_sum(items)
    }
}

/// CPython 3.11's `sum()` of floats: left to right.
fn plain_sum<I: IntoIterator<Item = f64>>(items: I) -> f64 {
    items.into_iter().fold(0.0, |total, x| total + x)
}

/// CPython 3.12's `sum()` of floats: Neumaier's compensated summation.
fn compensated_sum<I: IntoIterator<Item = f64>>(items: I) -> f64 {
    let (mut total, mut c) = (0.0f64, 0.0f64);
    for x in items {
        let t = total + x;
        if total.abs() >= x.abs() {
            c += (total - t) + x;
        } else {
            c += (x - t) + total;
        }
        total = t;
    }
    if c != 0.0 && c.is_finite() {
        total += c;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_modes_add_as_their_python_does() {
        // sum([0.1, 0.2, 0.3]): 0.6000000000000001 in Python 3.11, 0.6 in 3.12
        assert_eq!(plain_sum([0.1, 0.2, 0.3]), 0.600_000_000_000_000_1);
        assert_eq!(compensated_sum([0.1, 0.2, 0.3]), 0.6);
        // sum([1e100, 1.0, -1e100, 1.0]): 1.0 in 3.11, 2.0 in 3.12
        assert_eq!(plain_sum([1e100, 1.0, -1e100, 1.0]), 1.0);
        assert_eq!(compensated_sum([1e100, 1.0, -1e100, 1.0]), 2.0);
    }
}
