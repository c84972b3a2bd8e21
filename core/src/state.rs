//! Mirrors `brass_stats.engine.state.GameState` (held equal by tests/test_core_parity.py): one position.
//!
//! Every field of the reference state has its counterpart here, and `tests/test_core_parity.py`
//! compares the two, field by field, after every action of its games. Orders the reference keeps
//! are kept too: the tiles and links in the order their dicts hold them (the greedy evaluation
//! sums floats over the tiles in that order), hands and discard piles as lists.

use crate::rng::SplitMix64;
use crate::rules::{
    Card, Ind, LinkId, Loc, LocSet, Rules, SlotId, MAX_INDUSTRIES, MAX_LEVELS, MAX_LINKS, MAX_SLOTS,
};
use arrayvec::ArrayVec;
use std::sync::Arc;

pub type Hand = CardList<16>;
pub type Cards = CardList<128>;

/// A list of cards held in place (a hand, the deck, a discard pile): copied as one block of bytes,
/// which makes a state's copy a memory copy (an `ArrayVec` copies element by element).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardList<const N: usize> {
    len: u8,
    cards: [Card; N],
}

impl<const N: usize> CardList<N> {
    pub const fn new() -> Self {
        CardList {
            len: 0,
            cards: [0; N],
        }
    }

    pub const fn capacity(&self) -> usize {
        N
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Add a card at the end; Err when the list is full.
    pub fn try_push(&mut self, card: Card) -> Result<(), Card> {
        let n = self.len as usize;
        if n >= N {
            return Err(card);
        }
        self.cards[n] = card;
        self.len += 1;
        Ok(())
    }

    /// Add a card at the end (cards past the capacity are dropped: the rules never come near it).
    pub fn push(&mut self, card: Card) {
        let _ = self.try_push(card);
    }

    /// Remove the card at `index`, keeping the order of the others.
    pub fn remove(&mut self, index: usize) -> Card {
        let n = self.len as usize;
        let card = self.cards[index];
        self.cards.copy_within(index + 1..n, index);
        self.len -= 1;
        card
    }

    /// Remove the first `n` cards (the top of a deck), keeping the order of the others.
    pub fn remove_front(&mut self, n: usize) {
        let len = self.len as usize;
        let n = n.min(len);
        self.cards.copy_within(n..len, 0);
        self.len = (len - n) as u8;
    }
}

impl<const N: usize> Default for CardList<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> std::ops::Deref for CardList<N> {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl<const N: usize> std::ops::DerefMut for CardList<N> {
    fn deref_mut(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }
}

impl<const N: usize> std::fmt::Debug for CardList<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<const N: usize> Extend<Card> for CardList<N> {
    fn extend<I: IntoIterator<Item = Card>>(&mut self, iter: I) {
        for c in iter {
            self.push(c);
        }
    }
}

impl<const N: usize> FromIterator<Card> for CardList<N> {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut out = Self::new();
        out.extend(iter);
        out
    }
}

impl<'a, const N: usize> IntoIterator for &'a CardList<N> {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
/// Tiles left on a player mat: per industry, per level (index: level - the industry's first level).
pub type Mat = [[u8; MAX_LEVELS]; MAX_INDUSTRIES];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    Canal,
    Rail,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Actions,
    Shortfall,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub owner: u8,
    pub industry: Ind,
    pub level: u8,
    pub flipped: bool,
    /// coal cubes, iron cubes or beer barrels left
    pub resources: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub money: i32,
    pub income_space: u8,
    pub vp: i32,
    pub hand: Hand,
    pub discard: Cards,
    pub mat: Mat,
    /// money spent this round (on the Character tile)
    pub spent: i32,
    pub loans: i32,
    pub link_tiles: i32,
}

impl Player {
    /// The lowest level of `industry` left on the mat.
    pub fn lowest_level(&self, rules: &Rules, industry: Ind) -> Option<u8> {
        let counts = &self.mat[industry as usize];
        let first = rules.first_level(industry);
        let n = rules.levels[industry as usize].len();
        counts[..n]
            .iter()
            .position(|&c| c > 0)
            .map(|i| first + i as u8)
    }

    /// Take one tile of `level` off the mat (it must be there).
    pub fn take_from_mat(&mut self, rules: &Rules, industry: Ind, level: u8) {
        let i = (level - rules.first_level(industry)) as usize;
        let count = &mut self.mat[industry as usize][i];
        *count = count.saturating_sub(1);
    }

