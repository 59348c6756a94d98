//! Property tests over complete random games, mostly on the `full` pack (every expansion tile,
//! unit and item), with every setting of RULES §20 drawn at random per game.
//!
//! Each case plays one whole game (random board size, player count, settings and seed) with a
//! random player whose choices come from a tiny local PRNG seeded by proptest, and checks after
//! every action:
//!
//! - nothing panics;
//! - gold conservation: `gold_in_play() + delivered + lost == dealt`;
//! - the game is not stuck: while it is not over, `legal_actions()` is non-empty;
//! - the game ends (`is_over()`) before a generous ply cap (R-END-6 stall guard).
//!
//! and on a sample of plies (always the first one, and more often while a choice is pending):
//!
//! - every listed legal action is accepted by `play` on a clone;
//! - notation round trip: `parse_action(&notation(a)) == Ok(a)` for every legal action;
//! - the fatal flag (R-CHAIN-9) of every legal action equals the reference answer computed by
//!   simulation alone (`fatal_by_simulation`), so the engine's cheaper paths stay exact;
//! - serde: JSON serialize → deserialize gives an equal `Game` with equal legal actions;
//! - the public view and a determinisation of it (what the bots play on) list the same legal
//!   actions with the same fatal flags, and the determinisation conserves gold.
//!
//! At the end of every game: replaying the same seed with the same actions gives an identical
//! `Game`, and a finished game lists no actions and refuses to play.
//!
//! The default run plays 2,000 games (`cargo test --test engine invariants::`), mostly on small boards,
//! plus one fixed game per board size and player count with every check on every ply. The long
//! run plays 100,000 games (or `INVARIANTS_GAMES`) with every check on every ply:
//!
//! ```text
//! cargo test --release --test engine -- --ignored random_games_long --nocapture
//! ```
//!
//! On failure, the message names the seed, the settings and the action list in notation, which
//! is enough to replay the game (see `replay_from_notation`). Proptest picks new random games on
//! every run; set `PROPTEST_RNG_SEED` to repeat a run.

use jackal::engine::mapgen::SplitMix64;
use jackal::engine::settings::SETTING_IDS;
use jackal::engine::{
    Action, Game, LegalAction, Pack, PlaneSeats, Players, RetreatDistance, Settings,
};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use std::cell::Cell;

/// The generous ply cap: the stall guard ends every game long before this.
const PLY_CAP: usize = 20_000;

/// One random game: settings, map seed and the seed of the random player.
#[derive(Clone, Debug)]
struct Spec {
    settings: Settings,
    seed: u64,
    player_seed: u64,
}

impl Spec {
    fn settings(&self) -> Settings {
        self.settings.clone()
    }

