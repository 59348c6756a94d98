//! A row of the action log as the service reads it: an engine action, or moves taken back by
//! consent. The `action` column holds either; this is the one place that tells them apart.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::Action;
pub use crate::store::TakeBack;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logged {
    Play(Action),
    TakeBack(TakeBack),
}

impl Logged {
    /// The step an `action` column holds (`Err`: neither, with the reader's complaint).
    pub fn parse(column: &str) -> Result<Logged, String> {
        if let Some(back) = TakeBack::parse(column) {
            return Ok(Logged::TakeBack(back));
        }
        serde_json::from_str(column)
            .map(Logged::Play)
            .map_err(|e| e.to_string())
    }

    /// The text of the `action` column.
    pub fn encode(&self) -> String {
        match self {
            Logged::Play(action) => serde_json::to_string(action).expect("plain data"),
            Logged::TakeBack(back) => back.encode(),
        }
    }

    pub fn action(&self) -> Option<Action> {
        match self {
            Logged::Play(action) => Some(*action),
            Logged::TakeBack(_) => None,
        }
    }

    pub fn take_back(&self) -> Option<TakeBack> {
        match self {
            Logged::Play(_) => None,
            Logged::TakeBack(back) => Some(*back),
        }
    }
}

/// In an export a step is written as its column's JSON, so that an export of a game without
/// take-backs reads exactly as before they existed.
impl Serialize for Logged {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value: serde_json::Value =
            serde_json::from_str(&self.encode()).expect("the column's JSON");
        value.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Logged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Logged, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        Logged::parse(&value.to_string()).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cell;

    #[test]
    fn a_step_reads_back_as_it_was_written() {
        let steps = [
            Logged::Play(Action::Ship {
                to: Cell::new(0, 3),
            }),
            Logged::Play(Action::Pass),
            Logged::TakeBack(TakeBack { to: 7 }),
        ];
        for step in steps {
            assert_eq!(Logged::parse(&step.encode()), Ok(step));
            let exported = serde_json::to_string(&step).unwrap();
            assert_eq!(serde_json::from_str::<Logged>(&exported).unwrap(), step);
        }
        assert_eq!(
            Logged::TakeBack(TakeBack { to: 7 }).encode(),
            r#"{"TakeBack":{"to":7}}"#
        );
        assert!(Logged::parse(r#"{"TakeBack":{"to":"x"}}"#).is_err());
        assert!(Logged::parse("{}").is_err());
    }
}
