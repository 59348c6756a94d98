//! Undo by consent (issue 42, point 6): a player asks to take back their last move, everyone
//! else at the table agrees or refuses; only while nothing hidden was shown by it or after it,
//! and no bot or deadline played since. A take-back is a row of the log, never a removal.

use super::*;
use jackal::engine::Event;
use jackal::game::audit::audit;
use jackal::game::{Reveal, UndoBar, UndoVote};

/// A legal move of `user`'s that opens nothing: their ship along the coast.
fn ship_move(f: &Fixture, id: GameId, user: UserId) -> String {
    f.service
        .legal_moves(user, id)
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .find(|n| n.starts_with("ship"))
        .expect("a ship move")
}

/// A legal move of `user`'s onto the island from the ship that completes the move (opens a
/// tile that asks no choice): at the start every land tile is face down, so it opens one.
fn landing(f: &Fixture, id: GameId, user: UserId) -> Option<String> {
    let game = f.service.game(id).unwrap().state.unwrap();
    f.service
        .legal_moves(user, id)
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .find(|n| {
            let mut after = game.clone();
            let action = after.read_action(n).unwrap();
            !n.starts_with("ship") && after.play(&action).is_ok() && after.pending().is_none()
        })
}

fn ply_of(f: &Fixture, id: GameId) -> u32 {
    f.service.game(id).unwrap().ply
}

/// The engine state as JSON without its ply (two positions compared as boards).
fn board_of(game: &Game) -> serde_json::Value {
    let mut value = serde_json::to_value(game).unwrap();
    value.as_object_mut().unwrap().remove("ply");
    value
}

fn notices(f: &Fixture, id: GameId) -> Vec<Notice> {
    let conn = f.service.store().conn().unwrap();
    store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .filter_map(|r| match serde_json::from_str(&r.payload).unwrap() {
            OutboxMessage::Notice { notice, .. } => Some(notice),
            _ => None,
        })
        .collect()
}

/// Whether game `id` has a request waiting (through the store, on either backend).
fn request_open(f: &Fixture, id: GameId) -> bool {
    let conn = f.service.store().conn().unwrap();
    store::get_undo_request(&conn, id).unwrap().is_some()
}

/// The whole story: Alice's ship move and Bob's after it are taken back when Bob agrees. The
/// board is the start again with Alice on turn and a fresh deadline; both moves stay in the log,
/// marked; the replay shows them and the return; a restart and the doctor read it the same.
#[test]
fn moves_are_taken_back_when_everyone_agrees_and_stay_in_the_log_marked() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let start = s.position_at(id, 0).unwrap();
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    let bobs = ship_move(&f, id, BOB);
    s.act(BOB, id, 1, &bobs).unwrap();
    f.clock.advance_ms(HOUR);

    assert_eq!(
        s.request_undo(ALICE, id).unwrap(),
        UndoVote::Waiting {
            accepted: 1,
            needed: 2
        }
    );
    assert_eq!(ply_of(&f, id), 2, "asking changes nothing yet");
    assert!(notices(&f, id).contains(&Notice::UndoProposed {
        team: Team::of(1),
        moves: 2,
        at_ply: 2
    }));
    assert_eq!(
        s.vote_undo(BOB, id, 2, true).unwrap(),
        UndoVote::TakenBack { move_number: 0 }
    );

    let view = s.game(id).unwrap();
    assert_eq!(view.ply, 3, "the take-back is a row of the log");
    let state = view.state.unwrap();
    assert_eq!(
        board_of(&state),
        board_of(&start),
        "the board is the start again"
    );
    assert_eq!(state.controller(), Team::of(1));
    assert!(notices(&f, id).contains(&Notice::UndoAccepted {
        team: Team::of(1),
        moves: 2
    }));
    let deadline = s.deadline_of(id).unwrap().expect("Alice's deadline");
    assert_eq!(deadline, f.clock.now_ms() + 24 * HOUR, "a full turn again");

    let history = s.history(id).unwrap();
    assert_eq!(history.len(), 3);
    assert!(history[0].taken_back && history[1].taken_back);
    assert_eq!(history[2].take_back, Some(0));
    assert!(!history[2].taken_back);
    let steps = s.steps(id).unwrap();
    assert_eq!(steps.len(), 4, "the deal, two moves and the return");
    assert_eq!(board_of(&steps[3].0), board_of(&start));

    // The game goes on from there, and reads back the same after a restart.
    let other = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 3, &other).unwrap();
    let here_now = s.game(id).unwrap().state.unwrap();
    let again = restarted(&f);
    assert_eq!(again.game(id).unwrap().state.unwrap(), here_now);
    let conn = f.service.store().conn().unwrap();
    assert_eq!(
        audit(&conn, id).unwrap(),
        Vec::new(),
        "the doctor finds nothing"
    );
    assert!(!request_open(&f, id));
}

