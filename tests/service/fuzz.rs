//! Fuzzing of every parser that reads outside input: whatever comes in, nothing
//! panics, nothing hangs, and a rejection changes nothing.
//!
//! One proptest per target:
//!
//! - `notation`: the action notation (SCENARIOS §4) typed by players, on many positions (with
//!   and without a pending choice); a rejected text leaves the game as it was, an accepted
//!   one reads back from its canonical form;
//! - `scenario_files`: the whole `jackal check` pipeline on a file's text (lexer, setup,
//!   steps, expectations, report) and `jackal render`'s `position_after_plays`;
//! - `game_import`: `GameService::import` of an exported game (JSON); a rejected file leaves
//!   every table of the database as it was;
//! - `snapshot_codec`: the stored state (serde JSON of `engine::Game` with its compact codec);
//!   what is accepted writes back and reads back the same;
//! - `discord_input`: component custom ids and the option values of menus and autocomplete;
//! - `settings`: `GameConfig::set` with any id and value (a rejection changes nothing), and
//!   stored settings JSON.
//!
//! Inputs mix purely random text and bytes with mutations of valid inputs (characters and
//! words inserted, deleted, replaced; tokens of the real grammar spliced in; whole lines and
//! chunks copied between valid inputs; JSON nodes replaced by boundary values), so that the
//! deep paths of each parser are reached, not only its first check.
//!
//! `cargo test --test service fuzz::` runs a few hundred cases per target (seconds). The long run:
//!
//! ```text
//! JACKAL_FUZZ_CASES=1000000 cargo test --release --test service fuzz:: -- --nocapture
//! ```
//!
//! A case that runs longer than [`HANG_LIMIT`] is a hang: the watchdog prints its input and
//! aborts the run. A failure is saved in `tests/service/fuzz.proptest-regressions` and tried first on
//! later runs.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use jackal::discord::ids::CustomId;
use jackal::engine::mapgen::SplitMix64;
use jackal::engine::notation;
use jackal::engine::{Game, Settings, Team};
use jackal::game::{Actor, ExportedGame, GameConfig, GameEnd, GameService, Location, ManualClock};
use jackal::id::{ChannelId, GameId, GuildId, UserId};
use jackal::store::{Durability, GameStatus, Store};
use jackal::words::Lang;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{FileFailurePersistence, TestCaseError, TestRunner};
use serde_json::{Value, json};

// ----- configuration ------------------------------------------------------------------------

/// Cases per target in `cargo test`: a few seconds for the whole file.
const DEFAULT_CASES: u32 = 400;

/// A case running longer than this is taken for a hang (the slowest valid inputs, whole
/// scenario files with `expect legal` steps, take milliseconds).
const HANG_LIMIT: Duration = Duration::from_secs(20);

/// The case count from `JACKAL_FUZZ_CASES` (the long run), else [`DEFAULT_CASES`].
fn config() -> ProptestConfig {
    let cases = std::env::var("JACKAL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
        .unwrap_or(DEFAULT_CASES);
    ProptestConfig {
        cases,
        // Shrinking a long run's failure must not take longer than finding it.
        max_shrink_iters: 2_000,
        // Failures are saved beside this file (`fuzz.proptest-regressions`) and tried first
        // on later runs.
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// Runs one target: `cases` inputs from `strategy` through `test`, each under the watchdog;
/// prints the count and the rate (seen with `--nocapture`), and fails with the (shrunk)
/// input that broke a property.
fn fuzz<S: Strategy>(
    target: &'static str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    let config = config();
    let cases = config.cases;
    let mut runner = TestRunner::new(config);
    quiet_panics_in_cases();
    let start = Instant::now();
    let result = runner.run(&strategy, |input| {
        let _case = watchdog::case(target, &input);
        let _quiet = QuietPanics::new();
        test(input)
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz {target}: {cases} cases in {secs:.1} s ({:.0} cases/s)",
        f64::from(cases) / secs.max(1e-9)
    );
    if let Err(e) = result {
        panic!("fuzz {target}: {e}");
    }
}

thread_local! {
    static IN_CASE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics stay quiet on this thread until dropped (also when a panic unwinds through it).
struct QuietPanics;

impl QuietPanics {
    fn new() -> QuietPanics {
        IN_CASE.with(|c| c.set(true));
        QuietPanics
    }
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        IN_CASE.with(|c| c.set(false));
    }
}

/// A panic inside a case is caught by proptest and reported with the shrunk input; printing
/// each one (thousands while shrinking) would bury that report.
fn quiet_panics_in_cases() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_CASE.with(std::cell::Cell::get) {
                default(info);
            }
        }));
    });
}

// ----- the watchdog -------------------------------------------------------------------------

/// Remembers each target's running case; a thread aborts the process when one runs past
/// [`HANG_LIMIT`], after printing its input (a hang would otherwise stall the run silently).
mod watchdog {
    use super::*;

    type Running = BTreeMap<&'static str, (Instant, String)>;

    fn running() -> &'static Mutex<Running> {
        static RUNNING: OnceLock<Mutex<Running>> = OnceLock::new();
        RUNNING.get_or_init(|| {
            std::thread::spawn(|| {
                loop {
                    std::thread::sleep(Duration::from_millis(500));
                    let now = running().lock().unwrap_or_else(|e| e.into_inner());
                    for (target, (since, input)) in now.iter() {
                        if since.elapsed() > HANG_LIMIT {
                            eprintln!(
                                "fuzz {target}: a case has run for over {HANG_LIMIT:?}, a hang: \
                                 input {input}"
                            );
                            std::process::abort();
                        }
                    }
                }
            });
            Mutex::new(BTreeMap::new())
        })
    }

    /// The running case of `target`, until dropped.
    pub struct Case(&'static str);

    pub fn case(target: &'static str, input: &impl Debug) -> Case {
        let text = format!("{input:?}");
        running()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(target, (Instant::now(), text));
        Case(target)
    }

    impl Drop for Case {
        fn drop(&mut self) {
            running()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(self.0);
        }
    }
}

