//! A game's endings and seat notices in words, beside their types: the words module sits below
//! the service and knows nothing of it.

use crate::game::{GameEnd, Notice};
use crate::tr;
use crate::words::Lang;
use crate::words::narrate::{Teams, days_and_hours, moment, outcome, team_list};

/// How a game ended, in one sentence.
pub fn ending(lang: Lang, teams: &dyn Teams, end: &GameEnd) -> String {
    match end {
        GameEnd::Played(o) => outcome(lang, teams, o),
        GameEnd::Resigned {
            team,
            winners,
            timed_out: false,
        } => tr!(
            lang,
            "end-resigned",
            team = teams.name(*team),
            winners = team_list(lang, teams, winners),
            // The verb follows the winners' number (one wins, two win).
            count = winners.len()
        ),
        GameEnd::Resigned {
            team,
            winners,
            timed_out: true,
        } => tr!(
            lang,
            "end-timed-out",
            team = teams.person(*team),
            winners = team_list(lang, teams, winners),
            count = winners.len()
        ),
        GameEnd::Cancelled => tr!(lang, "end-cancelled"),
        GameEnd::ThreadDeleted => tr!(lang, "end-thread-deleted"),
    }
}

/// A notice about a seat.
pub fn notice(lang: Lang, teams: &dyn Teams, notice: &Notice) -> String {
    let team = teams.name(notice.team());
    match *notice {
        Notice::Kicked { .. } => tr!(lang, "notice-kicked", team = team),
        Notice::Resigned { .. } => tr!(lang, "notice-resigned", team = team),
        Notice::ResignedLate { .. } => {
            let person = teams.person(notice.team());
            tr!(lang, "notice-resigned-late", team = person)
        }
        Notice::TimedOut { .. } => tr!(lang, "notice-timed-out", team = team),
        Notice::Passed { .. } => tr!(lang, "notice-passed", team = team),
        Notice::TakenOver { missed, .. } => {
            let person = teams.person(notice.team());
            tr!(lang, "notice-taken-over", team = person, missed = missed)
        }
        Notice::Reclaimed { .. } => tr!(lang, "notice-reclaimed", team = team),
        Notice::Away { until_ms, .. } => {
            tr!(lang, "notice-away", team = team, until = moment(until_ms))
        }
        Notice::Held { deadline_ms, .. } => {
            tr!(
                lang,
                "notice-held",
                team = team,
                deadline = moment(deadline_ms)
            )
        }
        Notice::Back { .. } => tr!(lang, "notice-back", team = team),
        Notice::PauseProposed { length_ms, .. } => tr!(
            lang,
            "notice-pause-proposed",
            team = team,
            length = days_and_hours(lang, length_ms)
        ),
        Notice::PauseStarted { until_ms, .. } => {
            tr!(
                lang,
                "notice-pause-started",
                team = team,
                until = moment(until_ms)
            )
        }
        Notice::PauseRefused { .. } => tr!(lang, "notice-pause-refused", team = team),
        Notice::PauseLapsed { .. } => tr!(lang, "notice-pause-lapsed", team = team),
        Notice::PauseOver { .. } => tr!(lang, "notice-pause-over"),
        Notice::Extended { deadline_ms, .. } => {
            tr!(
                lang,
                "notice-extended",
                team = team,
                deadline = moment(deadline_ms)
            )
        }
        Notice::UndoProposed { moves, .. } => tr!(
            lang,
            "notice-undo-proposed",
            team = team,
            others = moves.saturating_sub(1)
        ),
        Notice::UndoAccepted { moves, .. } => {
            tr!(lang, "notice-undo-accepted", team = team, moves = moves)
        }
        Notice::UndoRefused { .. } => tr!(lang, "notice-undo-refused", team = team),
        Notice::UndoLapsed { .. } => tr!(lang, "notice-undo-lapsed", team = team),
        Notice::UndoVoided { .. } => tr!(lang, "notice-undo-voided", team = team),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Team;

    #[test]
    fn a_resignation_names_who_resigned_and_who_won() {
        let named = |t: Team| format!("player {t}");
        let ru = ending(
            Lang::Ru,
            &named,
            &GameEnd::Resigned {
                team: Team::of(1),
                winners: vec![Team::of(2)],
                timed_out: false,
            },
        );
        assert!(ru.contains("player 1") && ru.contains("player 2"), "{ru}");
    }
}
