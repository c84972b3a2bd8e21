//! Mirrors `brass_stats.rules_data.RulesData` (held equal by tests/test_core_parity.py): the printed components.
//!
//! The Python package is the one reader of the edition JSON files; it hands the core a table
//! (`brass_stats.engine.compiled.rules_table`, the wire format in docs/core.md) and the core
//! keeps everything as small integer ids in the orders the reference iterates: industries,
//! locations, links and merchants in the rules data's order, cards and slots sorted by their
//! text (the reference sorts card codes and slot references as strings).

use serde::Deserialize;
use std::collections::HashMap;

/// An industry id: its index in the edition's industry list.
pub type Ind = u8;
/// A location id: its index in the rules data's location list.
pub type Loc = u8;
/// A slot id: its index among every slot, sorted by reference text (`"location:slot"`).
pub type SlotId = u8;
/// A link id: its index in the rules data's link list.
pub type LinkId = u8;
/// A card id: its index among every card code, sorted by text.
pub type Card = u8;

/// A set of locations (at most 64).
pub type LocSet = u64;

pub const MAX_SLOTS: usize = 64;
pub const MAX_LINKS: usize = 64;
pub const MAX_INDUSTRIES: usize = 8;
pub const MAX_LEVELS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edition {
    Birmingham,
    Lancashire,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocationKind {
    Town,
    FarmBrewery,
    Merchant,
    /// Lancashire's towns without building spaces
    LinkOnly,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Level {
    pub level: u8,
    pub tiles: u8,
    pub cost_money: i32,
    pub cost_coal: u8,
    pub cost_iron: u8,
    pub beer_to_sell: u8,
    pub vp: i32,
    pub income_spaces: i32,
    pub link_vp: i32,
    pub coal_produced: u8,
    pub iron_produced: u8,
    pub beer_canal: u8,
    pub beer_rail: u8,
    pub canal_ok: bool,
    pub rail_ok: bool,
    pub can_develop: bool,
}

impl Level {
    pub fn buildable_in(&self, canal: bool) -> bool {
        if canal {
            self.canal_ok
        } else {
            self.rail_ok
        }
    }
}

#[derive(Clone, Debug)]
pub struct Location {
    pub id: String,
    pub kind: LocationKind,
    pub printed_link_vp: i32,
    /// slot ids in the location's own order (slot index 0, 1, ...)
    pub slots: Vec<SlotId>,
    /// bit per industry: shown on any of its slots
    pub industries: u32,
}

#[derive(Clone, Debug)]
pub struct Slot {
    pub location: Loc,
    pub index: u8,
    /// industries shown, in printed order
    pub industries: Vec<Ind>,
    pub mask: u32,
    /// `"location:index"`
    pub reference: String,
}

#[derive(Clone, Debug)]
pub struct Link {
    pub id: String,
    pub endpoints: [Loc; 2],
    /// endpoints, plus a farm brewery joined to the line
    pub connects: Vec<Loc>,
    pub connects_set: LocSet,
    pub canal: bool,
    pub rail: bool,
}

impl Link {
    pub fn allowed_in(&self, canal: bool) -> bool {
        if canal {
            self.canal
        } else {
            self.rail
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    Money,
    Vp,
    Income,
    Develop,
}

#[derive(Clone, Debug)]
pub struct Merchant {
    pub location: Loc,
    pub spaces: u8,
    pub bonus: Bonus,
    pub amount: i32,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Market {
    /// cheapest space first
    pub prices: Vec<i32>,
    pub price_when_empty: i32,
}

impl Market {
    pub fn capacity(&self) -> u8 {
        self.prices.len() as u8
    }

    /// Price of the cheapest filled space when the market holds `cubes`.
    pub fn buy_price(&self, cubes: u8) -> i32 {
        let capacity = self.prices.len();
        let cubes = cubes as usize;
        if cubes == 0 || cubes > capacity {
            return self.price_when_empty;
        }
        self.prices[capacity - cubes]
    }

    /// Price paid for the most expensive empty space, or None when full.
    pub fn sell_price(&self, cubes: u8) -> Option<i32> {
        let capacity = self.prices.len();
        let cubes = cubes as usize;
        if cubes >= capacity {
            return None;
        }
        Some(self.prices[capacity - cubes - 1])
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    /// a location card
    Location(Loc),
    /// an industry card: a bit per industry it builds
    Industry(u32),
    WildLocation,
    WildIndustry,
}

#[derive(Clone, Debug)]
pub struct CardInfo {
    pub code: String,
    pub kind: CardKind,
}

impl CardInfo {
    pub fn is_wild(&self) -> bool {
        matches!(self.kind, CardKind::WildLocation | CardKind::WildIndustry)
    }
}

/// Every printed value the engine needs, for one edition and one set of tile overrides.
#[derive(Clone, Debug)]
pub struct Rules {
    pub edition: Edition,
    pub industries: Vec<String>,
    /// per industry, its levels, lowest first
    pub levels: Vec<Vec<Level>>,
    pub locations: Vec<Location>,
    pub slots: Vec<Slot>,
    pub links: Vec<Link>,
    pub merchants: Vec<Merchant>,
    /// merchant index of a location (None: not a merchant location)
    pub merchant_at: Vec<Option<u8>>,
    pub coal_market: Market,
    pub iron_market: Market,
    pub income_levels: Vec<i32>,
    /// highest track space showing an income level, by level + 10
    pub top_space: HashMap<i32, u8>,
    pub hand_size: usize,
    pub actions_first_round: u8,
    pub actions_per_turn: u8,
    pub loan_floor: i32,
    /// (money, income levels lost)
    pub loan_options: Vec<(i32, i32)>,
    pub scout_discards: usize,
    /// rounds per era, by number of players
    pub rounds_per_era: [u8; 5],
    pub face_down_discards: usize,
    pub has_deck_tile: bool,
    pub cash_vp_per: Option<i32>,
    /// income spaces per row of the Distant Cotton Market track (None: the X)
    pub dcm_track: Vec<Option<i32>>,
    /// the Distant Cotton Market tiles, by number of players
    pub dcm_tiles: HashMap<u8, Vec<u8>>,
    pub flips_on_build: u32,
    pub double_rail_beer: u8,
    pub double_action_build: bool,
    pub link_anywhere_without_pieces: bool,
    pub classic_deck_removed_in_rail: HashMap<u8, usize>,
    pub virtual_link: Option<(Loc, Loc)>,
    pub sellable: u32,
    pub trade_locations: LocSet,
    pub trade_industries: u32,
    pub cards: Vec<CardInfo>,
    pub wild_location: Option<Card>,
    pub wild_industry: Option<Card>,
    pub has_scout: bool,
    pub link_aliases: HashMap<String, LinkId>,
    pub coal_mine: Option<Ind>,
    pub iron_works: Option<Ind>,
    pub brewery: Option<Ind>,
    pub port: Option<Ind>,
    pub pottery: Option<Ind>,
    pub link_tiles: i32,
}

impl Rules {
    pub fn level(&self, industry: Ind, level: u8) -> &Level {
        let levels = &self.levels[industry as usize];
        let first = levels[0].level;
        &levels[(level - first) as usize]
    }

    pub fn first_level(&self, industry: Ind) -> u8 {
        self.levels[industry as usize][0].level
    }

    pub fn max_income_space(&self) -> u8 {
        (self.income_levels.len() - 1) as u8
    }

    pub fn income_level(&self, space: u8) -> i32 {
        self.income_levels[space as usize]
    }

    pub fn is_sellable(&self, industry: Ind) -> bool {
        self.sellable >> industry & 1 == 1
    }

    pub fn resources_on_build(&self, industry: Ind, level: u8, canal: bool) -> u8 {
        let info = self.level(industry, level);
        if Some(industry) == self.coal_mine {
            info.coal_produced
        } else if Some(industry) == self.iron_works {
            info.iron_produced
        } else if Some(industry) == self.brewery {
            if canal {
                info.beer_canal
            } else {
                info.beer_rail
            }
        } else {
            0
        }
    }

    pub fn industry_id(&self, name: &str) -> Option<Ind> {
        self.industries
            .iter()
            .position(|n| n == name)
            .map(|i| i as Ind)
    }

    pub fn location_id(&self, name: &str) -> Option<Loc> {
        self.locations
            .iter()
            .position(|l| l.id == name)
            .map(|i| i as Loc)
    }

    pub fn card_id(&self, code: &str) -> Option<Card> {
        self.cards
            .iter()
            .position(|c| c.code == code)
            .map(|i| i as Card)
    }

    pub fn slot_id(&self, reference: &str) -> Option<SlotId> {
        self.slots
            .iter()
            .position(|s| s.reference == reference)
            .map(|i| i as SlotId)
    }

    pub fn link_id(&self, name: &str) -> Option<LinkId> {
        self.link_aliases.get(name).copied()
    }

    pub fn is_merchant(&self, loc: Loc) -> bool {
        self.locations[loc as usize].kind == LocationKind::Merchant
    }

    pub fn rounds(&self, players: usize) -> u8 {
        self.rounds_per_era[players]
    }
}

// -- the wire format (see docs/core.md) -------------------------------------------------------

#[derive(Deserialize)]
struct LocationWire {
    id: String,
    kind: String,
    printed_link_vp: i32,
    slots: Vec<Vec<Ind>>,
}

#[derive(Deserialize)]
struct LinkWire {
    id: String,
    endpoints: [Loc; 2],
    connects: Vec<Loc>,
    canal: bool,
    rail: bool,
}

#[derive(Deserialize)]
struct MerchantWire {
    location: Loc,
    spaces: u8,
    bonus_type: String,
    bonus_amount: i32,
}

#[derive(Deserialize)]
struct CardWire {
    code: String,
    location: Option<Loc>,
    industries: Vec<Ind>,
    wild: Option<String>,
}

#[derive(Deserialize)]
struct SlotWire {
    location: Loc,
    index: u8,
}

#[derive(Deserialize)]
struct RulesWire {
    edition: String,
    industries: Vec<String>,
    levels: Vec<Vec<Level>>,
    locations: Vec<LocationWire>,
    links: Vec<LinkWire>,
    merchants: Vec<MerchantWire>,
    coal_market: Market,
    iron_market: Market,
    income_levels: Vec<i32>,
    hand_size: usize,
    actions_first_round: u8,
    actions_per_turn: u8,
    loan_floor: i32,
    loan_options: Vec<(i32, i32)>,
    scout_discards: usize,
    rounds_per_era: HashMap<String, u8>,
    face_down_discards: usize,
    has_deck_tile: bool,
    cash_vp_per: Option<i32>,
    dcm_track: Vec<Option<i32>>,
    dcm_tiles: HashMap<String, Vec<u8>>,
    flips_on_build: Vec<Ind>,
    double_rail_beer: u8,
    double_action_build: bool,
    link_anywhere_without_pieces: bool,
    classic_deck_removed_in_rail: HashMap<String, usize>,
    virtual_link: Option<(Loc, Loc)>,
    sellable: Vec<Ind>,
    trade_locations: Vec<Loc>,
    trade_industries: Vec<Ind>,
    cards: Vec<CardWire>,
    slots: Vec<SlotWire>,
    has_scout: bool,
    link_aliases: HashMap<String, LinkId>,
    link_tiles: i32,
}

fn mask<I: IntoIterator<Item = u8>>(items: I) -> u32 {
    items.into_iter().fold(0, |m, i| m | 1 << i)
}

fn by_players<T: Clone>(map: &HashMap<String, T>) -> Result<HashMap<u8, T>, String> {
    map.iter()
        .map(|(k, v)| {
            k.parse::<u8>()
                .map(|n| (n, v.clone()))
                .map_err(|_| format!("not a player count: {k}"))
        })
        .collect()
}

impl Rules {
    /// The rules from their wire table (JSON text made by the Python package).
    pub fn from_json(text: &str) -> Result<Rules, String> {
        let w: RulesWire = serde_json::from_str(text).map_err(|e| format!("rules table: {e}"))?;
        let edition = match w.edition.as_str() {
            "birmingham" => Edition::Birmingham,
            "lancashire" => Edition::Lancashire,
            other => return Err(format!("rules table: unknown edition {other:?}")),
        };
        if w.industries.len() > MAX_INDUSTRIES
            || w.slots.len() > MAX_SLOTS
            || w.links.len() > MAX_LINKS
            || w.locations.len() > 64
            || w.levels
                .iter()
                .any(|l| l.len() > MAX_LEVELS || l.is_empty())
        {
            return Err("rules table: more industries, levels, slots, links or locations than the core holds".into());
        }
        let mut slots: Vec<Slot> = w
            .slots
            .iter()
            .map(|s| Slot {
                location: s.location,
                index: s.index,
                industries: vec![],
                mask: 0,
                reference: String::new(),
            })
            .collect();
        let mut locations = Vec::with_capacity(w.locations.len());
        for (li, lw) in w.locations.iter().enumerate() {
            let kind = match lw.kind.as_str() {
                "town" => LocationKind::Town,
                "farm_brewery" => LocationKind::FarmBrewery,
                "merchant" => LocationKind::Merchant,
                "link_only_town" => LocationKind::LinkOnly,
                other => return Err(format!("rules table: unknown location kind {other:?}")),
            };
            let mut ids = Vec::with_capacity(lw.slots.len());
            let mut industries = 0;
            for (index, shown) in lw.slots.iter().enumerate() {
                let id = slots
                    .iter()
                    .position(|s| s.location as usize == li && s.index as usize == index)
                    .ok_or_else(|| {
                        format!(
                            "rules table: slot {}:{index} missing from the slot list",
                            lw.id
                        )
                    })?;
                slots[id].industries = shown.clone();
                slots[id].mask = mask(shown.iter().copied());
                slots[id].reference = format!("{}:{index}", lw.id);
                industries |= slots[id].mask;
                ids.push(id as SlotId);
            }
            locations.push(Location {
                id: lw.id.clone(),
                kind,
                printed_link_vp: lw.printed_link_vp,
                slots: ids,
                industries,
            });
        }
        if slots.iter().any(|s| s.reference.is_empty()) {
            return Err("rules table: a slot belongs to no location".into());
        }
        let links = w
            .links
            .iter()
            .map(|l| Link {
                id: l.id.clone(),
                endpoints: l.endpoints,
                connects: l.connects.clone(),
                connects_set: l.connects.iter().fold(0, |m, &c| m | 1u64 << c),
                canal: l.canal,
                rail: l.rail,
            })
            .collect();
        let mut merchant_at = vec![None; locations.len()];
        let mut merchants = Vec::with_capacity(w.merchants.len());
        for (i, m) in w.merchants.iter().enumerate() {
            let bonus = match m.bonus_type.as_str() {
                "money" => Bonus::Money,
                "vp" => Bonus::Vp,
                "income" => Bonus::Income,
                "develop" => Bonus::Develop,
                other => return Err(format!("rules table: unknown merchant bonus {other:?}")),
            };
            merchant_at[m.location as usize] = Some(i as u8);
            merchants.push(Merchant {
                location: m.location,
                spaces: m.spaces,
                bonus,
                amount: m.bonus_amount,
            });
        }
        let mut top_space = HashMap::new();
        for (i, &lv) in w.income_levels.iter().enumerate() {
            top_space.insert(lv, i as u8); // a later space overwrites an earlier one
        }
        let mut rounds_per_era = [0u8; 5];
        for (k, v) in by_players(&w.rounds_per_era)? {
            if (k as usize) < rounds_per_era.len() {
                rounds_per_era[k as usize] = v;
            }
        }
        let mut cards = Vec::with_capacity(w.cards.len());
        let (mut wild_location, mut wild_industry) = (None, None);
        for (i, c) in w.cards.iter().enumerate() {
            let kind = match (&c.wild, c.location) {
                (Some(wk), _) if wk == "location" => {
                    wild_location = Some(i as Card);
                    CardKind::WildLocation
                }
                (Some(_), _) => {
                    wild_industry = Some(i as Card);
                    CardKind::WildIndustry
                }
                (None, Some(loc)) => CardKind::Location(loc),
                (None, None) => CardKind::Industry(mask(c.industries.iter().copied())),
            };
            cards.push(CardInfo {
                code: c.code.clone(),
                kind,
            });
        }
        let find = |name: &str| {
            w.industries
                .iter()
                .position(|n| n == name)
                .map(|i| i as Ind)
        };
        Ok(Rules {
            edition,
            coal_mine: find("coal_mine"),
            iron_works: find("iron_works"),
            brewery: find("brewery"),
            port: find("port"),
            pottery: find("pottery"),
            industries: w.industries.clone(),
            levels: w.levels,
            locations,
            slots,
            links,
            merchants,
            merchant_at,
            coal_market: w.coal_market,
            iron_market: w.iron_market,
            income_levels: w.income_levels,
            top_space,
            hand_size: w.hand_size,
            actions_first_round: w.actions_first_round,
            actions_per_turn: w.actions_per_turn,
            loan_floor: w.loan_floor,
            loan_options: w.loan_options,
            scout_discards: w.scout_discards,
            rounds_per_era,
            face_down_discards: w.face_down_discards,
            has_deck_tile: w.has_deck_tile,
            cash_vp_per: w.cash_vp_per,
            dcm_track: w.dcm_track,
            dcm_tiles: by_players(&w.dcm_tiles)?,
            flips_on_build: mask(w.flips_on_build),
            double_rail_beer: w.double_rail_beer,
            double_action_build: w.double_action_build,
            link_anywhere_without_pieces: w.link_anywhere_without_pieces,
            classic_deck_removed_in_rail: by_players(&w.classic_deck_removed_in_rail)?,
            virtual_link: w.virtual_link,
            sellable: mask(w.sellable),
            trade_locations: w.trade_locations.iter().fold(0, |m, &l| m | 1u64 << l),
            trade_industries: mask(w.trade_industries),
            cards,
            wild_location,
            wild_industry,
            has_scout: w.has_scout,
            link_aliases: w.link_aliases,
            link_tiles: w.link_tiles,
        })
    }
}