// ----- text mutations -----------------------------------------------------------------------

/// Numbers at the edges of the types the parsers read into.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1",
    "+1",
    "00",
    "05",
    "255",
    "256",
    "585",
    "586",
    "1000",
    "1001",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "0x",
    "0xffffffffffffffff",
    "0x10000000000000000",
    "1e308",
    "1.5",
    "NaN",
];

/// Characters that separate or join tokens somewhere.
const PUNCTUATION: &[&str] = &[
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "#",
    "=",
    ",",
    ";",
    ".",
    ":",
    "+",
    "*",
    "-",
    "_",
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    "\u{0}",
    "\u{feff}",
    "ё",
    "Ж",
    "🏴‍☠️",
    "\u{301}",
    "İ",
];

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    /// Insert a piece at a position.
    Insert(usize, String),
    /// Delete up to `n` characters at a position.
    Delete(usize, usize),
    /// Replace up to `n` characters at a position.
    Replace(usize, usize, String),
    /// Replace the k-th word (whitespace-separated).
    Word(usize, String),
    /// Copy a chunk of another valid input (corpus index, start, length) to a position.
    Splice(usize, usize, usize, usize),
    /// Copy a whole line of another valid input (corpus index, line) before the k-th line.
    Line(usize, usize, usize),
    /// Delete the k-th line.
    DeleteLine(usize),
}

fn piece(tokens: &'static [&'static str]) -> BoxedStrategy<String> {
    prop_oneof![
        6 => select(tokens).prop_map(String::from),
        2 => select(NUMBERS).prop_map(String::from),
        2 => select(PUNCTUATION).prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
        1 => ".{0,12}",
    ]
    .boxed()
}

fn edit(tokens: &'static [&'static str]) -> BoxedStrategy<Edit> {
    prop_oneof![
        3 => (any::<usize>(), piece(tokens)).prop_map(|(at, s)| Edit::Insert(at, s)),
        2 => (any::<usize>(), 1..12usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        2 => (any::<usize>(), 1..6usize, piece(tokens)).prop_map(|(at, n, s)| Edit::Replace(at, n, s)),
        4 => (any::<usize>(), piece(tokens)).prop_map(|(k, s)| Edit::Word(k, s)),
        1 => (any::<usize>(), any::<usize>(), any::<usize>(), 1..80usize)
            .prop_map(|(c, from, at, n)| Edit::Splice(c, from, at, n)),
        2 => (any::<usize>(), any::<usize>(), any::<usize>()).prop_map(|(c, l, k)| Edit::Line(c, l, k)),
        1 => any::<usize>().prop_map(Edit::DeleteLine),
    ]
    .boxed()
}

/// The largest char boundary of `text` at or below `at % (len + 1)`.
fn boundary(text: &str, at: usize) -> usize {
    let mut i = at % (text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The char boundary `n` characters after `from` (or the end).
fn after_chars(text: &str, from: usize, n: usize) -> usize {
    text[from..]
        .char_indices()
        .nth(n)
        .map_or(text.len(), |(i, _)| from + i)
}

fn apply(corpus: &[String], seed: usize, edits: &[Edit]) -> String {
    let mut text = corpus[seed % corpus.len()].clone();
    for e in edits {
        match e {
            Edit::Insert(at, s) => {
                let i = boundary(&text, *at);
                text.insert_str(i, s);
            }
            Edit::Delete(at, n) => {
                let i = boundary(&text, *at);
                let j = after_chars(&text, i, *n);
                text.replace_range(i..j, "");
            }
            Edit::Replace(at, n, s) => {
                let i = boundary(&text, *at);
                let j = after_chars(&text, i, *n);
                text.replace_range(i..j, s);
            }
            Edit::Word(k, s) => {
                let words: Vec<(usize, usize)> = word_spans(&text);
                if let Some(&(i, j)) = words.get(k % words.len().max(1)) {
                    text.replace_range(i..j, s);
                } else {
                    text.push_str(s);
                }
            }
            Edit::Splice(c, from, at, n) => {
                let other = &corpus[c % corpus.len()];
                let i = boundary(other, *from);
                let j = after_chars(other, i, *n);
                let chunk = other[i..j].to_string();
                let at = boundary(&text, *at);
                text.insert_str(at, &chunk);
            }
            Edit::Line(c, l, k) => {
                let other = &corpus[c % corpus.len()];
                let lines: Vec<&str> = other.lines().collect();
                if lines.is_empty() {
                    continue;
                }
                let line = format!("{}\n", lines[l % lines.len()]);
                let starts = line_starts(&text);
                let at = starts[k % starts.len()];
                text.insert_str(at, &line);
            }
            Edit::DeleteLine(k) => {
                let starts = line_starts(&text);
                let i = starts[k % starts.len()];
                let j = text[i..].find('\n').map_or(text.len(), |n| i + n + 1);
                text.replace_range(i..j, "");
            }
        }
    }
    text
}

fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

/// Where each line starts, and the end of the text.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if *starts.last().expect("one") != text.len() {
        starts.push(text.len());
    }
    starts
}

/// Text for a parser: random characters, random bytes read as UTF-8 (lossily), a soup of the
/// grammar's tokens, and (most often) a valid input with a few edits.
fn text_input(corpus: Arc<Vec<String>>, tokens: &'static [&'static str]) -> BoxedStrategy<String> {
    assert!(!corpus.is_empty());
    let n = corpus.len();
    prop_oneof![
        1 => any::<String>(),
        1 => proptest::collection::vec(any::<u8>(), 0..256)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => proptest::collection::vec(piece(tokens), 0..16).prop_map(|w| w.join(" ")),
        1 => (0..n).prop_map({
            let corpus = corpus.clone();
            move |i| corpus[i].clone()
        }),
        8 => (0..n, proptest::collection::vec(edit(tokens), 1..8)).prop_map(move |(i, edits)| apply(&corpus, i, &edits)),
    ]
    .boxed()
}