/// A move that opened a tile cannot be taken back, nor one before it, and asking changes
/// nothing.
#[test]
fn a_move_that_opened_a_tile_cannot_be_taken_back() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let land = landing(&f, id, ALICE).expect("a landing");
    s.act(ALICE, id, 0, &land).unwrap();
    let opened = s.history(id).unwrap()[0]
        .events
        .iter()
        .any(|e| matches!(e, Event::Opened { .. }));
    assert!(opened, "a landing opens a tile");
    let refused = s.request_undo(ALICE, id);
    assert!(
        matches!(
            refused,
            Err(ServiceError::Undo(UndoBar::Revealed {
                reveal: Reveal::Tile,
                yours: true
            }))
        ),
        "{refused:?}"
    );
    // After Bob's ship move, Alice's landing is still hers to ask for, and still barred.
    let bobs = ship_move(&f, id, BOB);
    s.act(BOB, id, 1, &bobs).unwrap();
    assert!(matches!(
        s.request_undo(ALICE, id),
        Err(ServiceError::Undo(UndoBar::Revealed { yours: true, .. }))
    ));
    assert_eq!(ply_of(&f, id), 2);
    assert!(!request_open(&f, id));
    assert!(
        !notices(&f, id)
            .iter()
            .any(|n| matches!(n, Notice::UndoProposed { .. }))
    );
    // Alice's ship move after Bob's: taking back Bob's would hide nothing, so he may ask.
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 2, &alices).unwrap();
    assert!(matches!(
        s.request_undo(BOB, id),
        Ok(UndoVote::Waiting { .. })
    ));
}

/// A move played after the asker's that opened a tile bars the take-back too.
#[test]
fn a_tile_opened_after_the_move_bars_taking_it_back() {
    let f = fixture();
    let s = &f.service;
    // A map where Bob can land on a tile that asks no choice (on 42 it is an arrow).
    let (id, land) = (1..20)
        .find_map(|seed| {
            let id = duel_with(&f, small_config(), seed);
            let alices = ship_move(&f, id, ALICE);
            s.act(ALICE, id, 0, &alices).unwrap();
            landing(&f, id, BOB).map(|land| (id, land))
        })
        .expect("a map to land on");
    s.act(BOB, id, 1, &land).unwrap();
    let asked = s.request_undo(ALICE, id);
    assert!(
        matches!(
            asked,
            Err(ServiceError::Undo(UndoBar::Revealed {
                reveal: Reveal::Tile,
                yours: false
            }))
        ),
        "{asked:?} after {land}"
    );
}

/// Bad input: a vote by someone not in the game, a second request while one is open, an answer
/// to no request, a vote twice, a request with nothing to take back: each refused, nothing
/// changed.
#[test]
fn bad_undo_requests_and_votes_are_refused_and_change_nothing() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    assert!(matches!(
        s.request_undo(ALICE, id),
        Err(ServiceError::Undo(UndoBar::NothingToTakeBack))
    ));
    assert!(matches!(
        s.request_undo(EVE, id),
        Err(ServiceError::NotYourGame(_))
    ));
    assert!(matches!(
        s.vote_undo(BOB, id, 0, true),
        Err(ServiceError::NoUndoProposed(_))
    ));
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    s.request_undo(ALICE, id).unwrap();
    let before = (ply_of(&f, id), notices(&f, id).len(), request_open(&f, id));
    assert!(matches!(
        s.request_undo(ALICE, id),
        Err(ServiceError::UndoProposed(_))
    ));
    assert!(matches!(
        s.request_undo(BOB, id),
        Err(ServiceError::UndoProposed(_))
    ));
    assert!(matches!(
        s.vote_undo(EVE, id, 1, true),
        Err(ServiceError::NotYourGame(_))
    ));
    assert!(matches!(
        s.vote_undo(ALICE, id, 1, true),
        Err(ServiceError::UndoVoted(_))
    ));
    assert!(matches!(
        s.vote_undo(BOB, id, 0, true),
        Err(ServiceError::NoUndoProposed(_))
    ));
    let after = (ply_of(&f, id), notices(&f, id).len(), request_open(&f, id));
    assert_eq!(after, before);
    assert!(after.2, "the request still waits");
}

