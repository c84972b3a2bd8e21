//! A position's wire format (docs/core.md): JSON made by `brass_stats.engine.compiled.encode_state`.
//!
//! Every field of the reference `GameState` but its caches, its effects and its rules (handed over
//! once, as a `Rules`) travels, in the reference's orders; `to_wire` gives the same JSON back, so
//! the parity tests compare a core state with a reference state as two equal JSON values.

use crate::rng::SplitMix64;
use crate::rules::{Card, Ind, LinkId, Loc, Rules, SlotId, MAX_LEVELS};
use crate::state::{
    Cards, Chance, Era, EraBoard, Face, Hand, MerchantSpace, Options, Phase, Player, State, Tile,
    NO_OWNER,
};
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Serialize, Deserialize)]
pub struct PlayerWire {
    pub money: i32,
    pub income_space: u8,
    pub vp: i32,
    pub hand: Vec<Card>,
    pub discard: Vec<Card>,
    /// per industry (the rules' order), the tiles left per level, lowest first
    pub mat: Vec<Vec<u8>>,
    pub spent: i32,
    pub loans: i32,
    pub link_tiles: i32,
}

/// (slot, owner, industry, level, flipped, resources)
pub type TileWire = (SlotId, u8, Ind, u8, bool, u8);

#[derive(Serialize, Deserialize)]
pub struct EraBoardWire {
    pub era: String,
    pub tiles: Vec<TileWire>,
    pub links: Vec<(LinkId, u8)>,
}

#[derive(Serialize, Deserialize)]
pub struct MerchantSpaceWire {
    pub location: Loc,
    pub index: u8,
    /// "blank", "all" or the industry bought
    pub face: String,
    pub accepts: Vec<Ind>,
    pub beer: bool,
}

#[derive(Serialize, Deserialize)]
pub struct OptionsWire {
    pub introductory: bool,
    pub virtual_link: bool,
    pub classic_deck: bool,
}

#[derive(Serialize, Deserialize)]
pub struct ChanceWire {
    pub seed: u64,
    pub state: u64,
}

#[derive(Serialize, Deserialize)]
pub struct StateWire {
    pub players: Vec<PlayerWire>,
    pub era: String,
    pub round: u32,
    pub era_round: u8,
    pub turn_order: Vec<u8>,
    pub turn_pos: u8,
    pub actions_this_turn: u8,
    pub deck: Vec<Card>,
    pub wild: Option<[u8; 2]>,
    pub tiles: Vec<TileWire>,
    pub links: Vec<(LinkId, u8)>,
    pub coal_market: u8,
    pub iron_market: u8,
    pub merchant_spaces: Vec<MerchantSpaceWire>,
    pub phase: String,
    pub shortfalls: Vec<(u8, i32)>,
    pub era_ends_after_shortfall: bool,
    pub reserve: Vec<Card>,
    pub dcm_pile: Vec<u8>,
    pub dcm_drawn: Vec<u8>,
    pub dcm_position: u8,
    pub options: OptionsWire,
    pub era_boards: Vec<EraBoardWire>,
    pub action_count: u32,
    pub chance: Option<ChanceWire>,
}

fn era_of(s: &str) -> Result<Era, String> {
    match s {
        "canal" => Ok(Era::Canal),
        "rail" => Ok(Era::Rail),
        _ => Err(format!("unknown era {s:?}")),
    }
}

fn era_name(e: Era) -> String {
    match e {
        Era::Canal => "canal".into(),
        Era::Rail => "rail".into(),
    }
}

fn cards<const N: usize>(
    rules: &Rules,
    v: &[Card],
    what: &str,
) -> Result<crate::state::CardList<N>, String> {
    let mut out = crate::state::CardList::new();
    for &c in v {
        if c as usize >= rules.cards.len() {
            return Err(format!("{what}: no card {c}"));
        }
        out.try_push(c)
            .map_err(|_| format!("{what}: more than {N} cards"))?;
    }
    Ok(out)
}

fn tile_of(rules: &Rules, players: usize, t: &TileWire) -> Result<(SlotId, Tile), String> {
    let &(slot, owner, industry, level, flipped, resources) = t;
    if slot as usize >= rules.slots.len()
        || owner as usize >= players
        || industry as usize >= rules.industries.len()
    {
        return Err(format!("a tile names no slot, seat or industry: {t:?}"));
    }
    let levels = &rules.levels[industry as usize];
    if level < levels[0].level || (level - levels[0].level) as usize >= levels.len() {
        return Err(format!("a tile of a level that does not exist: {t:?}"));
    }
    Ok((
        slot,
        Tile {
            owner,
            industry,
            level,
            flipped,
            resources,
        },
    ))
}