// ----- JSON mutations -----------------------------------------------------------------------

/// JSON values at the edges of what the readers expect.
fn odd_json() -> BoxedStrategy<Value> {
    let numbers = select(NUMBERS).prop_map(|n| {
        serde_json::from_str::<Value>(n).unwrap_or_else(|_| Value::String(n.to_string()))
    });
    prop_oneof![
        3 => numbers,
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_map(Value::from),
        2 => ".{0,12}".prop_map(Value::String),
        1 => Just(Value::Array(Vec::new())),
        1 => Just(Value::Object(Default::default())),
    ]
    .boxed()
}

/// One structural edit of a JSON tree: the node reached by following `path` (each number
/// picks a child, modulo the count; the walk may stop early) is replaced, removed, or
/// replaced by a copy of another node of the same tree.
#[derive(Clone, Debug)]
enum JsonEdit {
    Set(Vec<usize>, Value),
    Remove(Vec<usize>),
    Copy(Vec<usize>, Vec<usize>),
    /// Turn a string into another string of the grammar (a token).
    Text(Vec<usize>, String),
    /// Replace the k-th leaf (in document order, modulo the count): every field, however
    /// deep, as likely as any other.
    Leaf(usize, Value),
}

fn json_edit(tokens: &'static [&'static str]) -> BoxedStrategy<JsonEdit> {
    let path = || proptest::collection::vec(any::<usize>(), 0..8);
    prop_oneof![
        4 => (path(), odd_json()).prop_map(|(p, v)| JsonEdit::Set(p, v)),
        2 => path().prop_map(JsonEdit::Remove),
        2 => (path(), path()).prop_map(|(a, b)| JsonEdit::Copy(a, b)),
        2 => (path(), piece(tokens)).prop_map(|(p, s)| JsonEdit::Text(p, s)),
        4 => (any::<usize>(), odd_json()).prop_map(|(k, v)| JsonEdit::Leaf(k, v)),
        2 => (any::<usize>(), piece(tokens)).prop_map(|(k, s)| JsonEdit::Leaf(k, Value::String(s))),
    ]
    .boxed()
}

/// The node reached by following `path`: each number picks a child (modulo the count), and
/// one in eight stops the walk there, so that inner nodes are edited too; a path ends where
/// the tree does.
fn node_mut<'a>(v: &'a mut Value, path: &[usize]) -> &'a mut Value {
    // The steps are found on a shared borrow first: the borrow checker cannot follow a loop
    // that may stop on a mutable borrow.
    let mut steps = Vec::new();
    let mut at: &Value = v;
    for &p in path {
        if p % 8 == 0 {
            break;
        }
        at = match at {
            Value::Array(a) if !a.is_empty() => {
                steps.push(Ok(p % a.len()));
                &a[p % a.len()]
            }
            Value::Object(o) if !o.is_empty() => {
                let (key, next) = o.iter().nth(p % o.len()).expect("in range");
                steps.push(Err(key.clone()));
                next
            }
            _ => break,
        };
    }
    let mut v = v;
    for step in steps {
        v = match (v, step) {
            (Value::Array(a), Ok(i)) => &mut a[i],
            (Value::Object(o), Err(key)) => o.get_mut(&key).expect("found above"),
            _ => unreachable!("the steps follow the tree"),
        };
    }
    v
}

fn remove_at(v: &mut Value, path: &[usize]) {
    let Some((&last, parent)) = path.split_last() else {
        return;
    };
    match node_mut(v, parent) {
        Value::Array(a) if !a.is_empty() => {
            let n = a.len();
            a.remove(last % n);
        }
        Value::Object(o) if !o.is_empty() => {
            let key = o.keys().nth(last % o.len()).expect("in range").clone();
            o.remove(&key);
        }
        _ => {}
    }
}

fn leaf_count(v: &Value) -> usize {
    match v {
        Value::Array(a) if !a.is_empty() => a.iter().map(leaf_count).sum(),
        Value::Object(o) if !o.is_empty() => o.values().map(leaf_count).sum(),
        _ => 1,
    }
}

/// The k-th leaf of `v` (k < its leaf count).
fn leaf_mut(v: &mut Value, mut k: usize) -> &mut Value {
    let container = match &*v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => false,
    };
    if !container {
        return v;
    }
    let children: Vec<&mut Value> = match v {
        Value::Array(a) => a.iter_mut().collect(),
        Value::Object(o) => o.values_mut().collect(),
        _ => unreachable!("a container"),
    };
    for child in children {
        let n = leaf_count(child);
        if k < n {
            return leaf_mut(child, k);
        }
        k -= n;
    }
    unreachable!("k is below the leaf count")
}