/// One refusal ends the request; the game goes on as it was.
#[test]
fn a_refusal_ends_the_request() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    let before = s.game(id).unwrap().state.unwrap();
    s.request_undo(ALICE, id).unwrap();
    assert_eq!(s.vote_undo(BOB, id, 1, false).unwrap(), UndoVote::Refused);
    assert_eq!(s.game(id).unwrap().state.unwrap(), before);
    assert!(!request_open(&f, id));
    assert!(notices(&f, id).contains(&Notice::UndoRefused { team: Team::of(2) }));
    assert!(
        !timers_of(&f, id)
            .iter()
            .any(|t| t.0 == store::TimerKind::UndoVote)
    );
}

/// A move played before everyone answered voids the request; one nobody finishes lapses after
/// a day.
#[test]
fn a_move_voids_the_request_and_an_unanswered_one_lapses() {
    let f = fixture();
    let s = &f.service;
    // Turns of three days: the lapse after one comes before any deadline.
    let mut config = small_config();
    config.set("turn_time", "3d").unwrap();
    let id = duel_with(&f, config, 42);
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    s.request_undo(ALICE, id).unwrap();
    let bobs = ship_move(&f, id, BOB);
    s.act(BOB, id, 1, &bobs).unwrap();
    assert!(notices(&f, id).contains(&Notice::UndoVoided { team: Team::of(1) }));
    assert!(matches!(
        s.vote_undo(BOB, id, 1, true),
        Err(ServiceError::NoUndoProposed(_))
    ));
    assert!(!request_open(&f, id));

    // Alice asks again, and nobody answers for a day.
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 2, &alices).unwrap();
    s.request_undo(ALICE, id).unwrap();
    f.clock.advance_ms(24 * HOUR - 1);
    assert!(
        !s.fire_due_timers()
            .unwrap()
            .contains(&Fired::UndoLapsed { game_id: id })
    );
    f.clock.advance_ms(1);
    let fired = s.fire_due_timers().unwrap();
    assert!(
        fired.contains(&Fired::UndoLapsed { game_id: id }),
        "{fired:?}"
    );
    assert!(notices(&f, id).contains(&Notice::UndoLapsed { team: Team::of(1) }));
    assert!(!request_open(&f, id));
}

/// A bot's move since the asker's bars the take-back: nobody can agree for the bot.
#[test]
fn a_bot_move_since_bars_the_take_back() {
    let f = fixture();
    let s = &f.service;
    let id = against_bot(&f, BotLevel::Random, 42);
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    // The bot's whole move (a landing may stop for a choice).
    while s.game(id).unwrap().state.unwrap().controller() == Team::of(2) {
        assert!(s.bot_step(id).unwrap().is_some(), "the bot moved");
    }
    let asked = s.request_undo(ALICE, id);
    assert!(
        matches!(asked, Err(ServiceError::Undo(UndoBar::BotPlayed))),
        "{asked:?}"
    );
}

/// An export of a game with a take-back imports as the same game.
#[test]
fn a_game_with_a_take_back_exports_and_imports_the_same() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    s.request_undo(ALICE, id).unwrap();
    s.vote_undo(BOB, id, 1, true).unwrap();
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 2, &alices).unwrap();
    let exported = serde_json::to_string(&s.export(id).unwrap()).unwrap();
    assert!(exported.contains(r#"{"TakeBack":{"to":0}}"#), "{exported}");
    let copy = s.import(Actor::user(ALICE), here(), &exported).unwrap();
    assert_eq!(
        s.game(copy).unwrap().state.unwrap(),
        s.game(id).unwrap().state.unwrap()
    );
    assert_eq!(s.history(copy).unwrap(), s.history(id).unwrap());
}

/// While a move is half played (a choice waits), nothing is taken back: the move is finished
/// first.
#[test]
fn nothing_is_taken_back_in_the_middle_of_a_move() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let alices = ship_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &alices).unwrap();
    // On this map Bob's pirates land on an arrow, which asks where to go on.
    s.act(BOB, id, 1, "1 d6").unwrap();
    assert!(s.game(id).unwrap().state.unwrap().pending().is_some());
    assert!(matches!(
        s.request_undo(ALICE, id),
        Err(ServiceError::Undo(UndoBar::MidMove))
    ));
    assert!(!request_open(&f, id));
}
