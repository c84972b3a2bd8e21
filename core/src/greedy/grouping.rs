//! Mirrors `brass_stats.bots.greedy.grouping` (held equal by tests/test_core_greedy.py): actions
//! that differ only in their discarded cards lead to the same board, one group each.

use crate::action::Action;
use crate::state::State;
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};

/// Groups of actions, each a list of indexes into the actions grouped.
pub type Groups = Vec<Vec<usize>>;

/// An action seen through `Action::board_key` without making the key (`Action::board_hash`,
/// `Action::same_board`).
struct BoardKey<'a>(&'a Action);

impl PartialEq for BoardKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_board(other.0)
    }
}

impl Eq for BoardKey<'_> {}

impl Hash for BoardKey<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.0.board_hash());
    }
}

/// `group_by_board(actions)`: the actions by `Action::board_key`, the groups and the actions in
/// them in the order given (first seen first).
pub fn group_by_board(actions: &[Action]) -> Groups {
    // each action's group first, then the groups at their exact sizes (one allocation each)
    let mut of: Vec<u32> = Vec::with_capacity(actions.len());
    let mut sizes: Vec<usize> = Vec::new();
    // only looked up, never iterated: the order is the groups' own
    let mut index: FxHashMap<BoardKey, u32> =
        FxHashMap::with_capacity_and_hasher(actions.len(), Default::default());
    for (i, a) in actions.iter().enumerate() {
        // most actions follow one with the same board (the legal list varies the card innermost)
        let g = match of.last() {
            Some(&prev) if actions[i - 1].same_board(a) => prev,
            _ => *index.entry(BoardKey(a)).or_insert_with(|| {
                sizes.push(0);
                (sizes.len() - 1) as u32
            }),
        };
        sizes[g as usize] += 1;
        of.push(g);
    }
    let mut groups: Groups = sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
    for (i, &g) in of.iter().enumerate() {
        groups[g as usize].push(i);
    }
    groups
}

/// A Sell's merit: (sales, VP of the tiles sold).
fn merit(state: &State, a: &Action) -> (usize, i32) {
    match a {
        Action::Sell { sales, .. } => {
            let vp = sales
                .iter()
                .filter_map(|s| state.tile(s.tile))
                .map(|t| state.rules.level(t.industry, t.level).vp)
                .sum();
            (sales.len(), vp)
        }
        _ => (0, 0),
    }
}

/// `cap_sells(state, groups, cap)`: at most `cap` Sell groups, those whose actions flip the most
/// tiles, then score the most VP (ties keep the order given); every other group is kept.
pub fn cap_sells(state: &State, actions: &[Action], groups: Groups, cap: usize) -> Groups {
    let is_sell = |g: &Vec<usize>| matches!(actions[g[0]], Action::Sell { .. });
    let mut sells: Vec<(usize, (usize, i32))> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| is_sell(g))
        .map(|(k, g)| (k, merit(state, &actions[g[0]])))
        .collect();
    if sells.len() <= cap {
        return groups;
    }
    // a stable sort, best first: ties keep the order given (as `sorted(..., reverse=True)`)
    sells.sort_by_key(|s| std::cmp::Reverse(s.1));
    let mut keep = vec![false; groups.len()];
    for &(k, _) in &sells[..cap] {
        keep[k] = true;
    }
    groups
        .into_iter()
        .enumerate()
        .filter(|(k, g)| !is_sell(g) || keep[*k])
        .map(|(_, g)| g)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrayvec::ArrayVec;

    fn build(card: u8, second_card: Option<u8>) -> Action {
        Action::Build {
            player: 0,
            card,
            industry: 1,
            slot: 4,
            coal: None,
            iron: None,
            second_card,
        }
    }

    #[test]
    fn groups_and_their_actions_keep_the_order_first_seen() {
        let actions = [
            Action::Pass { player: 0, card: 3 },
            Action::Loan {
                player: 0,
                card: 3,
                amount: None,
            },
            Action::Pass { player: 0, card: 5 },
            Action::Loan {
                player: 0,
                card: 7,
                amount: None,
            },
        ];
        assert_eq!(group_by_board(&actions), vec![vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn a_build_discarding_two_cards_is_its_own_group_and_every_scout_shares_one() {
        let scout = |d: [u8; 3]| Action::Scout {
            player: 1,
            discards: d,
        };
        let actions = [
            build(1, None),
            build(2, Some(3)),
            build(4, None),
            scout([1, 2, 3]),
            build(5, Some(6)),
            scout([4, 5, 6]),
        ];
        assert_eq!(
            group_by_board(&actions),
            vec![vec![0, 2], vec![1, 4], vec![3, 5]]
        );
        let develop = |card, industries: &[u8]| Action::Develop {
            player: 0,
            card,
            industries: industries.iter().copied().collect::<ArrayVec<u8, 2>>(),
            iron: None,
        };
        let develops = [develop(1, &[0]), develop(2, &[0, 1]), develop(3, &[0])];
        assert_eq!(group_by_board(&develops), vec![vec![0, 2], vec![1]]);
        let all: Vec<Action> = actions.iter().chain(&develops).cloned().collect();
        for a in &all {
            for b in &all {
                assert_eq!(
                    a.same_board(b),
                    a.board_key() == b.board_key(),
                    "{a:?} / {b:?}"
                );
                if a.same_board(b) {
                    assert_eq!(a.board_hash(), b.board_hash());
                }
            }
        }
    }
}