fn apply_json(mut v: Value, edits: &[JsonEdit]) -> Value {
    for e in edits {
        match e {
            JsonEdit::Set(p, new) => *node_mut(&mut v, p) = new.clone(),
            JsonEdit::Remove(p) => remove_at(&mut v, p),
            JsonEdit::Copy(from, to) => {
                let copy = node_mut(&mut v, from).clone();
                *node_mut(&mut v, to) = copy;
            }
            JsonEdit::Leaf(k, new) => {
                let n = leaf_count(&v);
                *leaf_mut(&mut v, k % n) = new.clone();
            }
            JsonEdit::Text(p, s) => {
                let node = node_mut(&mut v, p);
                match node {
                    Value::String(old) => {
                        // Keep a part of the old string half of the time (`e5 coin` → `e5 x`).
                        let keep = old.split_whitespace().next().unwrap_or("").to_string();
                        *old = if s.len() % 2 == 0 {
                            format!("{keep} {s}")
                        } else {
                            s.clone()
                        };
                    }
                    other => *other = Value::String(s.clone()),
                }
            }
        }
    }
    v
}

/// JSON for a reader: text mutations of valid JSON (mostly broken JSON), structural edits
/// (well-formed JSON that is wrong inside), and random text.
fn json_input(corpus: Arc<Vec<Value>>, tokens: &'static [&'static str]) -> BoxedStrategy<String> {
    let texts: Arc<Vec<String>> = Arc::new(corpus.iter().map(Value::to_string).collect());
    let n = corpus.len();
    prop_oneof![
        2 => text_input(texts, tokens),
        6 => (0..n, proptest::collection::vec(json_edit(tokens), 1..6))
            .prop_map(move |(i, edits)| apply_json(corpus[i].clone(), &edits).to_string()),
    ]
    .boxed()
}

// ----- corpora ------------------------------------------------------------------------------

fn tests_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

/// The text of every scenario of the project's scenario files, one entry per scenario (a
/// file's lines from one title line to the next), plus a few whole files.
fn scenario_texts() -> &'static Vec<String> {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut out = Vec::new();
        let mut files = jackal::scenario::collect_files(&[tests_dir("scenarios")])
            .expect("the scenario folder");
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            let mut current = String::new();
            for line in text.lines() {
                if line
                    .trim_start()
                    .to_ascii_lowercase()
                    .starts_with("scenario")
                    && !current.trim().is_empty()
                {
                    out.push(std::mem::take(&mut current));
                }
                current.push_str(line);
                current.push('\n');
            }
            out.push(current);
            if text.len() < 4_000 {
                out.push(text);
            }
        }
        out
    })
}

/// Positions to type notation into: every scenario's position after its `play` steps (many
/// with a pending choice), and new games of every size played a few random plies on.
/// [`positions`] as the picker is given them.
fn turn_views() -> &'static Vec<jackal::game::TurnView> {
    static VIEWS: OnceLock<Vec<jackal::game::TurnView>> = OnceLock::new();
    VIEWS.get_or_init(|| {
        positions()
            .iter()
            .map(|g| jackal::game::TurnView::of_position(GameId::new(1).unwrap(), 1, g.clone()))
            .collect()
    })
}

fn positions() -> &'static Vec<Game> {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut out: Vec<Game> = scenario_texts()
            .iter()
            .filter_map(|t| jackal::scenario::position_after_plays(t).ok())
            .map(|(game, _)| game)
            .collect();
        for (i, size) in [5u8, 7, 9, 11, 13].into_iter().enumerate() {
            for (j, players) in ["2", "3", "4", "2x2"].into_iter().enumerate() {
                let mut settings = Settings::default();
                settings.set("board_size", &size.to_string()).unwrap();
                settings.set("players", players).unwrap();
                settings.set("tile_pack", "classic").unwrap();
                let seed = (i * 4 + j) as u64;
                let game = Game::new(settings, seed).expect("a classic deal");
                out.extend(random_plies(game, seed, 40, 8));
            }
        }
        out
    })
}

/// The positions a random player passes through: every `every`-th of `plies` plies.
fn random_plies(mut game: Game, seed: u64, plies: usize, every: usize) -> Vec<Game> {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut out = vec![game.clone()];
    for ply in 1..=plies {
        let legal = game.legal_actions_unflagged();
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len() as u64) as usize];
        game.play(&a).expect("a legal action");
        if ply % every == 0 {
            out.push(game.clone());
        }
    }
    out
}

/// Every canonical notation of the positions' legal actions (deduplicated, sorted).
fn notations() -> &'static Vec<String> {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut all: Vec<String> = positions()
            .iter()
            .flat_map(|g| {
                g.legal_actions_unflagged()
                    .into_iter()
                    .map(|a| g.notation(&a))
                    .collect::<Vec<_>>()
            })
            .collect();
        all.extend([
            "res".into(),
            "boat b4".into(),
            "rum e5".into(),
            "e5 drop".into(),
        ]);
        all.sort();
        all.dedup();
        all
    })
}

