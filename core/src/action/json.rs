//! Mirrors `Action.to_json` and `action_from_json` of `brass_stats.engine.actions` (held equal by
//! tests/test_core_parity.py): the log format's JSON objects, read and written with the rules' names.

use super::{Action, Buyer, Sale, Src, Srcs};
use crate::rules::{Card, Ind, Rules, SlotId};
use arrayvec::ArrayVec;
use serde_json::{json, Map, Value};

fn src_json(rules: &Rules, s: Src) -> Value {
    match s {
        Src::Tile(slot) => Value::String(rules.slots[slot as usize].reference.clone()),
        Src::Market => Value::String("market".into()),
        Src::Merchant => Value::String("merchant".into()),
    }
}

fn srcs_json(rules: &Rules, s: &Srcs) -> Value {
    Value::Array(s.iter().map(|&x| src_json(rules, x)).collect())
}

fn card_json(rules: &Rules, c: Card) -> Value {
    Value::String(rules.cards[c as usize].code.clone())
}

/// The action as a log-format JSON object (the reference's `Action.to_json()`).
pub fn to_json(rules: &Rules, a: &Action) -> Value {
    let mut m = Map::new();
    let put = |m: &mut Map<String, Value>, k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    match a {
        Action::Build {
            player,
            card,
            industry,
            slot,
            coal,
            iron,
            second_card,
        } => {
            let s = &rules.slots[*slot as usize];
            put(&mut m, "type", json!("build"));
            put(&mut m, "player", json!(player));
            put(&mut m, "card", card_json(rules, *card));
            put(
                &mut m,
                "industry",
                json!(rules.industries[*industry as usize]),
            );
            put(
                &mut m,
                "location",
                json!(rules.locations[s.location as usize].id),
            );
            put(&mut m, "slot", json!(s.index));
            if let Some(c) = coal {
                put(&mut m, "coal", srcs_json(rules, c));
            }
            if let Some(i) = iron {
                put(&mut m, "iron", srcs_json(rules, i));
            }
            if let Some(c) = second_card {
                put(&mut m, "second_card", card_json(rules, *c));
            }
        }
        Action::Network {
            player,
            card,
            links,
            coal,
            beer,
        } => {
            put(&mut m, "type", json!("network"));
            put(&mut m, "player", json!(player));
            put(&mut m, "card", card_json(rules, *card));
            put(
                &mut m,
                "links",
                Value::Array(
                    links
                        .iter()
                        .map(|&l| json!(rules.links[l as usize].id))
                        .collect(),
                ),
            );
            if let Some(c) = coal {
                put(&mut m, "coal", srcs_json(rules, c));
            }
            if let Some(b) = beer {
                put(&mut m, "beer", src_json(rules, *b));
            }
        }
        Action::Develop {
            player,
            card,
            industries,
            iron,
        } => {
            put(&mut m, "type", json!("develop"));
            put(&mut m, "player", json!(player));
            put(&mut m, "card", card_json(rules, *card));
            put(
                &mut m,
                "industries",
                Value::Array(
                    industries
                        .iter()
                        .map(|&i| json!(rules.industries[i as usize]))
                        .collect(),
                ),
            );
            if let Some(i) = iron {
                put(&mut m, "iron", srcs_json(rules, i));
            }
        }
        Action::Sell {
            player,
            card,
            sales,
        } => {
            put(&mut m, "type", json!("sell"));
            put(&mut m, "player", json!(player));
            put(&mut m, "card", card_json(rules, *card));
            let list = sales
                .iter()
                .map(|s| {
                    let mut o = Map::new();
                    o.insert("tile".into(), json!(rules.slots[s.tile as usize].reference));
                    let buyer = match s.buyer {
                        Buyer::Merchant(loc) => rules.locations[loc as usize].id.clone(),
                        Buyer::Port(slot) => rules.slots[slot as usize].reference.clone(),
                        Buyer::DistantMarket => "distant_market".into(),
                    };
                    o.insert("merchant".into(), Value::String(buyer));
                    if let Some(i) = s.merchant_space {
                        o.insert("merchant_space".into(), json!(i));
                    }
                    if let Some(b) = &s.beer {
                        o.insert("beer".into(), srcs_json(rules, b));
                    }
                    if let Some(d) = s.bonus_develop {
                        o.insert("bonus_develop".into(), json!(rules.industries[d as usize]));
                    }
                    Value::Object(o)
                })
                .collect();
            put(&mut m, "sales", Value::Array(list));
        }
        Action::Loan {
            player,
            card,
            amount,
        } => {
            put(&mut m, "type", json!("loan"));
            put(&mut m, "player", json!(player));
            put(&mut m, "card", card_json(rules, *card));
            if let Some(x) = amount {
                put(&mut m, "amount", json!(x));
            }
        }
        Action::Scout { player, discards } => {
            put(&mut m, "type", json!("scout"));
            put(&mut m, "player", json!(player));
            put(
                &mut m,
                "discards",
                Value::Array(discards.iter().map(|&c| card_json(rules, c)).collect()),
            );
        }
        Action::Pass { player, card } => {
            put(&mut m, "type", json!("pass"));
            put(&mut m, "player", json!(player));
            put(&mut m, "card", card_json(rules, *card));
        }
        Action::Shortfall { player, tiles } => {
            put(&mut m, "type", json!("shortfall"));
            put(&mut m, "player", json!(player));
            put(
                &mut m,
                "tiles",
                Value::Array(
                    tiles
                        .iter()
                        .map(|&t| json!(rules.slots[t as usize].reference))
                        .collect(),
                ),
            );
        }
    }
    Value::Object(m)
}

