//! Mirrors `brass_stats.engine.actions` (held equal by tests/test_core_parity.py): one value per action type.
//!
//! The core only ever holds fully stated actions (those `legal_actions` lists); their codec is the
//! log format's JSON objects (docs/log-format.md), read and written with the rules' names.

use crate::rules::{Card, Ind, LinkId, Loc, SlotId};
use arrayvec::ArrayVec;

/// Where a cube or barrel comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Src {
    /// a tile on the board
    Tile(SlotId),
    /// the coal or iron market (or the general supply)
    Market,
    /// the barrel beside the merchant tile sold to
    Merchant,
}

pub type Srcs = ArrayVec<Src, 4>;

/// Who buys in a sale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buyer {
    /// a merchant location (Birmingham)
    Merchant(Loc),
    /// a Port tile (Lancashire)
    Port(SlotId),
    /// the Distant Cotton Market (Lancashire)
    DistantMarket,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sale {
    pub tile: SlotId,
    pub buyer: Buyer,
    pub merchant_space: Option<u8>,
    pub beer: Option<Srcs>,
    pub bonus_develop: Option<Ind>,
}

/// A card slot of an action with its card left out (board keys: see `greedy::grouping`).
pub const NO_CARD: Card = Card::MAX;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Build {
        player: u8,
        card: Card,
        industry: Ind,
        slot: SlotId,
        coal: Option<Srcs>,
        iron: Option<Srcs>,
        second_card: Option<Card>,
    },
    Network {
        player: u8,
        card: Card,
        links: ArrayVec<LinkId, 2>,
        coal: Option<Srcs>,
        beer: Option<Src>,
    },
    Develop {
        player: u8,
        card: Card,
        industries: ArrayVec<Ind, 2>,
        iron: Option<Srcs>,
    },
    Sell {
        player: u8,
        card: Card,
        sales: Vec<Sale>,
    },
    Loan {
        player: u8,
        card: Card,
        amount: Option<i32>,
    },
    Scout {
        player: u8,
        discards: [Card; 3],
    },
    Pass {
        player: u8,
        card: Card,
    },
    Shortfall {
        player: u8,
        tiles: Vec<SlotId>,
    },
}

/// The action types in the order `legal_actions` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pass,
    Build,
    Network,
    Develop,
    Sell,
    Loan,
    Scout,
    Shortfall,
}

impl Action {
    pub fn player(&self) -> u8 {
        match self {
            Action::Build { player, .. }
            | Action::Network { player, .. }
            | Action::Develop { player, .. }
            | Action::Sell { player, .. }
            | Action::Loan { player, .. }
            | Action::Scout { player, .. }
            | Action::Pass { player, .. }
            | Action::Shortfall { player, .. } => *player,
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Action::Build { .. } => Kind::Build,
            Action::Network { .. } => Kind::Network,
            Action::Develop { .. } => Kind::Develop,
            Action::Sell { .. } => Kind::Sell,
            Action::Loan { .. } => Kind::Loan,
            Action::Scout { .. } => Kind::Scout,
            Action::Pass { .. } => Kind::Pass,
            Action::Shortfall { .. } => Kind::Shortfall,
        }
    }

    /// The cards the action discards, in order.
    pub fn cards(&self) -> ArrayVec<Card, 3> {
        let mut out = ArrayVec::new();
        match self {
            Action::Build {
                card, second_card, ..
            } => {
                out.push(*card);
                if let Some(c) = second_card {
                    out.push(*c);
                }
            }
            Action::Scout { discards, .. } => out.extend(discards.iter().copied()),
            Action::Shortfall { .. } => {}
            Action::Network { card, .. }
            | Action::Develop { card, .. }
            | Action::Sell { card, .. }
            | Action::Loan { card, .. }
            | Action::Pass { card, .. } => out.push(*card),
        }
        out
    }

    /// `board_key`: the action with its card(s) left out (but not how many); every Scout shares one.
    pub fn board_key(&self) -> Action {
        let mut key = self.clone();
        match &mut key {
            Action::Build {
                card, second_card, ..
            } => {
                *card = NO_CARD;
                if second_card.is_some() {
                    *second_card = Some(NO_CARD);
                }
            }
            Action::Scout { player, discards } => {
                *player = 0;
                *discards = [NO_CARD; 3];
            }
            Action::Network { card, .. }
            | Action::Develop { card, .. }
            | Action::Sell { card, .. }
            | Action::Loan { card, .. }
            | Action::Pass { card, .. } => *card = NO_CARD,
            Action::Shortfall { .. } => {}
        }
        key
    }
}

impl Action {
    /// A hash of [`Action::board_key`] without making the key (equal keys, equal hashes).
    pub fn board_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        std::mem::discriminant(self).hash(&mut h);
        match self {
            Action::Build {
                player,
                industry,
                slot,
                coal,
                iron,
                second_card,
                ..
            } => (player, industry, slot, coal, iron, second_card.is_some()).hash(&mut h),
            Action::Network {
                player,
                links,
                coal,
                beer,
                ..
            } => (player, links, coal, beer).hash(&mut h),
            Action::Develop {
                player,
                industries,
                iron,
                ..
            } => (player, industries, iron).hash(&mut h),
            Action::Sell { player, sales, .. } => (player, sales).hash(&mut h),
            Action::Loan { player, amount, .. } => (player, amount).hash(&mut h),
            Action::Scout { .. } => {}
            Action::Pass { player, .. } => player.hash(&mut h),
            Action::Shortfall { player, tiles } => (player, tiles).hash(&mut h),
        }
        h.finish()
    }

    /// Whether two actions have the same [`Action::board_key`] (without making the keys).
    pub fn same_board(&self, other: &Action) -> bool {
        use Action as A;
        match (self, other) {
            (
                A::Build {
                    player: p,
                    industry: i,
                    slot: s,
                    coal: c,
                    iron: r,
                    second_card: d,
                    ..
                },
                A::Build {
                    player: p2,
                    industry: i2,
                    slot: s2,
                    coal: c2,
                    iron: r2,
                    second_card: d2,
                    ..
                },
            ) => p == p2 && i == i2 && s == s2 && c == c2 && r == r2 && d.is_some() == d2.is_some(),
            (
                A::Network {
                    player: p,
                    links: l,
                    coal: c,
                    beer: b,
                    ..
                },
                A::Network {
                    player: p2,
                    links: l2,
                    coal: c2,
                    beer: b2,
                    ..
                },
            ) => p == p2 && l == l2 && c == c2 && b == b2,
            (
                A::Develop {
                    player: p,
                    industries: i,
                    iron: r,
                    ..
                },
                A::Develop {
                    player: p2,
                    industries: i2,
                    iron: r2,
                    ..
                },
            ) => p == p2 && i == i2 && r == r2,
            (
                A::Sell {
                    player: p,
                    sales: s,
                    ..
                },
                A::Sell {
                    player: p2,
                    sales: s2,
                    ..
                },
            ) => p == p2 && s == s2,
            (
                A::Loan {
                    player: p,
                    amount: a,
                    ..
                },
                A::Loan {
                    player: p2,
                    amount: a2,
                    ..
                },
            ) => p == p2 && a == a2,
            (A::Scout { .. }, A::Scout { .. }) => true,
            (A::Pass { player: p, .. }, A::Pass { player: p2, .. }) => p == p2,
            (
                A::Shortfall {
                    player: p,
                    tiles: t,
                },
                A::Shortfall {
                    player: p2,
                    tiles: t2,
                },
            ) => p == p2 && t == t2,
            _ => false,
        }
    }
}

mod json;
pub use json::{from_json, to_json};
