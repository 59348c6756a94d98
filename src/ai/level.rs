//! The bots' levels and their names (what seats store, what `--bots` and menus take).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// Any legal action, uniformly at random.
    Random,
    /// Greedy: the action whose outcome looks best, judged by what a beginner weighs.
    Easy,
    /// A search over what may lie under the fog, within a time budget.
    Normal,
    /// Normal's search, wider (easy's lower-ranked actions join once the search has
    /// settled on the first) and trusting its rounds more as they add up, with twice the
    /// time by default.
    Hard,
}

/// A level name that is none of [`BotLevel::ALL`]; it names the valid ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot level `{given}` (levels: {})", BotLevel::names().join(", "))]
pub struct UnknownLevel {
    pub given: String,
}

impl BotLevel {
    /// Every level, weakest first.
    pub const ALL: [BotLevel; 4] = [
        BotLevel::Random,
        BotLevel::Easy,
        BotLevel::Normal,
        BotLevel::Hard,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Hard => "hard",
        }
    }

    pub fn names() -> Vec<&'static str> {
        BotLevel::ALL.iter().map(|l| l.name()).collect()
    }

    /// Does this level search within a time budget (`--think-ms`)?
    pub fn searches(self) -> bool {
        matches!(self, BotLevel::Normal | BotLevel::Hard)
    }

    /// The level named `text` (any case, surrounding spaces ignored).
    pub fn parse(text: &str) -> Option<BotLevel> {
        text.parse().ok()
    }
}

impl FromStr for BotLevel {
    type Err = UnknownLevel;

    fn from_str(text: &str) -> Result<BotLevel, UnknownLevel> {
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownLevel {
                given: text.trim().to_string(),
            })
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for level in BotLevel::ALL {
            assert_eq!(BotLevel::parse(level.name()), Some(level));
            assert_eq!(level.to_string().parse::<BotLevel>(), Ok(level));
        }
        assert_eq!(BotLevel::parse(" Normal "), Some(BotLevel::Normal));
        assert_eq!(BotLevel::parse("HARD"), Some(BotLevel::Hard));
        assert_eq!(BotLevel::Hard.to_string(), "hard");
        // As seats and settings store it (serde), and read it back.
        assert_eq!(serde_json::to_string(&BotLevel::Hard).unwrap(), "\"hard\"");
        for level in BotLevel::ALL {
            let stored = serde_json::to_string(&level).unwrap();
            assert_eq!(serde_json::from_str::<BotLevel>(&stored).unwrap(), level);
        }
    }

    #[test]
    fn an_unknown_level_names_the_valid_ones() {
        let error = "genius".parse::<BotLevel>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown bot level `genius` (levels: random, easy, normal, hard)"
        );
    }
}
