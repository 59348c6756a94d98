//! Turn use cases: legal moves of a user, acting, bots, resigning, history. Every accepted
//! action is committed by [`GameService::commit_action`], in one transaction.

use crate::id::{GameId, UserId};
use crate::store::{Db, Tx};
use serde::Serialize;

use super::Needs;
use super::end::GameEnd;
use super::lobby::{end_in, notice, public_target};
use super::logged::Logged;
use super::outbox::{self, Notice, OutboxMessage, Target};
use super::record;
use super::reminder_settings;
use super::results;
use super::turn_view::may_act;
use super::vacation::CameBack;
use super::{
    Actor, Damage, GameService, Loaded, Result, SNAPSHOT_EVERY, ServiceError, TimeoutPolicy,
};
use crate::ai::{self, Bot, BotLevel, NoMove};
use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, ChoiceKind, Event, Game, Outcome, Players, Team, notation};
use crate::store::{self, ActionRow, GameStatus, SeatRow};

/// Writes that ride along in an action's transaction.
#[derive(Default)]
pub(super) struct Extra {
    pub seat: Option<SeatRow>,
    pub notice: Option<Notice>,
}

impl Extra {
    /// What rides along with a person's own move: they are no longer "missing deadlines in a
    /// row".
    pub(super) fn for_mover(loaded: &Loaded, game: &Game, user: UserId) -> Extra {
        let seat = seat_on_turn(loaded, game, user)
            .ok()
            .filter(|s| s.missed_deadlines > 0)
            .map(|s| SeatRow {
                missed_deadlines: 0,
                ..s.clone()
            });
        Extra { seat, notice: None }
    }
}

/// The ply being committed, for its board post.
struct ThisPly {
    ply: u32,
    /// It answered a choice: the move began at an earlier ply.
    answered_choice: bool,
}

/// Who moves next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Human { team: Team, user: UserId },
    Bot { team: Team, level: BotLevel },
    Over,
}

/// An accepted action and what followed.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub game_id: GameId,
    pub ply: u32,
    /// The number of the move this action belongs to, as players count moves.
    pub move_number: u32,
    /// The mover was on vacation: moving ended it (what was given back, what is left).
    pub came_back: Option<CameBack>,
    /// The actions of the whole move once it is complete (its first action and the answers to
    /// the choices it stopped for); this action alone while a choice is pending.
    pub move_actions: Vec<Action>,
    pub team: Team,
    pub action: Action,
    pub notation: String,
    pub events: Vec<Event>,
    /// A choice the same player must answer before the turn passes.
    pub pending: Option<ChoiceKind>,
    pub next: Next,
    pub outcome: Option<Outcome>,
}

/// One action of a game's history: who played what, and what happened (to be told in words
/// by whoever shows it, in their language).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryEntry {
    pub ply: u32,
    pub team: u8,
    pub user_id: Option<UserId>,
    pub notation: String,
    pub action: Option<Action>,
    pub events: Vec<Event>,
    /// A take-back row: the ply the game went back to.
    pub take_back: Option<u32>,
    /// A step a later take-back undid (it stays in the log, marked).
    pub taken_back: bool,
}

/// A legal move as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    pub notation: String,
    pub fatal: bool,
}

/// A bot's move, thought out on a read of the game at `ply` (see [`GameService::think`]).
#[derive(Clone, Debug)]
pub(super) struct Thought {
    pub ply: u32,
    /// The team whose player the bot stands in for (R-TURN-8).
    pub team: Team,
    /// For a bot's seat, one action (its timer comes back for the next); for a person whose
    /// time ran out, the whole turn: the action and the answers to the choices it leads to,
    /// so that the player is not handed a half-played turn with a fresh deadline.
    pub actions: Vec<Action>,
}

/// Whom a bot stands in for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stand {
    /// A bot's seat, on turn.
    Seat,
    /// A person on turn whose deadline passed (the game's timeout level plays).
    Deadline,
}

impl Thought {
    /// Is `loaded` still the position this was thought out for? (Nothing was played since,
    /// and the same player is on turn.)
    pub(super) fn still_fits(&self, loaded: &Loaded) -> bool {
        loaded.row.status == GameStatus::Active
            && loaded.row.ply == self.ply
            && loaded.game.as_ref().map(Game::controller) == Some(self.team)
    }

