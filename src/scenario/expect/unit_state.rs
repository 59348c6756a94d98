//! The states `expect unit REF STATE` can name, and what each means for a living unit.

use crate::engine::unit::{Place, Seat, Unit};

/// A state an `expect unit` line can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitState {
    Alive,
    Drunk,
    Sober,
    Trapped,
    Stuck,
    Free,
    Swimming,
    Aboard,
    Pilot,
    Passenger,
    Unseated,
    Converted,
}

impl UnitState {
    /// Every state with its word: the one table both reading and printing use.
    const WORDS: [(&'static str, UnitState); 12] = [
        ("alive", UnitState::Alive),
        ("drunk", UnitState::Drunk),
        ("sober", UnitState::Sober),
        ("trapped", UnitState::Trapped),
        ("stuck", UnitState::Stuck),
        ("free", UnitState::Free),
        ("swimming", UnitState::Swimming),
        ("aboard", UnitState::Aboard),
        ("pilot", UnitState::Pilot),
        ("passenger", UnitState::Passenger),
        ("unseated", UnitState::Unseated),
        ("converted", UnitState::Converted),
    ];

    pub fn parse(word: &str) -> Option<UnitState> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, s)| *s)
    }

    pub fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |(w, _)| w)
    }

    /// Whether the living unit `u` is in this state.
    pub fn holds(self, u: &Unit) -> bool {
        match self {
            UnitState::Alive => true,
            UnitState::Drunk => u.drunk,
            UnitState::Sober => !u.drunk,
            UnitState::Trapped => u.trapped,
            UnitState::Stuck => u.stuck(),
            UnitState::Free => !u.trapped && !u.stuck(),
            UnitState::Swimming => matches!(u.place, Place::Swim(_)),
            UnitState::Aboard => matches!(u.place, Place::Aboard(_)),
            UnitState::Pilot => u.seat == Some(Seat::Pilot),
            UnitState::Passenger => u.seat == Some(Seat::Passenger),
            UnitState::Unseated => u.seat.is_none(),
            UnitState::Converted => u.converted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_state_reads_back_from_its_word() {
        for (word, state) in UnitState::WORDS {
            assert_eq!(UnitState::parse(word), Some(state));
            assert_eq!(state.word(), word);
        }
        assert_eq!(UnitState::parse("tipsy"), None);
    }
}