fn link_of(rules: &Rules, players: usize, l: &(LinkId, u8)) -> Result<(LinkId, u8), String> {
    if l.0 as usize >= rules.links.len() || l.1 as usize >= players {
        return Err(format!("a link names no link or seat: {l:?}"));
    }
    Ok(*l)
}

impl State {
    /// A state from its wire form; a malformed one is an error naming what is wrong.
    pub fn from_wire(rules: Arc<Rules>, w: &StateWire) -> Result<State, String> {
        let r = &*rules;
        let n = w.players.len();
        if !(2..=4).contains(&n) {
            return Err(format!("a game has 2 to 4 players, not {n}"));
        }
        let mut players = ArrayVec::new();
        for (seat, p) in w.players.iter().enumerate() {
            if p.mat.len() != r.industries.len() {
                return Err(format!(
                    "player {seat}: the mat lists {} industries",
                    p.mat.len()
                ));
            }
            let mut mat = [[0u8; MAX_LEVELS]; crate::rules::MAX_INDUSTRIES];
            for (i, counts) in p.mat.iter().enumerate() {
                if counts.len() != r.levels[i].len() {
                    return Err(format!(
                        "player {seat}: the mat has {} levels of {}",
                        counts.len(),
                        r.industries[i]
                    ));
                }
                mat[i][..counts.len()].copy_from_slice(counts);
            }
            if p.income_space as usize >= r.income_levels.len() {
                return Err(format!("player {seat}: no income space {}", p.income_space));
            }
            let hand: Hand = cards(r, &p.hand, "a hand")?;
            let discard: Cards = cards(r, &p.discard, "a discard pile")?;
            players.push(Player {
                money: p.money,
                income_space: p.income_space,
                vp: p.vp,
                hand,
                discard,
                mat,
                spent: p.spent,
                loans: p.loans,
                link_tiles: p.link_tiles,
            });
        }
        let mut board = [None; crate::rules::MAX_SLOTS];
        let mut tile_order = ArrayVec::new();
        for t in &w.tiles {
            let (slot, tile) = tile_of(r, n, t)?;
            if board[slot as usize].is_some() {
                return Err(format!(
                    "two tiles on slot {}",
                    r.slots[slot as usize].reference
                ));
            }
            board[slot as usize] = Some(tile);
            tile_order.push(slot);
        }
        let mut link_owner = [NO_OWNER; crate::rules::MAX_LINKS];
        let mut link_order = ArrayVec::new();
        for l in &w.links {
            let (id, owner) = link_of(r, n, l)?;
            if link_owner[id as usize] != NO_OWNER {
                return Err(format!("link {} placed twice", r.links[id as usize].id));
            }
            link_owner[id as usize] = owner;
            link_order.push(id);
        }
        let mut merchant_spaces = ArrayVec::new();
        for m in &w.merchant_spaces {
            let face = match m.face.as_str() {
                "blank" => Face::Blank,
                "all" => Face::All,
                name => Face::One(
                    r.industry_id(name)
                        .ok_or_else(|| format!("unknown merchant face {name:?}"))?,
                ),
            };
            if m.location as usize >= r.locations.len() {
                return Err("a merchant space names no location".into());
            }
            let space = MerchantSpace {
                location: m.location,
                index: m.index,
                face,
                accepts: m.accepts.iter().fold(0, |acc, &i| acc | 1 << i),
                beer: m.beer,
            };
            merchant_spaces
                .try_push(space)
                .map_err(|_| "too many merchant spaces")?;
        }
        let phase = match w.phase.as_str() {
            "actions" => Phase::Actions,
            "shortfall" => Phase::Shortfall,
            "over" => Phase::Over,
            other => return Err(format!("unknown phase {other:?}")),
        };
        let turn_order: ArrayVec<u8, 4> = w.turn_order.iter().copied().collect();
        let mut seats = w.turn_order.clone();
        seats.sort_unstable();
        if seats != (0..n as u8).collect::<Vec<_>>() || w.turn_pos as usize >= n.max(1) {
            return Err(format!(
                "turn order {:?} at {} is not one of {n} seats",
                w.turn_order, w.turn_pos
            ));
        }
        if phase == Phase::Shortfall && w.shortfalls.is_empty() {
            return Err("a shortfall phase with no shortfall".into());
        }
        if w.shortfalls.iter().any(|&(s, _)| s as usize >= n) || w.shortfalls.len() > 4 {
            return Err("a shortfall names no seat".into());
        }
        let mut era_boards = Vec::new();
        for b in &w.era_boards {
            let tiles = b
                .tiles
                .iter()
                .map(|t| tile_of(r, n, t))
                .collect::<Result<Vec<_>, _>>()?;
            let links = b
                .links
                .iter()
                .map(|l| link_of(r, n, l))
                .collect::<Result<Vec<_>, _>>()?;
            era_boards.push(EraBoard {
                era: era_of(&b.era)?,
                tiles,
                links,
            });
        }
        if w.coal_market > r.coal_market.capacity() || w.iron_market > r.iron_market.capacity() {
            return Err(format!(
                "markets hold {} coal and {} iron: more than they have spaces for",
                w.coal_market, w.iron_market
            ));
        }
        let dcm_rows = r.dcm_track.len().max(1);
        if w.dcm_position as usize >= dcm_rows {
            return Err(format!("no Distant Cotton Market row {}", w.dcm_position));
        }
        Ok(State {
            players,
            era: era_of(&w.era)?,
            round: w.round,
            era_round: w.era_round,
            turn_order,
            turn_pos: w.turn_pos,
            actions_this_turn: w.actions_this_turn,
            deck: cards(r, &w.deck, "the deck")?,
            wild: w.wild.unwrap_or([0, 0]),
            board,
            tile_order,
            link_owner,
            link_order,
            coal_market: w.coal_market,
            iron_market: w.iron_market,
            merchant_spaces,
            phase,
            shortfalls: w.shortfalls.iter().copied().collect(),
            era_ends_after_shortfall: w.era_ends_after_shortfall,
            reserve: cards(r, &w.reserve, "the reserve")?,
            dcm_pile: w.dcm_pile.iter().copied().take(16).collect(),
            dcm_drawn: w.dcm_drawn.iter().copied().take(16).collect(),
            dcm_position: w.dcm_position,
            options: Options {
                introductory: w.options.introductory,
                virtual_link: w.options.virtual_link,
                classic_deck: w.options.classic_deck,
            },
            era_boards: Arc::new(era_boards),
            action_count: w.action_count,
            chance: match &w.chance {
                Some(c) => Chance::Seeded {
                    seed: c.seed,
                    rng: SplitMix64::new(c.state),
                },
                None => Chance::Explicit,
            },
            rules,
        })
    }