/// Words of the scenario grammar (SCENARIOS §9) and of the notation.
const SCENARIO_TOKENS: &[&str] = &[
    "scenario",
    "board",
    "players",
    "set",
    "seed",
    "tile",
    "unit",
    "item",
    "ship",
    "boat",
    "score",
    "rum",
    "turn",
    "weed",
    "stall",
    "play",
    "play-as",
    "expect",
    "fog",
    "used",
    "dead",
    "step",
    "hits",
    "sunk",
    "drunk",
    "trapped",
    "stuck",
    "pilot",
    "passenger",
    "converted",
    "empty",
    "horse",
    "ice",
    "trap",
    "crocodile",
    "cannibal",
    "fortress",
    "resfort",
    "bullion",
    "barrel",
    "balloon",
    "plane",
    "lighthouse",
    "bengunn",
    "friday",
    "missionary",
    "cave",
    "earthquake",
    "jungle",
    "weed",
    "caramba",
    "cart",
    "ball",
    "maze2",
    "maze5",
    "maze9",
    "chest1",
    "chest5",
    "chest0",
    "bottles3",
    "arrow",
    "n+e",
    "ne+sw+w",
    "n+n",
    "cannon",
    "coin",
    "bar",
    "drop",
    "res",
    "at",
    "tunnel",
    "alive",
    "sober",
    "free",
    "swimming",
    "aboard",
    "unseated",
    "carries",
    "nothing",
    "items",
    "none",
    "side-score",
    "gold",
    "open",
    "unused",
    "boats",
    "controller",
    "pending",
    "no",
    "exit",
    "jump",
    "flight",
    "reveal",
    "quake",
    "legal",
    "for",
    "includes",
    "excludes",
    "exactly",
    "count",
    "not",
    "fatal",
    "reject",
    "over",
    "winner",
    "draw",
    "eliminated",
    "uncatchable",
    "no_moves",
    "disabled",
    "syntax",
    "ambiguous",
    "game_over",
    "bad_choice",
    "unreachable",
    "board_size",
    "tile_pack",
    "stall_rounds",
    "plane_seats",
    "destroying_ships",
    "classic",
    "full",
    "chest5*20,empty*97",
    "cave*40",
    "empty*65535,empty*65535",
    "chest5*117",
    "2x2",
    "on",
    "off",
    "1.1",
    "2.f",
    "4.m",
    "3.b",
    "1.9",
    "0.1",
    "a1",
    "a7",
    "e5",
    "g1",
    "g13",
    "m13",
    "n14",
    "z9",
    "e05",
    "e0",
    "b",
    "f",
    "m",
    "1",
    "2",
    "3",
    "4",
    "5",
    "7",
    "9",
    "11",
    "13",
];

/// Words of the notation (SCENARIOS §4).
const NOTATION_TOKENS: &[&str] = &[
    "ship", "boat", "res", "rum", "drop", "coin", "bar", "ball", "cart", "1", "2", "3", "4", "b",
    "f", "m", "B", "COIN", "a1", "a2", "b1", "e5", "E5", "g1", "g7", "g13", "m13", "m7", "n7",
    "z9", "e0", "e05", "e14", "e5e5", "e-1",
];

// ----- 1. action notation -------------------------------------------------------------------

/// Any text typed as a move: no panic; a rejection leaves the game unchanged; an accepted
/// text means the same action as its canonical form (S-NOT-2).
#[test]
fn notation() {
    let strategy = (
        text_input(Arc::new(notations().clone()), NOTATION_TOKENS),
        any::<usize>(),
    );
    fuzz("notation", strategy, |(text, at)| {
        let games = positions();
        let before = &games[at % games.len()];
        let _ = notation::parse(&text, before.board());
        let parsed = before.parse_action(&text);
        if let Ok(action) = parsed {
            let canonical = before.notation(&action);
            prop_assert_eq!(
                before.parse_action(&canonical),
                Ok(action),
                "{:?} → {}",
                text,
                canonical
            );
        }
        let mut game = before.clone();
        match game.play_text(&text) {
            Err(_) => prop_assert!(game == *before, "a rejected {:?} changed the game", text),
            Ok(_) => prop_assert!(parsed.is_ok()),
        }
        Ok(())
    });
}

// ----- 2. scenario files --------------------------------------------------------------------

/// Any file given to `jackal check` or `jackal render --scenario`: a report (or an error),
/// never a panic or a hang.
#[test]
fn scenario_files() {
    let strategy = text_input(Arc::new(scenario_texts().clone()), SCENARIO_TOKENS);
    fuzz("scenario_files", strategy, |text| {
        let mut report = jackal::scenario::Report::new(false);
        report.check_content("fuzz.scn", &text);
        report.finish();
        prop_assert!(report.text.contains("TOTAL files=1"));
        prop_assert!((0..=2).contains(&report.exit_code()));
        let _ = jackal::scenario::position_after_plays(&text);
        Ok(())
    });
}

// ----- 3. JSON game import ------------------------------------------------------------------

/// A game service on a scratch database (commits not flushed: the cases are many).
struct Service {
    _dir: tempfile::TempDir,
    service: GameService,
}

fn service() -> Service {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let store = Store::open_with(dir.path().join("fuzz.db"), Durability::Normal).expect("a store");
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    Service {
        service: GameService::new(Arc::new(store), clock),
        _dir: dir,
    }
}

/// Rows in every table: a rejected import must leave each count as it was.
fn row_counts(service: &GameService) -> Vec<(String, i64)> {
    let conn = service.store().conn().expect("a connection");
    let tables: Vec<String> = conn
        .raw()
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("the tables");
    tables
        .into_iter()
        .map(|t| {
            let n = conn
                .raw()
                .query_row(&format!("SELECT count(*) FROM \"{t}\""), [], |r| r.get(0))
                .expect("a count");
            (t, n)
        })
        .collect()
}