    pub fn tiles_left(&self) -> i32 {
        self.mat.iter().flatten().map(|&c| c as i32).sum()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Blank,
    All,
    One(Ind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MerchantSpace {
    pub location: Loc,
    pub index: u8,
    pub face: Face,
    /// a bit per industry the tile buys
    pub accepts: u32,
    pub beer: bool,
}

/// The board just before an era's scoring: tiles and links in their orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EraBoard {
    pub era: Era,
    pub tiles: Vec<(SlotId, Tile)>,
    pub links: Vec<(LinkId, u8)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub introductory: bool,
    pub virtual_link: bool,
    pub classic_deck: bool,
}

/// Where the chance outcomes still to come are drawn from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chance {
    /// `SeededChance`: the seed and the generator's state now
    Seeded { seed: u64, rng: SplitMix64 },
    /// a deal written out in a log (`ExplicitChance`): the core cannot deal what it does not know,
    /// so a Rail Era reached from such a state is an error
    Explicit,
}

#[derive(Clone, Debug)]
pub struct State {
    pub rules: Arc<Rules>,
    pub players: ArrayVec<Player, 4>,
    pub era: Era,
    pub round: u32,
    pub era_round: u8,
    pub turn_order: ArrayVec<u8, 4>,
    pub turn_pos: u8,
    pub actions_this_turn: u8,
    /// top card first
    pub deck: Cards,
    /// cards left in the wild location and wild industry piles
    pub wild: [u8; 2],
    /// the tile on each slot
    pub board: [Option<Tile>; MAX_SLOTS],
    /// occupied slots in the order the reference's dict holds them
    pub tile_order: ArrayVec<SlotId, MAX_SLOTS>,
    /// owner of each link (NO_OWNER: none)
    pub link_owner: [u8; MAX_LINKS],
    /// placed links in the order the reference's dict holds them
    pub link_order: ArrayVec<LinkId, MAX_LINKS>,
    pub coal_market: u8,
    pub iron_market: u8,
    pub merchant_spaces: ArrayVec<MerchantSpace, 16>,
    pub phase: Phase,
    /// (seat, money still owed), in turn order
    pub shortfalls: ArrayVec<(u8, i32), 4>,
    pub era_ends_after_shortfall: bool,
    /// cards beneath the deck tile, unused this era
    pub reserve: Cards,
    /// Distant Cotton Market tiles, top first
    pub dcm_pile: ArrayVec<u8, 16>,
    pub dcm_drawn: ArrayVec<u8, 16>,
    pub dcm_position: u8,
    pub options: Options,
    pub era_boards: Arc<Vec<EraBoard>>,
    pub action_count: u32,
    pub chance: Chance,
}

pub const NO_OWNER: u8 = u8::MAX;

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules)
            && self.players == other.players
            && self.era == other.era
            && self.round == other.round
            && self.era_round == other.era_round
            && self.turn_order == other.turn_order
            && self.turn_pos == other.turn_pos
            && self.actions_this_turn == other.actions_this_turn
            && self.deck == other.deck
            && self.wild == other.wild
            && self.board == other.board
            && self.tile_order == other.tile_order
            && self.link_owner == other.link_owner
            && self.link_order == other.link_order
            && self.coal_market == other.coal_market
            && self.iron_market == other.iron_market
            && self.merchant_spaces == other.merchant_spaces
            && self.phase == other.phase
            && self.shortfalls == other.shortfalls
            && self.era_ends_after_shortfall == other.era_ends_after_shortfall
            && self.reserve == other.reserve
            && self.dcm_pile == other.dcm_pile
            && self.dcm_drawn == other.dcm_drawn
            && self.dcm_position == other.dcm_position
            && self.options == other.options
            && self.era_boards == other.era_boards
            && self.action_count == other.action_count
            && self.chance == other.chance
    }
}

impl State {
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    pub fn canal(&self) -> bool {
        self.era == Era::Canal
    }

    pub fn game_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The seat to move (None once the game is over).
    pub fn current_player(&self) -> Option<u8> {
        match self.phase {
            Phase::Over => None,
            Phase::Shortfall => Some(self.shortfalls[0].0),
            Phase::Actions => Some(self.turn_order[self.turn_pos as usize]),
        }
    }