    /// The action to play first (a thought always has one).
    pub(super) fn first(&self) -> Action {
        self.actions[0]
    }
}

/// The seed of a game's bots. Not the map's seed itself: a bot given that could deal the map
/// again and read the fog. Two outputs of the generator the map's seed starts, folded
/// together, give a number from which the map's seed cannot be worked back.
fn bot_seed(map_seed: u64, stand: Stand) -> u64 {
    let salt = match stand {
        Stand::Seat => 0x626f_7473,
        Stand::Deadline => 0x7469_6d65,
    };
    let mut rng = SplitMix64::new(map_seed ^ salt);
    rng.next_u64() ^ rng.next_u64().rotate_left(29)
}

/// The rest of the turn that `action` begins, played by the bot on a copy of `game`: the
/// answers to the choices it leads to (R-CHAIN), and after a rum serving (a free action,
/// R-RUM-2) the turn's main action. It stops when the turn ends (the next one starts) or the
/// game does. Each action is decided on the public view of the position it answers, as the
/// bot would see it at its own timer.
fn rest_of_turn(game: &Game, action: Action, team: Team, bot: &Bot) -> Vec<Action> {
    let mut game = game.clone();
    let mut rest = Vec::new();
    let turn_over = |events: &[Event]| {
        events
            .iter()
            .any(|e| matches!(e, Event::TurnStarted { .. } | Event::GameOver(_)))
    };
    match game.play(&action) {
        Ok(events) if !turn_over(&events) => {}
        _ => return rest,
    }
    while game.controller() == team && game.outcome().is_none() {
        let Ok(next) = ai::decide(&game.public_view(), bot) else {
            break;
        };
        let Ok(events) = game.play(&next) else {
            break;
        };
        rest.push(next);
        if turn_over(&events) {
            break;
        }
    }
    rest
}

/// The seat commanding the turn (R-TURN-8: on weed turns another team's player).
fn controller_seat<'a>(loaded: &'a Loaded, game: &Game) -> Option<&'a SeatRow> {
    loaded.team_seat(game.controller())
}

/// The seat commanding the turn, if `user` holds it.
pub(super) fn seat_on_turn<'a>(
    loaded: &'a Loaded,
    game: &Game,
    user: UserId,
) -> Result<&'a SeatRow> {
    controller_seat(loaded, game)
        .filter(|s| s.user_id == Some(user))
        .ok_or(ServiceError::NotYourTurn {
            team: game.controller(),
        })
}

fn next_of(loaded: &Loaded, game: &Game) -> Next {
    if game.is_over() {
        return Next::Over;
    }
    let team = game.controller();
    match loaded.team_seat(team) {
        Some(SeatRow {
            user_id: Some(user),
            ..
        }) => Next::Human { team, user: *user },
        Some(seat) => Next::Bot {
            team,
            level: seat
                .bot_level
                .as_deref()
                .and_then(BotLevel::parse)
                .unwrap_or(BotLevel::Random),
        },
        None => Next::Over,
    }
}

/// When a turn starting `now` ends, for a person's turn.
/// A turn that starts `now` has its full time from now, or from the end of a running pause
/// (the game's clock stops while it is paused).
fn deadline_after(conn: &impl Db, loaded: &Loaded, now: i64) -> Result<i64> {
    let start = store::paused_until(conn, loaded.row.id, now)?.map_or(now, |end| end.max(now));
    Ok(start + loaded.config.turn_seconds as i64 * 1000)
}

/// The deadline of the turn `game` is at, if a person plays it and it starts `now`.
pub(super) fn turn_deadline(
    conn: &impl Db,
    loaded: &Loaded,
    game: &Game,
    now: i64,
) -> Result<Option<i64>> {
    match next_of(loaded, game) {
        Next::Human { .. } => Ok(Some(deadline_after(conn, loaded, now)?)),
        _ => Ok(None),
    }
}

pub(super) fn require_active(loaded: &Loaded) -> Result<&Game> {
    match loaded.row.status {
        GameStatus::Active => loaded
            .game
            .as_ref()
            .ok_or(ServiceError::NotRunning(loaded.row.id)),
        GameStatus::Lobby => Err(ServiceError::NotRunning(loaded.row.id)),
        _ => Err(ServiceError::Finished(loaded.row.id)),
    }
}