fn field<'a>(o: &'a Map<String, Value>, k: &str) -> Result<&'a Value, String> {
    o.get(k).ok_or_else(|| format!("the action has no {k:?}"))
}

fn text<'a>(v: &'a Value, what: &str) -> Result<&'a str, String> {
    v.as_str().ok_or_else(|| format!("{what} must be a string"))
}

fn card_of(rules: &Rules, v: &Value) -> Result<Card, String> {
    let code = text(v, "a card")?;
    rules
        .card_id(code)
        .ok_or_else(|| format!("unknown card {code:?}"))
}

fn industry_of(rules: &Rules, v: &Value) -> Result<Ind, String> {
    let name = text(v, "an industry")?;
    rules
        .industry_id(name)
        .ok_or_else(|| format!("unknown industry {name:?}"))
}

fn slot_of(rules: &Rules, v: &Value) -> Result<SlotId, String> {
    let r = text(v, "a tile")?;
    rules
        .slot_id(r)
        .ok_or_else(|| format!("unknown slot {r:?}"))
}

fn src_of(rules: &Rules, v: &Value) -> Result<Src, String> {
    match text(v, "a source")? {
        "market" => Ok(Src::Market),
        "merchant" => Ok(Src::Merchant),
        r => rules
            .slot_id(r)
            .map(Src::Tile)
            .ok_or_else(|| format!("unknown source {r:?}")),
    }
}

fn list<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array().ok_or_else(|| format!("{what} must be a list"))
}

fn srcs_of(rules: &Rules, o: &Map<String, Value>, k: &str) -> Result<Option<Srcs>, String> {
    match o.get(k) {
        None => Ok(None),
        Some(v) => {
            let items = list(v, k)?;
            let mut out = Srcs::new();
            for x in items {
                out.try_push(src_of(rules, x)?)
                    .map_err(|_| format!("too many {k} sources"))?;
            }
            Ok(Some(out))
        }
    }
}

fn small_int(v: &Value, what: &str) -> Result<i64, String> {
    v.as_i64()
        .ok_or_else(|| format!("{what} must be an integer"))
}

