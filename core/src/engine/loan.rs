//! Mirrors `brass_stats.engine.loan` (held equal by tests/test_core_engine.py): the Loan action,
//! money from the bank and the income marker down to the highest space of a lower level.

use crate::state::{Era, State};
use crate::{invalid, CoreResult};

/// `loan_allowed`: Lancashire lends nothing in the Rail Era once the draw deck is empty.
pub fn loan_allowed(state: &State) -> bool {
    !(state.rules.has_deck_tile && state.era == Era::Rail && state.deck.is_empty())
}

/// `apply_loan` (`amount`: None when left out; filled only when the edition has one loan).
pub fn apply_loan(state: &mut State, seat: u8, amount: Option<i32>) -> CoreResult<()> {
    let rules = state.rules.clone();
    if !loan_allowed(state) {
        return invalid("loan.deck_exhausted: no loans once the Rail Era's draw deck is exhausted");
    }
    let options = &rules.loan_options;
    let amount = match amount {
        // decide(STRICT, sorted(amounts)): filled only when there is one amount
        None => match options.first() {
            Some(&(m, _)) if options.iter().all(|&(x, _)| x == m) => m,
            _ => return invalid("ambiguous: the loan amount is left out"),
        },
        Some(x) if options.iter().any(|&(m, _)| m == x) => x,
        Some(x) => return invalid(format!("loan.amount: no loan of £{x}")),
    };
    // dict(loan_options): a later option of the same amount wins
    let lost = rules
        .loan_options
        .iter()
        .rev()
        .find(|&&(m, _)| m == amount)
        .map_or(0, |&(_, l)| l);
    let p = &mut state.players[seat as usize];
    let level = rules.income_level(p.income_space) - lost;
    if level < rules.loan_floor {
        return invalid(format!(
            "loan.limit: the loan would take the income level to {level}"
        ));
    }
    let Some(&space) = rules.top_space.get(&level) else {
        return invalid(format!("loan.limit: no income space shows level {level}"));
    };
    p.income_space = space;
    p.money += amount;
    p.loans += 1;
    Ok(())
}