    pub fn actions_per_turn(&self) -> u8 {
        if self.era == Era::Canal && self.era_round == 1 {
            self.rules.actions_first_round
        } else {
            self.rules.actions_per_turn
        }
    }

    pub fn is_last_round_of_era(&self) -> bool {
        self.era_round == self.rules.rounds(self.num_players())
    }

    /// `GameState.progress()`: how far the game has gone by the round clock, 0 to 1.
    pub fn progress(&self) -> f64 {
        if self.phase == Phase::Over {
            return 1.0;
        }
        let n = self.num_players();
        let per_era = self.rules.rounds(n) as i64;
        let eras = if self.options.introductory { 1 } else { 2 };
        let rail = if self.era == Era::Rail { per_era } else { 0 };
        // the reference: (per_era if rail else 0) + era_round - 1 + turn_pos / n, an int plus a float
        let whole = (rail + self.era_round as i64 - 1) as f64;
        let done = whole + self.turn_pos as f64 / n as f64;
        let total = (eras * per_era) as f64;
        f64::min(1.0, done / total)
    }

    pub fn income_level(&self, seat: usize) -> i32 {
        self.rules.income_level(self.players[seat].income_space)
    }

    pub fn tile(&self, slot: SlotId) -> Option<&Tile> {
        self.board[slot as usize].as_ref()
    }

    /// The tiles in the reference's dict order.
    pub fn tiles(&self) -> impl Iterator<Item = (SlotId, &Tile)> + '_ {
        self.tile_order.iter().map(move |&s| {
            (
                s,
                self.board[s as usize]
                    .as_ref()
                    .expect("ordered slot holds a tile"),
            )
        })
    }

    /// Put a tile on an empty slot (it goes last in the dict order).
    pub fn place_tile(&mut self, slot: SlotId, tile: Tile) {
        if self.board[slot as usize].is_none() {
            self.tile_order.push(slot);
        }
        self.board[slot as usize] = Some(tile);
    }

    /// Take the tile off a slot (`dict.pop`).
    pub fn remove_tile(&mut self, slot: SlotId) -> Option<Tile> {
        let t = self.board[slot as usize].take();
        if t.is_some() {
            if let Some(i) = self.tile_order.iter().position(|&s| s == slot) {
                self.tile_order.remove(i);
            }
        }
        t
    }

    pub fn link(&self, link: LinkId) -> Option<u8> {
        let owner = self.link_owner[link as usize];
        (owner != NO_OWNER).then_some(owner)
    }

    /// The links in the reference's dict order, with their owners.
    pub fn links(&self) -> impl Iterator<Item = (LinkId, u8)> + '_ {
        self.link_order
            .iter()
            .map(move |&l| (l, self.link_owner[l as usize]))
    }

    pub fn add_link(&mut self, link: LinkId, seat: u8) {
        if self.link_owner[link as usize] == NO_OWNER {
            self.link_order.push(link);
        }
        self.link_owner[link as usize] = seat;
    }

    pub fn clear_links(&mut self) {
        for &l in &self.link_order {
            self.link_owner[l as usize] = NO_OWNER;
        }
        self.link_order.clear();
    }

    /// Locations in a player's network: their industry tiles, and every end of their links.
    pub fn network(&self, seat: u8) -> LocSet {
        let rules = &self.rules;
        let mut net = 0;
        for (slot, t) in self.tiles() {
            if t.owner == seat {
                net |= 1u64 << rules.slots[slot as usize].location;
            }
        }
        for (l, owner) in self.links() {
            if owner == seat {
                net |= rules.links[l as usize].connects_set;
            }
        }
        net
    }

    /// An industry tile or a link of the player's on the board.
    pub fn has_pieces_on_board(&self, seat: u8) -> bool {
        self.tiles().any(|(_, t)| t.owner == seat) || self.links().any(|(_, o)| o == seat)
    }

    /// Move the income marker forward, capped at the top of the track; returns spaces moved.
    pub fn advance_income(&mut self, seat: u8, spaces: i32) -> i32 {
        let top = self.rules.max_income_space() as i32;
        let p = &mut self.players[seat as usize];
        let new = i32::min(p.income_space as i32 + spaces, top);
        let moved = new - p.income_space as i32;
        p.income_space = new.max(0) as u8;
        moved
    }
}