/// Exports as the service writes them (`ExportedGame`'s JSON): lobbies, running games after a
/// few plies (some with a pending choice), finished, resigned and cancelled games, on every
/// board size.
fn exports() -> &'static Vec<Value> {
    static EXPORTS: OnceLock<Vec<Value>> = OnceLock::new();
    EXPORTS.get_or_init(|| {
        let mut out = Vec::new();
        for (i, (size, players)) in [(5, "2"), (7, "3"), (9, "2x2"), (11, "4"), (13, "2")]
            .into_iter()
            .enumerate()
        {
            let mut config = GameConfig::default();
            config.set("board_size", &size.to_string()).unwrap();
            config.set("players", players).unwrap();
            let seats: Vec<Value> = (1..=config.team_count())
                .map(|team| match team {
                    2 => json!({"team": team, "user_id": null, "bot_level": "easy"}),
                    _ => {
                        json!({"team": team, "user_id": 1000 + u64::from(team), "bot_level": null})
                    }
                })
                .collect();
            out.push(json!({
                "format": "jackal-game/1",
                "config": config,
                "seed": null,
                "status": GameStatus::Lobby,
                "language": "ru",
                "seats": seats[..1],
                "actions": [],
            }));
            let seed = 100 + i as u64;
            let mut game = Game::new(config.rules.clone(), seed).unwrap();
            let mut rng = SplitMix64::new(seed);
            let mut actions = Vec::new();
            let plies = [3, 12, 40, 400, 7][i];
            // Every position so far: one game of the corpus takes plies back by consent.
            let mut positions = vec![game.clone()];
            while actions.len() < plies && !game.is_over() {
                if i == 1 && actions.len() == 6 {
                    actions.push(json!({
                        "ply": 7,
                        "team": 1,
                        "user_id": 1001,
                        "notation": "undo",
                        "action": {"TakeBack": {"to": 4}},
                    }));
                    game = positions[4].clone().resumed_at(7);
                    positions.push(game.clone());
                    continue;
                }
                let legal = game.legal_actions_unflagged();
                let action = legal[rng.below(legal.len() as u64) as usize];
                let team = game.turn();
                actions.push(json!({
                    "ply": actions.len() + 1,
                    "team": team,
                    "user_id": (team != Team::of(2)).then_some(1000 + u64::from(team.number())),
                    "notation": game.notation(&action),
                    "action": action,
                }));
                game.play(&action).unwrap();
                positions.push(game.clone());
            }
            let status = if game.is_over() {
                GameStatus::Finished
            } else {
                GameStatus::Active
            };
            let running = json!({
                "format": "jackal-game/1",
                "config": config,
                "seed": seed,
                "status": status,
                "language": "en",
                "seats": seats,
                "actions": actions,
            });
            let mut ended = running.clone();
            ended["status"] = json!(GameStatus::Cancelled);
            ended["result"] = json!(if i % 2 == 0 {
                GameEnd::Cancelled
            } else {
                GameEnd::Resigned {
                    team: Team::of(1),
                    winners: vec![Team::of(2)],
                    timed_out: i % 4 == 1,
                }
            });
            out.extend([running, ended]);
        }
        for export in &out {
            serde_json::from_value::<ExportedGame>(export.clone()).expect("an export");
        }
        out
    })
}

const JSON_TOKENS: &[&str] = &[
    "jackal-game/1",
    "jackal-game/2",
    "lobby",
    "active",
    "finished",
    "cancelled",
    "Lobby",
    "Active",
    "easy",
    "normal",
    "random",
    "hard",
    "en",
    "ru",
    "",
    "classic",
    "full",
    "chest5*20,empty*97",
    "empty*1000",
    "cave*40",
    "Two",
    "Three",
    "TwoVsTwo",
    "Four",
    "King",
    "Move",
    "Ship",
    "Boat",
    "Choose",
    "Resurrect",
    "Rum",
    "Pirate",
    "BenGunn",
    "Played",
    "Resigned",
    "Cancelled",
    "ThreadDeleted",
    "1 e5",
    "ship g1",
    "e5 drop",
    "- e.0 g5.1o",
    "TakeBack",
    "undo",
];

/// Any file offered to `import`: a new game that loads, or a refusal that leaves every
/// table of the database as it was.
#[test]
fn game_import() {
    let s = service();
    let s = &s.service;
    let strategy = json_input(Arc::new(exports().clone()), JSON_TOKENS);
    fuzz("game_import", strategy, |json| {
        let here = Location {
            guild_id: Some(GuildId::new(1)),
            channel_id: Some(ChannelId::new(2)),
            thread_id: None,
        };
        let before = row_counts(s);
        match s.import(Actor::user(UserId::new(7)), here, &json) {
            Err(_) => prop_assert_eq!(
                row_counts(s),
                before,
                "a refused import changed the database"
            ),
            Ok(id) => {
                let loaded = s.game(id);
                prop_assert!(
                    loaded.is_ok(),
                    "an accepted import does not load: {:?}",
                    loaded.err()
                );
                prop_assert!(s.history(id).is_ok());
                // Each case starts from the same small file: counting every table's rows
                // stays cheap over a long run.
                let conn = s.store().conn().expect("a connection");
                conn.raw()
                    .execute("DELETE FROM games WHERE id = ?1", [id])
                    .expect("an imported game deletes");
            }
        }
        Ok(())
    });
}

// ----- 4. the stored state and snapshot codec -----------------------------------------------

