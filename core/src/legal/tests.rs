//! Unit tests of the enumeration's small helpers (the parity with the reference is held by
//! tests/test_core_legal.py, which needs the Python package).

use super::build::dedup;
use super::network::{link_cost, min_index};
use super::probe::{reach, INF};
use super::slots::bits;
use arrayvec::ArrayVec;

#[test]
fn bits_lists_members_lowest_first() {
    assert_eq!(bits(0).count(), 0);
    assert_eq!(bits(0b1010_0101).collect::<Vec<_>>(), vec![0, 2, 5, 7]);
    assert_eq!(bits(1 << 63).collect::<Vec<_>>(), vec![63]);
}

#[test]
fn dedup_keeps_one_of_each_run() {
    let mut v: ArrayVec<(u8, u8), 8> = [(1, 2), (1, 2), (1, 3), (2, 2), (2, 2)]
        .into_iter()
        .collect();
    dedup(&mut v);
    assert_eq!(v.as_slice(), &[(1, 2), (1, 3), (2, 2)]);
}

#[test]
fn min_index_treats_none_as_infinity() {
    assert_eq!(min_index(None, None), None);
    assert_eq!(min_index(Some(3), None), Some(3));
    assert_eq!(min_index(None, Some(2)), Some(2));
    assert_eq!(min_index(Some(3), Some(2)), Some(2));
}

#[test]
fn link_costs_are_the_printed_ones() {
    assert_eq!(link_cost(true, 1), 3);
    assert_eq!(link_cost(false, 1), 5);
    assert_eq!(link_cost(false, 2), 15);
}

#[test]
fn reach_counts_links_from_the_nearest_origin() {
    // 0 - 1 - 2 - 3, and 4 alone; a three-way link puts 5, 6, 7 one apart
    let mut adj = [0u64; 64];
    for (a, b) in [(0, 1), (1, 2), (2, 3), (5, 6), (5, 7), (6, 7)] {
        adj[a] |= 1 << b;
        adj[b] |= 1 << a;
    }
    let r = reach(&adj, 1);
    assert_eq!((r.get(0), r.get(1), r.get(2), r.get(3)), (0, 1, 2, 3));
    assert_eq!(r.get(4), INF);
    assert!(r.contains(3) && !r.contains(4));
    let r = reach(&adj, 1 << 3 | 1 << 4);
    assert_eq!((r.get(0), r.get(3), r.get(4)), (3, 0, 0));
    let r = reach(&adj, 1 << 5);
    assert_eq!((r.get(6), r.get(7)), (1, 1));
}
