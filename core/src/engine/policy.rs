//! Mirrors `brass_stats.engine.policy` (held equal by tests/test_core_engine.py): how a choice an
//! action leaves out is filled. The core applies fully stated actions under `STRICT`; the legal
//! Sell enumeration resolves sales with `WITH_MERCHANT_BEER` / `WITHOUT_MERCHANT_BEER`
//! (`brass_stats.engine.legal.sell`). No policy tolerates a broken rule.

use crate::action::Src;
use crate::{invalid, CoreResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `STRICT`: only a choice with one option may be left out
    Strict,
    /// `_BeerPreference(merchant)`: the first option everywhere, the merchant's barrel only when asked
    Beer { merchant: bool },
}

/// `decide(policy, what, options)`: a single option needs no policy.
pub fn decide<T: Copy>(policy: Policy, options: &[T]) -> CoreResult<T> {
    match (options, policy) {
        ([only], _) => Ok(*only),
        ([first, ..], Policy::Beer { .. }) => Ok(*first),
        ([], _) => invalid("ambiguous: no option to choose from"),
        (_, Policy::Strict) => invalid(format!(
            "ambiguous: the action leaves out a choice of {} options",
            options.len()
        )),
    }
}

impl Policy {
    /// `decide(policy, BEER_SOURCE, options)`.
    pub fn beer(self, options: &[Src]) -> CoreResult<Src> {
        if options.len() == 1 {
            return Ok(options[0]);
        }
        match self {
            Policy::Beer { merchant } => {
                if merchant && options.contains(&Src::Merchant) {
                    return Ok(Src::Merchant);
                }
                match options.iter().find(|&&o| o != Src::Merchant) {
                    Some(&o) => Ok(o),
                    None => decide(self, options),
                }
            }
            Policy::Strict => decide(self, options),
        }
    }
}