/// States as the store writes them, from the positions above.
fn snapshots() -> &'static Vec<Value> {
    static STATES: OnceLock<Vec<Value>> = OnceLock::new();
    STATES.get_or_init(|| {
        positions()
            .iter()
            .step_by(3)
            .map(|g| serde_json::to_value(g).expect("plain data"))
            .collect()
    })
}

const SNAPSHOT_TOKENS: &[&str] = &[
    "-",
    "e.0",
    "e.0o",
    "a170.0",
    "a0.0o",
    "a255.3ou",
    "m4.3o",
    "m0.0o",
    "m200.1o",
    "g5.1",
    "g0.0",
    "g255.0",
    "n3.2o",
    "n8.0",
    "o3.0",
    "L.0",
    "B.0o",
    "K.1u",
    "x.0",
    "e.4",
    "e.0x",
    "len",
    "at",
    "Aboard",
    "Land",
    "Swim",
    "Dead",
    "Pilot",
    "Passenger",
    "Exit",
    "Jump",
    "Flight",
    "Cave",
    "Reveal",
    "Quake",
    "Walk",
    "Horse",
];

/// Any stored state: read or refused, never a panic or a hang; what is read writes back and
/// reads back the same.
#[test]
fn snapshot_codec() {
    let strategy = json_input(Arc::new(snapshots().clone()), SNAPSHOT_TOKENS);
    fuzz("snapshot_codec", strategy, |json| {
        if let Ok(game) = serde_json::from_str::<Game>(&json) {
            let again = serde_json::to_string(&game).expect("a state writes");
            let back: Result<Game, _> = serde_json::from_str(&again);
            prop_assert!(
                back.as_ref().ok() == Some(&game),
                "{} reads back as {:?}",
                again,
                back.err()
            );
        }
        Ok(())
    });
}

// ----- 5. Discord custom ids and option values ----------------------------------------------

fn custom_ids() -> &'static Vec<String> {
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        use jackal::discord::ids::LobbyButton;
        let game = GameId::new(123).unwrap();
        let mut ids: Vec<CustomId> = LobbyButton::ALL
            .into_iter()
            .map(|button| CustomId::Lobby { game, button })
            .collect();
        ids.extend([
            CustomId::BotLevel { game },
            CustomId::SettingPick { game },
            CustomId::SettingValue {
                game,
                setting: "stall_rounds".into(),
            },
            CustomId::MyMoves { game },
            CustomId::Pick {
                game,
                ply: 40,
                path: vec![],
            },
            CustomId::Pick {
                game,
                ply: 40,
                path: vec![3, 1],
            },
            CustomId::PickRoot { game, ply: 7 },
            CustomId::Play {
                game,
                ply: 12,
                action: "2 e5 cart coin".into(),
                confirmed: false,
            },
            CustomId::Play {
                game,
                ply: 12,
                action: "g1 drop".into(),
                confirmed: true,
            },
            CustomId::Resign { game },
        ]);
        ids.iter().map(CustomId::encode).collect()
    })
}

const DISCORD_TOKENS: &[&str] = &[
    "jk1",
    "jk0",
    "jk2",
    "lobby",
    "botlevel",
    "setting",
    "value",
    "moves",
    "pick",
    "root",
    "play",
    "sure",
    "resign",
    "join",
    "leave",
    "bot",
    "settings",
    "start",
    "cancel",
    ":",
    "::",
    ".",
    "..",
    "board_size",
    "tile_pack",
    "turn_time",
    "reminder",
    "timeout_level",
    "easy",
    "normal",
    "random",
    "en",
    "ru",
    "EN",
    "Ru",
    "overview",
    "arrow",
    "лёд",
    "лед",
    "#",
    "12h",
    "off",
    "2 e5 coin",
    "g1 drop",
    "255.255.255",
    "999",
    "-1",
];

/// Any custom id a component comes back with, and any value chosen in a menu or typed in an
/// option: parsed or refused, never a panic; an id read back encodes within Discord's 100
/// characters and reads back the same.
#[test]
fn discord_input() {
    use jackal::discord::views::settings;
    let values: Arc<Vec<String>> = Arc::new(DISCORD_TOKENS.iter().map(|t| t.to_string()).collect());
    let strategy = (
        text_input(Arc::new(custom_ids().clone()), DISCORD_TOKENS),
        text_input(values, DISCORD_TOKENS),
        proptest::collection::vec(any::<u8>(), 0..4),
        any::<usize>(),
        any::<bool>(),
    );
    fuzz(
        "discord_input",
        strategy,
        |(id, value, path, at, russian)| {
            let lang = if russian { Lang::Ru } else { Lang::En };
            let games = turn_views();
            if let Ok(parsed) = CustomId::parse(&id) {
                let encoded = parsed.encode();
                prop_assert!(
                    encoded.len() <= jackal::discord::ids::MAX_LEN,
                    "{}",
                    encoded
                );
                prop_assert_eq!(CustomId::parse(&encoded), Ok(parsed.clone()));
                // The picker walks the path of a `pick` id on the current position.
                if let CustomId::Pick { path, .. } = &parsed {
                    let _ = jackal::discord::picker::menu(&games[at % games.len()], lang, path);
                }
            }
            // Menu values and typed options.
            let _ = jackal::ai::BotLevel::parse(&value);
            let _ = Lang::parse(&value);
            let _ = jackal::guide::topic(lang, &value);
            let found = jackal::guide::search(lang, &value);
            prop_assert!(found.len() <= 25);
            let config = GameConfig::default();
            let _ = settings::name(lang, &value);
            let _ = settings::choices(&config, &value);
            for id in GameConfig::ids() {
                let _ = settings::value(lang, id, &value);
            }
            // The settings panel opens the menu of values only for a setting that exists.
            if let Some(setting) = settings::known_setting(&value) {
                let _ = settings::value_menu(GameId::new(1).unwrap(), &config, lang, setting);
            }
            // Any path (the walk stops where the tree does), on a sample: the tree is costly.
            if at % 16 == 0 {
                let _ = jackal::discord::picker::menu(&games[at % games.len()], lang, &path);
            }
            Ok(())
        },
    );
}