/// An action from its log-format JSON object. Only the names are checked here, not the rules.
pub fn from_json(rules: &Rules, v: &Value) -> Result<Action, String> {
    let o = v.as_object().ok_or("an action must be a JSON object")?;
    let player = small_int(field(o, "player")?, "player")?;
    if !(0..4).contains(&player) {
        return Err(format!("no seat {player}"));
    }
    let player = player as u8;
    let kind = text(field(o, "type")?, "type")?;
    let card = || card_of(rules, field(o, "card")?);
    Ok(match kind {
        "build" => {
            let location = text(field(o, "location")?, "location")?;
            let index = small_int(field(o, "slot")?, "slot")?;
            let slot = rules
                .slot_id(&format!("{location}:{index}"))
                .ok_or_else(|| format!("unknown slot {location}:{index}"))?;
            Action::Build {
                player,
                card: card()?,
                industry: industry_of(rules, field(o, "industry")?)?,
                slot,
                coal: srcs_of(rules, o, "coal")?,
                iron: srcs_of(rules, o, "iron")?,
                second_card: o
                    .get("second_card")
                    .map(|c| card_of(rules, c))
                    .transpose()?,
            }
        }
        "network" => {
            let mut links = ArrayVec::new();
            for l in list(field(o, "links")?, "links")? {
                let name = text(l, "a link")?;
                let id = rules
                    .link_id(name)
                    .ok_or_else(|| format!("unknown link {name:?}"))?;
                links
                    .try_push(id)
                    .map_err(|_| "at most two links".to_string())?;
            }
            Action::Network {
                player,
                card: card()?,
                links,
                coal: srcs_of(rules, o, "coal")?,
                beer: o.get("beer").map(|b| src_of(rules, b)).transpose()?,
            }
        }
        "develop" => {
            let mut industries = ArrayVec::new();
            for i in list(field(o, "industries")?, "industries")? {
                industries
                    .try_push(industry_of(rules, i)?)
                    .map_err(|_| "at most two industries".to_string())?;
            }
            Action::Develop {
                player,
                card: card()?,
                industries,
                iron: srcs_of(rules, o, "iron")?,
            }
        }
        "sell" => {
            let mut sales = Vec::new();
            for s in list(field(o, "sales")?, "sales")? {
                let so = s.as_object().ok_or("a sale must be an object")?;
                let tile = slot_of(rules, field(so, "tile")?)?;
                let buyer_name = text(field(so, "merchant")?, "merchant")?;
                let buyer = if buyer_name == "distant_market" {
                    Buyer::DistantMarket
                } else if let Some(slot) = rules.slot_id(buyer_name) {
                    Buyer::Port(slot)
                } else {
                    Buyer::Merchant(
                        rules
                            .location_id(buyer_name)
                            .ok_or_else(|| format!("unknown merchant {buyer_name:?}"))?,
                    )
                };
                let merchant_space = match so.get("merchant_space") {
                    None => None,
                    Some(v) => Some(
                        u8::try_from(small_int(v, "merchant_space")?)
                            .map_err(|_| "bad merchant_space")?,
                    ),
                };
                sales.push(Sale {
                    tile,
                    buyer,
                    merchant_space,
                    beer: srcs_of(rules, so, "beer")?,
                    bonus_develop: so
                        .get("bonus_develop")
                        .map(|b| industry_of(rules, b))
                        .transpose()?,
                });
            }
            Action::Sell {
                player,
                card: card()?,
                sales,
            }
        }
        "loan" => Action::Loan {
            player,
            card: card()?,
            amount: o
                .get("amount")
                .map(|a| small_int(a, "amount").map(|x| x as i32))
                .transpose()?,
        },
        "scout" => {
            let d = list(field(o, "discards")?, "discards")?;
            if d.len() != 3 {
                return Err("a scout discards three cards".into());
            }
            Action::Scout {
                player,
                discards: [
                    card_of(rules, &d[0])?,
                    card_of(rules, &d[1])?,
                    card_of(rules, &d[2])?,
                ],
            }
        }
        "pass" => Action::Pass {
            player,
            card: card()?,
        },
        "shortfall" => {
            let mut tiles = Vec::new();
            if let Some(t) = o.get("tiles") {
                for x in list(t, "tiles")? {
                    tiles.push(slot_of(rules, x)?);
                }
            }
            Action::Shortfall { player, tiles }
        }
        other => return Err(format!("unknown action type {other:?}")),
    })
}