    /// Every setting as `id = value`, as a scenario's `set` lines write them.
    fn settings_text(&self) -> String {
        SETTING_IDS
            .iter()
            .map(|id| format!("{id} = {}", self.settings.get(id).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// How often the expensive checks run.
#[derive(Clone, Copy)]
struct Checks {
    /// Check one ply in `sample` (1 = every ply) without a pending choice…
    sample: usize,
    /// …and one in `sample_pending` while a choice is pending.
    sample_pending: usize,
}

fn players() -> impl Strategy<Value = Players> {
    prop_oneof![
        Just(Players::Two),
        Just(Players::Three),
        Just(Players::Four),
        Just(Players::TwoVsTwo),
    ]
}

/// Small boards are favoured so that the default run is fast.
fn board_size() -> impl Strategy<Value = u8> {
    prop_oneof![
        12 => Just(5u8),
        4 => Just(7u8),
        2 => Just(9u8),
        1 => Just(11u8),
        1 => Just(13u8),
    ]
}

/// The pack: mostly `full`, the classic pack a fifth of the time.
fn pack() -> impl Strategy<Value = Pack> {
    prop_oneof![4 => Just(Pack::Full), 1 => Just(Pack::Classic)]
}

/// Every rule setting of RULES §20 at random, each value equally likely (the stall guard at
/// its default or shorter, so that games end soon).
fn rules() -> impl Strategy<Value = (PlaneSeats, RetreatDistance, [bool; 10], u16)> {
    (
        prop_oneof![
            Just(PlaneSeats::Two),
            Just(PlaneSeats::One),
            Just(PlaneSeats::Chosen)
        ],
        prop_oneof![
            Just(RetreatDistance::King),
            Just(RetreatDistance::Taxicab),
            Just(RetreatDistance::Euclid)
        ],
        any::<[bool; 10]>(),
        prop_oneof![Just(50u16), Just(10u16), Just(3u16)],
    )
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        board_size(),
        players(),
        pack(),
        rules(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(
            |(
                board_size,
                players,
                tile_pack,
                (plane_seats, retreat_distance, flags, stall),
                seed,
                player_seed,
            )| {
                let settings = Settings {
                    board_size,
                    players,
                    tile_pack,
                    plane_seats,
                    retreat_distance,
                    restriction_kills: flags[0],
                    missionary_blocks_attack: flags[1],
                    cannonball_kills: flags[2],
                    fortress_vs_cannonball: flags[3],
                    cannonball_spares_fog: flags[4],
                    no_wasted_rum: flags[5],
                    no_trapped_rum: flags[6],
                    boardgame_caves: flags[7],
                    destroying_ships: flags[8],
                    friendly_fire: flags[9],
                    stall_rounds: stall,
                };
                Spec {
                    settings,
                    seed,
                    player_seed,
                }
            },
        )
}

/// A failure message carrying everything needed to reproduce the game.
fn fail(spec: &Spec, history: &[String], what: String) -> TestCaseError {
    TestCaseError::fail(format!(
        "{what}\n  seed {}, {}\n  {} actions: [{}]",
        spec.seed,
        spec.settings_text(),
        history.len(),
        history
            .iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// The expensive checks on one position.
fn check_position(
    spec: &Spec,
    history: &[String],
    game: &Game,
    legal: &[LegalAction],
) -> Result<(), TestCaseError> {
    for la in legal {
        let a = la.action;
        // Every listed action is accepted.
        let mut probe = game.clone();
        if let Err(e) = probe.play(&a) {
            return Err(fail(
                spec,
                history,
                format!(
                    "listed action {a:?} (`{}`) refused: {e:?}",
                    game.notation(&a)
                ),
            ));
        }
        // The fatal flag's fast paths agree with the simulation.
        let reference = game.fatal_by_simulation(&a);
        if la.fatal != reference {
            return Err(fail(
                spec,
                history,
                format!(
                    "fatal flag of `{}` is {} but the simulation says {reference}",
                    game.notation(&a),
                    la.fatal
                ),
            ));
        }
        // Notation round trip.
        let text = game.notation(&a);
        let back = game.parse_action(&text);
        if back != Ok(a) {
            return Err(fail(
                spec,
                history,
                format!("notation round trip of {a:?}: `{text}` reads back as {back:?}"),
            ));
        }
    }
    // Serde round trip.
    let json =
        serde_json::to_string(game).map_err(|e| fail(spec, history, format!("serialize: {e}")))?;
    let back: Game = serde_json::from_str(&json)
        .map_err(|e| fail(spec, history, format!("deserialize: {e}")))?;
    if &back != game {
        return Err(fail(
            spec,
            history,
            "serde round trip gives a different Game".into(),
        ));
    }
    if back.legal_actions() != legal {
        return Err(fail(
            spec,
            history,
            "serde round trip gives different legal actions".into(),
        ));
    }
    // What the bots see: the public view and a determinisation of it list the game's own
    // legal actions with the same fatal flags (no rule looks under the fog), and the
    // determinisation accounts for its gold.
    let view = game.public_view();
    if view.legal_actions() != legal {
        return Err(fail(
            spec,
            history,
            "the public view lists other legal actions".into(),
        ));
    }
    let sample = view.sample(&mut SplitMix64::new(game.ply() as u64));
    if sample.legal_actions() != legal {
        return Err(fail(
            spec,
            history,
            "a determinisation lists other legal actions".into(),
        ));
    }
    check_gold(spec, history, &sample)
}

/// Gold points lying aboard vessels: always 0 when R-CARGO-1 holds.
fn gold_aboard(game: &Game) -> u32 {
    game.vessels().iter().map(|v| v.items.gold_points()).sum()
}

/// Gold conservation: face-down + lying + in hand (gold in play) + delivered + lost = dealt,
/// and never any gold aboard a vessel (R-CARGO-1).
fn check_gold(spec: &Spec, history: &[String], game: &Game) -> Result<(), TestCaseError> {
    let (dealt, delivered, lost) = game.gold_accounts();
    let g = game.gold_in_play();
    let aboard = gold_aboard(game);
    if g + delivered + lost == dealt && aboard == 0 {
        return Ok(());
    }
    Err(fail(
        spec,
        history,
        format!(
            "gold not conserved: in play {g} + delivered {delivered} + lost {lost} != dealt {dealt} \
             (gold aboard vessels: {aboard})"
        ),
    ))
}

/// What one game did.
struct Played {
    plies: usize,
}

/// Plays one complete game, checking the invariants.
fn run_game(spec: &Spec, checks: Checks) -> Result<Played, TestCaseError> {
    let settings = spec.settings();
    let mut game = Game::new(settings.clone(), spec.seed)
        .map_err(|e| fail(spec, &[], format!("setup failed: {e}")))?;
    let mut rng = SplitMix64::new(spec.player_seed);
    let mut actions: Vec<Action> = Vec::new();
    let mut history: Vec<String> = Vec::new();
    check_gold(spec, &history, &game)?;

    while !game.is_over() {
        if actions.len() >= PLY_CAP {
            return Err(fail(
                spec,
                &history,
                format!("game not over after {PLY_CAP} plies"),
            ));
        }
        let legal = game.legal_actions();
        if legal.is_empty() {
            return Err(fail(
                spec,
                &history,
                "game not over but no legal action".into(),
            ));
        }
        let unflagged = game.legal_actions_unflagged();
        if unflagged.len() != legal.len()
            || unflagged.iter().zip(&legal).any(|(a, l)| *a != l.action)
        {
            return Err(fail(
                spec,
                &history,
                "the unflagged list differs from legal_actions".into(),
            ));
        }
        let rate = if game.pending().is_some() {
            checks.sample_pending
        } else {
            checks.sample
        };
        if actions.is_empty() || rng.pick(rate) == 0 {
            check_position(spec, &history, &game, &legal)?;
        }
        let action = legal[rng.pick(legal.len())].action;
        let text = game.notation(&action);
        // A panic inside the engine is reported with the game that led to it.
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| game.play(&action)));
        match played {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                return Err(fail(
                    spec,
                    &history,
                    format!("listed action {action:?} (`{text}`) refused: {e:?}"),
                ));
            }
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                return Err(fail(
                    spec,
                    &history,
                    format!("playing `{text}` panicked: {what}"),
                ));
            }
        }
        actions.push(action);
        history.push(text);
        check_gold(spec, &history, &game)?;
    }

    // A finished game lists nothing and refuses everything.
    if !game.legal_actions().is_empty() {
        return Err(fail(spec, &history, "finished game lists actions".into()));
    }
    if let Some(a) = actions.last()
        && game.clone().play(a).is_ok()
    {
        return Err(fail(
            spec,
            &history,
            "finished game accepts an action".into(),
        ));
    }
    if game.outcome().is_none() {
        return Err(fail(spec, &history, "finished game has no outcome".into()));
    }

    // Replay: same seed, same actions, identical game (R-GEN-7; R-MAP-4: the deal is the only
    // randomness).
    let mut replay = Game::new(settings, spec.seed)
        .map_err(|e| fail(spec, &history, format!("replay setup failed: {e}")))?;
    for (i, a) in actions.iter().enumerate() {
        if let Err(e) = replay.play(a) {
            return Err(fail(
                spec,
                &history,
                format!("replay refused ply {i} {a:?}: {e:?}"),
            ));
        }
    }
    if replay != game {
        return Err(fail(spec, &history, "replay gives a different Game".into()));
    }
    Ok(Played {
        plies: actions.len(),
    })
}

/// Replays a game written in notation (the form failure messages print), for reproducers.
fn replay_from_notation(board_size: u8, players: Players, seed: u64, actions: &[&str]) -> Game {
    let settings = Settings {
        board_size,
        players,
        tile_pack: Pack::Classic,
        ..Settings::default()
    };
    let mut game = Game::new(settings, seed).expect("setup");
    for (i, text) in actions.iter().enumerate() {
        game.play_text(text)
            .unwrap_or_else(|e| panic!("ply {i} `{text}` refused: {e:?}"));
    }
    game
}

const DEFAULT_CHECKS: Checks = Checks {
    sample: 10,
    sample_pending: 2,
};

const FULL_CHECKS: Checks = Checks {
    sample: 1,
    sample_pending: 1,
};

/// Plays `cases` random games through proptest (random seeds each run, shrinking on failure)
/// and prints a summary (`--nocapture`).
fn run_many(cases: u32, checks: Checks) {
    let config = ProptestConfig {
        cases,
        max_shrink_iters: 500,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    let games = Cell::new(0usize);
    let plies = Cell::new(0usize);
    let result = runner.run(&spec(), |spec| {
        let played = run_game(&spec, checks)?;
        games.set(games.get() + 1);
        plies.set(plies.get() + played.plies);
        Ok(())
    });
    println!("{} complete games, {} plies", games.get(), plies.get());
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// 2,000 complete games in two halves (so the test harness can run them in parallel);
/// expensive checks on a sample of plies.
#[test]
fn random_games_1() {
    run_many(1_000, DEFAULT_CHECKS);
}

#[test]
fn random_games_2() {
    run_many(1_000, DEFAULT_CHECKS);
}

/// 100,000 complete games (or `INVARIANTS_GAMES`) with every check on every ply.
/// `cargo test --release --test engine -- --ignored random_games_long --nocapture`
#[test]
#[ignore = "long: 100,000 games; run in release"]
fn random_games_long() {
    let games = std::env::var("INVARIANTS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    run_many(games, FULL_CHECKS);
}

/// A bug the random games found: gold picked up at a fork in a move that started aboard a ship,
/// then refused by the cargo restriction, went back into the ship's items and vanished from the
/// accounts. It now arrives aboard and scores (docs/rules-notes.md N-5).
#[test]
fn restricted_gold_returned_to_a_ship_scores() {
    let mut game = replay_from_notation(
        5,
        Players::Three,
        504_892,
        &[
            "2 c2",
            "3 b3",
            "2 c4",
            "c5",
            "1 c2",
            "3 c4 coin",
            "c5 drop",
            "3 c4",
        ],
    );
    let before = game.gold_accounts().1;
    game.play_text("c3 coin").expect("legal");
    let (dealt, delivered, lost) = game.gold_accounts();
    assert_eq!(gold_aboard(&game), 0, "gold lies aboard a vessel");
    assert_eq!(game.gold_in_play() + delivered + lost, dealt);
    assert_eq!(delivered, before + 1, "the returned coin scored");
}

/// A fixed game on every board size and player count, every check on every ply.
#[test]
fn fixed_games_all_checks() {
    let mut rng = SplitMix64::new(0x5EED);
    for board_size in [5u8, 7, 9, 11, 13] {
        for players in [
            Players::Two,
            Players::Three,
            Players::Four,
            Players::TwoVsTwo,
        ] {
            let spec = Spec {
                settings: Settings {
                    board_size,
                    players,
                    tile_pack: Pack::Full,
                    ..Settings::default()
                },
                seed: rng.next_u64(),
                player_seed: rng.next_u64(),
            };
            if let Err(e) = run_game(&spec, FULL_CHECKS) {
                panic!("{e}");
            }
        }
    }
}

/// Found by the random games: a missionary leaving through the tunnel released a stuck Friday
/// onto the cave he was leaving, they met there and died, and the dead missionary went on
/// through the tunnel (a panic). The leaver is in the tunnel when the stuck unit comes out.
#[test]
fn the_unit_leaving_by_the_tunnel_meets_nobody_released_behind_it() {
    let spec = Spec {
        settings: Settings {
            board_size: 11,
            tile_pack: Pack::Full,
            fortress_vs_cannonball: false,
            no_wasted_rum: false,
            ..Settings::default()
        },
        seed: 4247896843147816679,
        player_seed: 6644385052187454421,
    };
    if let Err(e) = run_game(&spec, DEFAULT_CHECKS) {
        panic!("{e}");
    }
}