// ----- 6. settings ---------------------------------------------------------------------------

const SETTING_TOKENS: &[&str] = &[
    "5",
    "6",
    "7",
    "13",
    "15",
    "0",
    "2",
    "3",
    "4",
    "2x2",
    "1x3",
    "classic",
    "full",
    "chest5*20,empty*97",
    "chest5*117",
    "empty*1000",
    "empty*1001",
    "cave*40",
    "bengunn*2",
    "empty*65535,empty*65535,empty*65535,empty*65535",
    "arrow1*3",
    "cannon1*2",
    "lighthouse*1",
    "caramba*1,empty*116",
    "two",
    "one",
    "chosen",
    "king",
    "taxicab",
    "euclid",
    "on",
    "off",
    "ON",
    "1000",
    "1001",
    "1m",
    "59s",
    "60",
    "90m",
    "12h",
    "1d",
    "14d",
    "15d",
    "4294967295s",
    "49711d",
    "bot",
    "resign",
    "easy",
    "normal",
    "random",
    "board_size",
    "players",
    "tile_pack",
    "stall_rounds",
    "turn_time",
    "reminder",
    "timeout",
    "max_missed",
    "timeout_level",
    "plane_seats",
    "friendly_fire",
];

/// Configurations to change, as stored (JSON).
fn configs() -> &'static Vec<GameConfig> {
    static CONFIGS: OnceLock<Vec<GameConfig>> = OnceLock::new();
    CONFIGS.get_or_init(|| {
        let mut out = vec![GameConfig::default()];
        for changes in [
            &[("board_size", "5"), ("players", "3"), ("reminder", "off")][..],
            &[
                ("players", "2x2"),
                ("tile_pack", "chest5*20,empty*97"),
                ("reminder", "10m"),
                ("turn_time", "1h"),
            ],
            &[
                ("board_size", "9"),
                ("stall_rounds", "0"),
                ("timeout", "resign"),
                ("timeout_level", "normal"),
            ],
        ] {
            let mut c = GameConfig::default();
            for (id, value) in changes {
                c.set(id, value).unwrap();
            }
            out.push(c);
        }
        out
    })
}

/// Any setting and value, from the lobby's menus or typed: applied whole or refused with
/// nothing changed; and any stored settings JSON: read or refused, never a panic.
#[test]
fn settings() {
    let ids: Arc<Vec<String>> = Arc::new(GameConfig::ids().map(String::from).collect());
    let values: Arc<Vec<String>> = Arc::new(SETTING_TOKENS.iter().map(|t| t.to_string()).collect());
    let stored: Arc<Vec<Value>> = Arc::new(
        configs()
            .iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .collect(),
    );
    let strategy = (
        text_input(ids, SETTING_TOKENS),
        text_input(values, SETTING_TOKENS),
        json_input(stored, SETTING_TOKENS),
        any::<usize>(),
    );
    fuzz("settings", strategy, |(id, value, stored, at)| {
        let all = configs();
        let before = &all[at % all.len()];
        let mut config = before.clone();
        match config.set(&id, &value) {
            Err(_) => prop_assert!(
                config == *before,
                "a refused {}={:?} changed the settings",
                id,
                value
            ),
            Ok(()) => {
                prop_assert!(config.validate().is_ok());
                // What `get` shows is what `set` reads.
                let shown = config.get(&id);
                prop_assert!(shown.is_some(), "{} accepted but not shown", id);
                let mut again = config.clone();
                prop_assert!(again.set(&id, &shown.unwrap()).is_ok());
                prop_assert!(again == config);
            }
        }
        if let Ok(read) = serde_json::from_str::<GameConfig>(&stored) {
            let _ = read.validate();
            for id in GameConfig::ids() {
                let _ = read.get(id);
            }
            let _ = jackal::discord::views::settings::summary(&read, Lang::En);
        }
        Ok(())
    });
}

/// The corpus paths exist (a renamed folder would silently shrink the corpora).
#[test]
fn corpora_are_not_empty() {
    assert!(Path::new(&tests_dir("scenarios")).is_dir());
    assert!(scenario_texts().len() > 100, "{}", scenario_texts().len());
    assert!(positions().len() > 100);
    assert!(notations().len() > 200, "{}", notations().len());
    assert!(exports().len() >= 15);
    // Every running export of the corpus imports as it is, the one with a take-back too.
    let s = service();
    let with_take_back = exports()
        .iter()
        .filter(|e| e["seed"].is_u64())
        .map(|e| {
            let id = s
                .service
                .import(
                    Actor::user(UserId::new(7)),
                    Location::default(),
                    &e.to_string(),
                )
                .unwrap_or_else(|err| panic!("{err}: {e}"));
            s.service.history(id).unwrap()
        })
        .filter(|h| h.iter().any(|entry| entry.take_back == Some(4)))
        .count();
    assert!(with_take_back >= 1);
}
