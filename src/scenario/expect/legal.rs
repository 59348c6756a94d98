//! `expect legal [for F] includes|excludes|exactly A; …` and `expect legal [for F] count K`:
//! the legal actions of the current position (S-EXP-1, S-EXP-2).

use super::{Verdict, pass_if, take_rest, unreadable};
use crate::engine::action::Action;
use crate::engine::game::Game;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LegalMode {
    Includes,
    Excludes,
    Exactly,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LegalExpectation {
    List {
        filter: Option<String>,
        mode: LegalMode,
        actions: Vec<String>,
    },
    Count(Option<String>, u32),
}

impl LegalExpectation {
    pub fn parse(w: &mut Words) -> Result<Self, LineError> {
        let filter = if w.eat("for") {
            let f = w.next("a filter")?;
            if !matches!(
                f,
                "1" | "2" | "3" | "b" | "f" | "m" | "ship" | "boat" | "res" | "rum"
            ) {
                return Err(w.err(format!("`{f}` is not a filter")));
            }
            Some(f.to_string())
        } else {
            None
        };
        let mode = match w.next("includes, excludes, exactly or count")? {
            "includes" => LegalMode::Includes,
            "excludes" => LegalMode::Excludes,
            "exactly" => LegalMode::Exactly,
            "count" => return Ok(Self::Count(filter, w.count()?)),
            s => {
                return Err(w.err(format!(
                    "`{s}`: includes, excludes, exactly or count expected"
                )));
            }
        };
        let actions: Vec<String> = take_rest(w)
            .split(|t| t == ";")
            .map(|a| a.join(" "))
            .collect();
        // The grammar's action list holds one action at least (§9): "no action is legal" is
        // `count 0`, so `exactly` with nothing after it is a scenario error like any empty entry.
        if actions.iter().any(String::is_empty) {
            return Err(w.err(if actions.len() == 1 {
                "no action listed (for no legal action at all, write `count 0`)"
            } else {
                "an empty action in the list"
            }));
        }
        Ok(Self::List {
            filter,
            mode,
            actions,
        })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        match self {
            Self::List {
                filter,
                mode,
                actions,
            } => check_list(game, filter, *mode, actions),
            Self::Count(filter, k) => {
                let n = game
                    .legal_actions_unflagged()
                    .iter()
                    .filter(|a| starts_with_filter(game, a, filter))
                    .count() as u32;
                pass_if(n == *k, || format!("count {n}"))
            }
        }
    }
}

fn starts_with_filter(game: &Game, a: &Action, filter: &Option<String>) -> bool {
    match filter {
        None => true,
        Some(f) => game.notation(a).split(' ').next() == Some(f.as_str()),
    }
}

fn check_list(game: &Game, filter: &Option<String>, mode: LegalMode, texts: &[String]) -> Verdict {
    let legal: Vec<Action> = game
        .legal_actions_unflagged()
        .into_iter()
        .filter(|a| starts_with_filter(game, a, filter))
        .collect();
    let mut listed: Vec<(String, Option<Action>)> = Vec::new();
    for t in texts {
        match game.parse_action(t) {
            Ok(a) => listed.push((game.notation(&a), Some(a))),
            Err(e) if unreadable(e) => return Verdict::Error(format!("`{t}`: {e}")),
            Err(_) => listed.push((t.clone(), None)),
        }
    }
    let is_legal = |a: &Option<Action>| a.is_some_and(|a| legal.contains(&a));
    let missing: Vec<String> = listed
        .iter()
        .filter(|(_, a)| !is_legal(a))
        .map(|(t, _)| t.clone())
        .collect();
    let present: Vec<String> = listed
        .iter()
        .filter(|(_, a)| is_legal(a))
        .map(|(t, _)| t.clone())
        .collect();
    match mode {
        LegalMode::Includes => pass_if(missing.is_empty(), || {
            format!("missing: {}", missing.join("; "))
        }),
        LegalMode::Excludes => pass_if(present.is_empty(), || {
            format!("unexpected: {}", present.join("; "))
        }),
        LegalMode::Exactly => {
            let unexpected: Vec<String> = legal
                .iter()
                .filter(|a| !listed.iter().any(|(_, l)| l.as_ref() == Some(*a)))
                .map(|a| game.notation(a))
                .collect();
            pass_if(missing.is_empty() && unexpected.is_empty(), || {
                let mut parts = Vec::new();
                if !missing.is_empty() {
                    parts.push(format!("missing: {}", missing.join("; ")));
                }
                if !unexpected.is_empty() {
                    parts.push(format!("unexpected: {}", unexpected.join("; ")));
                }
                parts.join("  ")
            })
        }
    }
}