    /// The wire form of this state (the same JSON the reference's encoder makes).
    pub fn to_wire(&self) -> StateWire {
        let r = &*self.rules;
        let tile_wire = |(slot, t): (SlotId, &Tile)| {
            (slot, t.owner, t.industry, t.level, t.flipped, t.resources)
        };
        StateWire {
            players: self
                .players
                .iter()
                .map(|p| PlayerWire {
                    money: p.money,
                    income_space: p.income_space,
                    vp: p.vp,
                    hand: p.hand.to_vec(),
                    discard: p.discard.to_vec(),
                    mat: (0..r.industries.len())
                        .map(|i| p.mat[i][..r.levels[i].len()].to_vec())
                        .collect(),
                    spent: p.spent,
                    loans: p.loans,
                    link_tiles: p.link_tiles,
                })
                .collect(),
            era: era_name(self.era),
            round: self.round,
            era_round: self.era_round,
            turn_order: self.turn_order.to_vec(),
            turn_pos: self.turn_pos,
            actions_this_turn: self.actions_this_turn,
            deck: self.deck.to_vec(),
            wild: r.has_scout.then_some(self.wild),
            tiles: self.tiles().map(tile_wire).collect(),
            links: self.links().collect(),
            coal_market: self.coal_market,
            iron_market: self.iron_market,
            merchant_spaces: self
                .merchant_spaces
                .iter()
                .map(|m| MerchantSpaceWire {
                    location: m.location,
                    index: m.index,
                    face: match m.face {
                        Face::Blank => "blank".into(),
                        Face::All => "all".into(),
                        Face::One(i) => r.industries[i as usize].clone(),
                    },
                    accepts: (0..r.industries.len() as u8)
                        .filter(|&i| m.accepts >> i & 1 == 1)
                        .collect(),
                    beer: m.beer,
                })
                .collect(),
            phase: match self.phase {
                Phase::Actions => "actions",
                Phase::Shortfall => "shortfall",
                Phase::Over => "over",
            }
            .into(),
            shortfalls: self.shortfalls.to_vec(),
            era_ends_after_shortfall: self.era_ends_after_shortfall,
            reserve: self.reserve.to_vec(),
            dcm_pile: self.dcm_pile.to_vec(),
            dcm_drawn: self.dcm_drawn.to_vec(),
            dcm_position: self.dcm_position,
            options: OptionsWire {
                introductory: self.options.introductory,
                virtual_link: self.options.virtual_link,
                classic_deck: self.options.classic_deck,
            },
            era_boards: self
                .era_boards
                .iter()
                .map(|b| EraBoardWire {
                    era: era_name(b.era),
                    tiles: b.tiles.iter().map(|(s, t)| tile_wire((*s, t))).collect(),
                    links: b.links.clone(),
                })
                .collect(),
            action_count: self.action_count,
            chance: match &self.chance {
                Chance::Seeded { seed, rng } => Some(ChanceWire {
                    seed: *seed,
                    state: rng.state,
                }),
                Chance::Explicit => None,
            },
        }
    }
}