/// The seat `user` would resign: theirs, in a game being played.
fn resigning_seat(loaded: &Loaded, user: UserId) -> Result<&SeatRow> {
    loaded
        .seat_of(user)
        .ok_or(ServiceError::NotYourGame(loaded.row.id))
}

/// Does `submitted` say the same as the action recorded at that ply? (A double click.)
fn same_text(game_board: crate::engine::Board, submitted: &str, recorded: &str) -> bool {
    match (
        notation::parse(submitted, game_board),
        notation::parse(recorded, game_board),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl GameService {
    /// A user's legal moves now, or why they have none.
    pub fn legal_moves(&self, user: UserId, id: GameId) -> Result<Vec<LegalMove>> {
        let loaded = self.load(id)?;
        let game = require_active(&loaded)?;
        if loaded.seat_of(user).is_none() {
            return Err(ServiceError::NotYourGame(id));
        }
        seat_on_turn(&loaded, game, user)?;
        Ok(game
            .legal_actions()
            .into_iter()
            .map(|l| LegalMove {
                notation: game.notation(&l.action),
                fatal: l.fatal,
            })
            .collect())
    }

    /// A user's action in a game, answering the board at `seen_ply`.
    pub fn act(&self, user: UserId, id: GameId, seen_ply: u32, text: &str) -> Result<Accepted> {
        self.write(id, Needs::Running, |tx, loaded| {
            let game = require_active(loaded)?;
            if loaded.seat_of(user).is_none() {
                return Err(ServiceError::NotYourGame(id));
            }
            if seen_ply != loaded.row.ply {
                let now = (loaded.row.ply, loaded.move_number());
                return Err(why_stale(tx, game, id, seen_ply, text, now)?);
            }
            let game = may_act(loaded, user)?;
            // Legality is checked once, by the engine's `play` in `apply_action`.
            let action = game.read_action(text).map_err(ServiceError::Illegal)?;
            let extra = Extra::for_mover(loaded, game, user);
            self.apply_action(tx, loaded, action, Some(user), extra)
        })
    }

    /// Plays one move for a bot seat if a bot is to move; `None` otherwise.
    pub fn bot_step(&self, id: GameId) -> Result<Option<Accepted>> {
        loop {
            let Some(thought) = self.think(id, None, Stand::Seat)? else {
                return Ok(None);
            };
            let played = self.write(id, Needs::Stored, |tx, loaded| {
                // Someone moved while the bot thought: think again about the new position.
                if !thought.still_fits(loaded) {
                    return Ok(None);
                }
                self.apply_action(tx, loaded, thought.first(), None, Extra::default())
                    .map(Some)
            })?;
            if played.is_some() {
                return Ok(played);
            }
        }
    }

    /// Thinks out the move of the bot standing in for whoever is on turn in game `id` now:
    /// the seat's bot, or with [`Stand::Deadline`] the game's timeout level for a person
    /// whose time ran out (when the game lets a bot play then). `at_ply`: only if the game is
    /// still there. `None` when there is nothing for a bot to do.
    ///
    /// This runs on a read, holding no lock: `normal` thinks for a second or two, and every
    /// other game's moves need SQLite's write lock meanwhile. The caller commits the move in
    /// its own transaction, after checking with [`Thought::still_fits`] that the game did not
    /// move meanwhile. The bot sees the game's public view only.
    pub(super) fn think(
        &self,
        id: GameId,
        at_ply: Option<u32>,
        stand: Stand,
    ) -> Result<Option<Thought>> {
        let loaded = self.load(id)?;
        let Ok(game) = require_active(&loaded) else {
            return Ok(None);
        };
        if at_ply.is_some_and(|ply| ply != loaded.row.ply) {
            return Ok(None);
        }
        let level = match (next_of(&loaded, game), stand, loaded.config.timeout) {
            (Next::Bot { level, .. }, Stand::Seat, _) => level,
            // Under `skip` a turn not begun passes; a turn half played (a choice waits) is
            // finished by the bot, the move the player began included.
            (Next::Human { team, .. }, Stand::Deadline, TimeoutPolicy::Skip)
                if game.pending().is_none() =>
            {
                return Ok(Some(Thought {
                    ply: loaded.row.ply,
                    team,
                    actions: vec![Action::Pass],
                }));
            }
            (Next::Human { .. }, Stand::Deadline, TimeoutPolicy::Bot | TimeoutPolicy::Skip) => {
                loaded.config.timeout_level
            }
            _ => return Ok(None),
        };
        let bot = Bot::new(level, bot_seed(loaded.row.seed.unwrap_or(0), stand));
        let team = game.controller();
        match ai::decide(&game.public_view(), &bot) {
            Ok(action) => {
                let mut actions = vec![action];
                if stand == Stand::Deadline {
                    actions.extend(rest_of_turn(game, action, team, &bot));
                }
                Ok(Some(Thought {
                    ply: loaded.row.ply,
                    team,
                    actions,
                }))
            }
            Err(NoMove::GameOver) => Ok(None),
            // R-TURN-5 skips a turn without a legal action before anyone is asked to play
            // it: a game in play where the player on turn has none is damaged.
            Err(NoMove::NoLegalAction { .. }) => Err(ServiceError::Damaged {
                game: id,
                damage: Damage::Stuck {
                    move_number: loaded.row.ply + 1,
                },
            }),
        }
    }

    /// Plays one legal action inside a write ([`GameService::write`]): the action row, a
    /// snapshot when due, the next deadline and reminder, the outbox rows, the end of the
    /// game, all committed together by the write. `loaded` was read inside `tx`, so the game
    /// is still at its ply; it becomes the game after the action, so that further actions can
    /// follow in the same write (a timed-out turn played whole).
    pub(super) fn apply_action(
        &self,
        tx: &Tx<'_>,
        loaded: &mut Loaded,
        action: Action,
        by: Option<UserId>,
        extra: Extra,
    ) -> Result<Accepted> {
        let id = loaded.row.id;
        let seen_ply = loaded.row.ply;
        require_active(loaded)?;
        // A player who moves is back from vacation (one indexed look when nobody is away).
        let came_back = match (by, loaded.row.guild_id) {
            (Some(user), Some(guild)) => self.come_back(tx, guild, user, self.now(), true)?,
            _ => None,
        };
        let mut game = loaded.game.take().expect("an active game has a state");
        let answered_choice = game.pending().is_some();
        let team = game.turn();
        // The person whose turn this was, whoever played it (they, a bot on a timeout): their
        // private prompt is retired once the move is complete.
        let prompted = controller_seat(loaded, &game).and_then(|s| s.user_id);
        let notation = game.notation(&action);
        let events = game.play(&action).map_err(ServiceError::Illegal)?;
        let now = self.now();
        let ply = seen_ply + 1;
        let recorded = store::insert_action(
            tx,
            &ActionRow {
                game_id: id,
                ply,
                team: team.number(),
                user_id: by,
                notation: notation.clone(),
                action: serde_json::to_string(&action).expect("plain data"),
                events: serde_json::to_string(&events).expect("plain data"),
                created_at: now,
            },
        )?;
        if !recorded {
            // Unreachable while every writer reads the ply under the write lock; kept so that
            // UNIQUE(game, ply) stays the last word.
            return Err(ServiceError::AlreadyPlayed);
        }
        if ply.is_multiple_of(SNAPSHOT_EVERY) {
            let state = serde_json::to_string(&game).expect("plain data");
            store::insert_snapshot(tx, id, ply, &state, now)?;
        }
        super::undo::void_request(tx, loaded, now)?;
        // From here `loaded` describes the game after this action.
        if let Some(text) = extra.notice {
            notice(tx, &loaded.row, text, now)?;
        }
        if let Some(seat) = extra.seat {
            store::put_seat(tx, &seat)?;
            if let Some(s) = loaded.seats.iter_mut().find(|s| s.team == seat.team) {
                *s = seat;
            }
        }
        loaded.row.ply = ply;
        let pending = game.pending_kind();
        if pending.is_none() {
            loaded.moves += 1;
        }
        // Once for the post and the timers (a paused game's clock is read for it).
        let deadline_ms = turn_deadline(tx, loaded, &game, now)?;
        if pending.is_none() {
            if let (Some(user), Some(_)) = (prompted, loaded.row.channel_id) {
                let message = OutboxMessage::TurnOver {
                    game_id: id,
                    ply: seen_ply,
                };
                outbox::enqueue(tx, Target::User { id: user }, &message, now)?;
            }
            let this = ThisPly {
                ply,
                answered_choice,
            };
            self.post_move(tx, loaded, &this, deadline_ms, now)?;
        }
        if let Some(outcome) = game.outcome().cloned() {
            let end = GameEnd::Played(outcome);
            results::record_finished(tx, &loaded.row, &loaded.seats, &game, &end, now)?;
            end_in(tx, &loaded.row, GameStatus::Finished, end, now)?;
        } else {
            // Mid-move choices keep the same player: new timers, but no new "your turn".
            self.schedule_turn_at(tx, loaded, &game, now, pending.is_none(), deadline_ms)?;
        }
        let next = next_of(loaded, &game);
        let outcome = game.outcome().cloned();
        let move_number = if pending.is_none() {
            loaded.moves
        } else {
            loaded.moves + 1
        };
        // A move that went through choices is told whole: its first action and each answer.
        let move_actions = if pending.is_none() && answered_choice {
            record::move_steps(tx, id, ply)?
                .iter()
                .map(|s| s.action)
                .collect::<Option<Vec<Action>>>()
                .unwrap_or_else(|| vec![action])
        } else {
            vec![action]
        };
        loaded.game = Some(game);
        Ok(Accepted {
            game_id: id,
            ply,
            move_number,
            move_actions,
            came_back,
            team,
            action,
            notation,
            events,
            pending,
            next,
            outcome,
        })
    }

    /// The public board post for a completed move, covering its choice steps too.
    fn post_move(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        this: &ThisPly,
        deadline_ms: Option<i64>,
        now: i64,
    ) -> Result<()> {
        let Some(target) = public_target(&loaded.row) else {
            return Ok(());
        };
        // Only a move that answered a choice has earlier plies to read back.
        let first_ply = if this.answered_choice {
            let steps = record::move_steps(tx, loaded.row.id, this.ply - 1)?;
            steps.first().map_or(this.ply, |s| s.ply)
        } else {
            this.ply
        };
        let message = OutboxMessage::BoardPost {
            game_id: loaded.row.id,
            first_ply,
            ply: this.ply,
            deadline_ms,
        };
        outbox::enqueue(tx, target, &message, now)?;
        Ok(())
    }

    /// The timers of whoever moves next: a human's deadline, reminder and "your turn" message,
    /// or a bot's timer, due at once (firing it plays the bot's move).
    pub(super) fn schedule_turn(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        game: &Game,
        now: i64,
        notify: bool,
    ) -> Result<()> {
        self.schedule_turn_at(tx, loaded, game, now, notify, None)
    }

    /// [`GameService::schedule_turn`] with the deadline already worked out, if it was.
    pub(super) fn schedule_turn_at(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        game: &Game,
        now: i64,
        notify: bool,
        known: Option<i64>,
    ) -> Result<()> {
        let id = loaded.row.id;
        let ply = loaded.row.ply;
        let (team, user) = match next_of(loaded, game) {
            Next::Human { team, user } => (team, user),
            Next::Bot { .. } => return Ok(store::set_bot_timer(tx, id, ply, now)?),
            Next::Over => return Ok(store::clear_timers(tx, id)?),
        };
        let deadline = match known {
            Some(d) => d,
            None => deadline_after(tx, loaded, now)?,
        };
        reminder_settings::set_turn(tx, id, ply, &loaded.config, user, deadline, now)?;
        if notify && loaded.row.channel_id.is_some() {
            let message = OutboxMessage::YourTurn {
                game_id: id,
                ply,
                team,
                deadline_ms: Some(deadline),
            };
            outbox::enqueue(tx, Target::User { id: user }, &message, now)?;
        }
        Ok(())
    }

    /// Resigns the actor's seat: a duel is lost at once; otherwise a bot plays the team on.
    pub fn resign(&self, actor: Actor, id: GameId) -> Result<()> {
        self.write(id, Needs::Running, |tx, loaded| {
            let seat = resigning_seat(loaded, actor.user)?.clone();
            self.resign_seat(tx, loaded, &seat, Resignation::ByHand)
        })
    }

    /// Whether `user` may resign game `id` now (asked before the confirmation is shown):
    /// `Ok`, or the refusal [`GameService::resign`] would give.
    pub fn may_resign(&self, user: UserId, id: GameId) -> Result<()> {
        let loaded = self.load(id)?;
        require_active(&loaded)?;
        resigning_seat(&loaded, user).map(|_| ())
    }

    /// Resigns `seat` inside the write `loaded` was read in.
    pub(super) fn resign_seat(
        &self,
        tx: &Tx<'_>,
        loaded: &Loaded,
        seat: &SeatRow,
        why: Resignation,
    ) -> Result<()> {
        let timed_out = why == Resignation::TimeRanOut;
        let now = self.now();
        require_active(loaded)?;
        // Time running out is a deadline missed, counted where the seat's record is kept.
        let seat = &SeatRow {
            missed_total: seat.missed_total + u32::from(timed_out),
            ..seat.clone()
        };
        if loaded.config.rules.players == Players::Two {
            let resigned = seat.team;
            let winner = Team::of(if resigned.number() == 1 { 2 } else { 1 });
            let end = GameEnd::Resigned {
                team: resigned,
                winners: vec![winner],
                timed_out,
            };
            if let Some(game) = &loaded.game {
                let seats: Vec<SeatRow> = loaded
                    .seats
                    .iter()
                    .map(|s| {
                        if s.team == seat.team {
                            seat.clone()
                        } else {
                            s.clone()
                        }
                    })
                    .collect();
                results::record_finished(tx, &loaded.row, &seats, game, &end, now)?;
            }
            end_in(tx, &loaded.row, GameStatus::Finished, end, now)?;
        } else {
            self.seat_to_bot(tx, loaded, seat, true, now)?;
            let team = seat.team;
            let resigned = if timed_out {
                Notice::ResignedLate { team }
            } else {
                Notice::Resigned { team }
            };
            notice(tx, &loaded.row, resigned, now)?;
        }
        Ok(())
    }

    /// Every action of a game, oldest first.
    pub fn history(&self, id: GameId) -> Result<Vec<HistoryEntry>> {
        let conn = self.store.conn()?;
        store::get_game(&conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
        let rows = store::actions_after(&conn, id, 0)?;
        let mut entries: Vec<HistoryEntry> = rows
            .into_iter()
            .map(|r| {
                // The narration is a courtesy: an unreadable row still lists its notation.
                let logged = Logged::parse(&r.action).ok();
                HistoryEntry {
                    ply: r.ply,
                    team: r.team,
                    user_id: r.user_id,
                    action: logged.and_then(|l| l.action()),
                    events: serde_json::from_str(&r.events).unwrap_or_default(),
                    notation: r.notation,
                    take_back: logged.and_then(|l| l.take_back()).map(|t| t.to),
                    taken_back: false,
                }
            })
            .collect();
        // Each take-back marks the steps between the ply it returned to and itself.
        let backs: Vec<(u32, u32)> = entries
            .iter()
            .filter_map(|e| e.take_back.map(|to| (to, e.ply)))
            .collect();
        for entry in &mut entries {
            entry.taken_back = backs
                .iter()
                .any(|&(to, at)| entry.ply > to && entry.ply < at);
        }
        Ok(entries)
    }

    /// What the deadline policy does for a seat that let its time pass: resign it, or play
    /// the move `thought` out for it beforehand ([`GameService::think`]). `None` when the game
    /// changed after that thought: nothing is done and the deadline stays due.
    /// Runs inside the write `loaded` was read in.
    pub(super) fn timeout_move(
        &self,
        tx: &Tx<'_>,
        loaded: &mut Loaded,
        thought: Option<Thought>,
    ) -> Result<Option<()>> {
        let game = require_active(loaded)?;
        let Some(seat) = controller_seat(loaded, game).cloned() else {
            return Ok(Some(()));
        };
        if seat.user_id.is_none() {
            return Ok(Some(()));
        }
        let missed = seat.missed_deadlines + 1;
        if loaded.config.timeout == TimeoutPolicy::Resign {
            return self
                .resign_seat(tx, loaded, &seat, Resignation::TimeRanOut)
                .map(Some);
        }
        let Some(thought) = thought.filter(|t| t.still_fits(loaded)) else {
            return Ok(None);
        };
        let takeover = missed >= loaded.config.max_missed as u32;
        let update = SeatRow {
            missed_deadlines: missed,
            missed_total: seat.missed_total + 1,
            user_id: if takeover { None } else { seat.user_id },
            away_user_id: if takeover { seat.user_id } else { None },
            bot_level: if takeover {
                Some(loaded.config.timeout_level.name().into())
            } else {
                None
            },
            ..seat.clone()
        };
        let notice = if takeover {
            Notice::TakenOver {
                team: seat.team,
                missed,
            }
        } else if thought.actions == [Action::Pass] {
            Notice::Passed { team: seat.team }
        } else {
            Notice::TimedOut { team: seat.team }
        };
        let extra = Extra {
            seat: Some(update),
            notice: Some(notice),
        };
        let mut extra = Some(extra);
        for action in thought.actions {
            let extra = extra.take().unwrap_or_default();
            self.apply_action(tx, loaded, action, None, extra)?;
        }
        Ok(Some(()))
    }
}

/// Why a seat resigns: its player asked, or their time ran out under the `resign` policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Resignation {
    ByHand,
    TimeRanOut,
}

/// Why an answer to an old board is refused: the same move already played (a double click)
/// or a stale view.
fn why_stale(
    conn: &impl Db,
    game: &Game,
    id: GameId,
    seen_ply: u32,
    text: &str,
    (current, move_number): (u32, u32),
) -> Result<ServiceError> {
    if seen_ply < current
        && let Some(row) = store::action_at(conn, id, seen_ply + 1)?
        && same_text(game.board(), text, &row.notation)
    {
        return Ok(ServiceError::AlreadyPlayed);
    }
    Ok(ServiceError::StaleView {
        current,
        move_number,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::game::{Actor, Fired, GameConfig, Location, ManualClock};
    use crate::store::Store;

    const HOUR: i64 = 3_600_000;

    /// Game `seed` on a 7×7 board between two people, where the first lets their turn time
    /// pass and the game's `timeout_level` plays it: the first action played, and the
    /// position it was played from.
    fn timed_out_opening(level: BotLevel, seed: u64) -> (Action, Game) {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path().join("jackal.db")).unwrap());
        let clock = Arc::new(ManualClock::new(1_700_000_000_000));
        let service = GameService::new(store, clock.clone());
        let mut config = GameConfig::default();
        config.set("board_size", "7").unwrap();
        config.set("turn_time", "12h").unwrap();
        config.set("timeout_level", level.name()).unwrap();
        let here = Location::default();
        let id = service
            .create_lobby(
                Actor::user(UserId::new(1)),
                here,
                crate::words::Lang::En,
                config,
                Some(1),
            )
            .unwrap();
        service.join(Actor::user(UserId::new(2)), id, None).unwrap();
        let started = service
            .start_with_seed(Actor::user(UserId::new(1)), id, seed)
            .unwrap();
        clock.advance_ms(13 * HOUR);
        let fired = service.fire_due_timers().unwrap();
        assert!(
            fired.contains(&Fired::TimedOut {
                game_id: id,
                team: Team::of(1)
            }),
            "{fired:?}"
        );
        let history = service.history(id).unwrap();
        let first = history[0].action.expect("a readable action");
        (first, started.state.expect("a started game"))
    }

    /// A person's timed-out turn is played by the level the game sets, deciding on
    /// the public view with the seed a deadline's bot gets. Random and easy differ on the
    /// first map where their openings differ, so a move played at any other level fails.
    #[test]
    fn a_timed_out_turn_is_played_at_the_games_timeout_level() {
        let levels = [BotLevel::Random, BotLevel::Easy];
        let differing = (1..=20u64).find(|&seed| {
            let played = levels.map(|level| {
                let (action, game) = timed_out_opening(level, seed);
                let bot = Bot::new(level, bot_seed(seed, Stand::Deadline));
                let expected = ai::decide(&game.public_view(), &bot).unwrap();
                assert_eq!(action, expected, "{level} on map {seed}");
                action
            });
            played[0] != played[1]
        });
        assert!(differing.is_some(), "random and easy open alike on 20 maps");
    }
}
