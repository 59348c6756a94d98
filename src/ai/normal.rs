//! The `normal` level: easy's judgement, checked against the other players' replies on many
//! guesses of the fog.
//!
//! Easy judges an action by the position it leads to at once, so it walks a carrier next to an
//! enemy or leaves gold for the next player to take. Normal takes the few actions easy likes
//! best, and the best action of a couple of the pieces (units, ship, boats) those leave out
//! ([`candidates_of`]), and plays each of them out on determinisations, fog drawn afresh from
//! the unseen tiles ([`PublicView::sample`]) for every round:
//!
//! 1. the action, and any choice it raises for the mover answered greedily;
//! 2. then each other player in turn, until the turn comes back, replies with the action that
//!    player's own greedy judgement likes best (the playout policy: easy's judgement, far
//!    better than uniform), judged on a guess of that player's own;
//! 3. the mover's next turns, played the same way, and the replies to each ([`TURNS`]: four
//!    of the mover's turns in all);
//! 4. the position the mover then faces is judged ([`super::eval`]), its lead weighed against
//!    the gold still to play for ([`race_rewards`]), so that the search plays safe when ahead
//!    late in a game and takes chances when behind; as the stall guard nears, by the score
//!    more than by what the units are about to bring home, as the guard ends the game by
//!    score.
//!
//! Easy's favourite is played unless another action's gain over it, round by round, stands
//! clearly out of the noise ([`Rounds::chosen`]); then the one with the best gain is. An
//! action clearly behind another is dropped, so that the rounds left go to those still in
//! question ([`Rounds::prune`]). Rounds go on while another playout fits in the budget's time,
//! judging by the longest so far (or until its number of playouts, one playout being one
//! action on one guess); a playout still running at the deadline is given up, its round left
//! out ([`Search::deadline`]). Rounds stop early once no more rounds are likely to change the
//! choice: easy's favourite is the only one left, or the chosen action's lead over every other
//! is far beyond the noise of the guesses.

use std::time::{Duration, Instant};

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Cell, Game, PublicView, Team, UnitKind};

use super::Budget;
use super::easy::{self, Judge};
use super::eval::{Prior, STANDARD, lost, race_rewards};
use super::policy::Glance;
use super::thought::{CandidateReport, SearchReport, Thought};

/// Actions played out: those easy likes best.
const CANDIDATES: usize = 6;
/// Actions played out besides those: the best of each mover (a unit, the ship, a boat) that
/// easy's favourites leave out, best first, since those are often one unit's moves alone
/// (measured in `benches/bots.md`).
const OTHER_MOVERS: usize = 2;
/// Replies a player's greedy judgement weighs at most, those the quick policy likes best.
const REPLIES_JUDGED: usize = 12;
/// Replies played after each of the mover's turns at most (the others of a four-player game).
const MAX_REPLIES: usize = 3;
/// The mover's turns a playout covers: the action, then (after the replies) the mover's next
/// turns chosen greedily, each followed by the replies. Later turns show what an action
/// prepares, which the position right after the replies only estimates (measured in
/// `benches/bots.md`).
const TURNS: usize = 4;
/// A playout the mover loses is worth at most this much: nothing if the replies to the
/// action win the game, and a share of it for each further turn the mover lasted. Were every
/// loss worth the same, a side that loses within [`TURNS`] whatever it does (its last free
/// pirate hunted by a swimmer) would play easy's favourite, which may lose at once, rather
/// than put the loss off and leave the other side a turn to miss its chance.
const SURVIVAL: f32 = 0.01;
/// Time kept back from the budget for what follows the deadline: the playout under way
/// noticing it (between two judged actions, and one action whose choices are judged in full
/// can take several milliseconds), then the choice and its report. A fixed 3 ms was not
/// enough: normal at 1 s decided in up to 1009.8 ms by the wall clock on an idle machine
/// (997 ms of its thread's CPU). A fiftieth of the budget, within these bounds: 20 ms of
/// normal's second, 40 ms of hard's two, hardly a round less of either.
const WRAP_UP_SHARE: u32 = 50;
/// The least time kept back ([`WRAP_UP_SHARE`]), whatever the budget.
const WRAP_UP_LEAST: Duration = Duration::from_millis(3);
/// The most time kept back ([`WRAP_UP_SHARE`]), whatever the budget.
const WRAP_UP_MOST: Duration = Duration::from_millis(40);

/// The time kept back from `budget` ([`WRAP_UP_SHARE`]).
fn wrap_up(budget: Duration) -> Duration {
    (budget / WRAP_UP_SHARE).clamp(WRAP_UP_LEAST, WRAP_UP_MOST)
}
/// Choices in a row a player answers within one playout at most (forks, horses, ice).
const MAX_CHOICES: usize = 4;
/// Guesses a risky action ([`Search::risky_playout`]) is played on at most, looking for one
/// where it does not lose at once.
const REDRAWS: usize = 4;
/// Rounds before the search may drop a candidate or stop early: fewer make too rough an
/// estimate of the noise.
const MIN_ROUNDS: usize = 5;
/// The lead, in standard errors of the difference, beyond which the search stops early.
const DECISIVE: f32 = 3.0;
/// The gain over easy's favourite, in standard errors, that the search needs to play another
/// candidate instead ([`Rounds::chosen`]): about one chance in ten that the best of five
/// candidates no better than the favourite gets there by luck. A candidate this far behind
/// another is dropped.
const SWITCH: f32 = 2.0;

/// How a search is shaped: what the levels that search (`normal`, and `hard` in
/// [`super::hard`]) set apart. `normal`'s is [`NORMAL`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Plan {
    /// Easy's favourites played out.
    pub candidates: usize,
    /// The best action of this many movers easy's favourites leave out, played out besides.
    pub other_movers: usize,
    /// The mover's turns a playout covers.
    pub turns: usize,
    /// The mover's turns a playout covers in a game of more than two teams, where each turn
    /// of the mover's is followed by two or three replies: a playout is longer, so costs
    /// more, and each greedy reply adds noise to what it says.
    pub turns_among_many: usize,
    /// Replies a player's greedy judgement weighs at most, in a playout.
    pub replies_judged: usize,
    /// How the search picks its action from the rounds.
    pub choice: Choice,
    /// Candidates played from the first round on, easy's favourites first, and after how
    /// many whole rounds one more joins (`None`: all of them at once).
    pub widening: Option<(usize, usize)>,
    /// Actions of easy's judgement held in reserve beyond the candidates, best first: once
    /// the candidates played so far have settled ([`Rounds::settled_so_far`]) with budget
    /// left, the next joins, rather than the search stopping. Late rounds of a settled
    /// search are often the same playout over again (late in a game the fog hardly changes
    /// it), so a longer budget is better spent on actions easy ranked lower.
    pub reserve: usize,
}

impl Plan {
    /// The mover's turns a playout covers in `view`'s game: [`Plan::turns_among_many`] where
    /// more than two teams play (a two-against-two game too: three replies a turn).
    pub(super) fn turns_in(&self, view: &PublicView) -> usize {
        if view.settings().players.team_count() > 2 {
            self.turns_among_many
        } else {
            self.turns
        }
    }
}

/// How the search turns its rounds into a decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Choice {
    /// Easy's favourite, unless another candidate's gain over it stands [`SWITCH`] standard
    /// errors out of the noise ([`Rounds::chosen`]).
    Evidence,
    /// The candidate whose gain over easy's favourite is likeliest the best, each candidate's
    /// measured gain shrunk towards what easy's judgement says of it by how noisy the
    /// measure still is ([`Rounds::shrunk`]). `spread` is how far apart, in reward, the
    /// candidates' true gains are thought to lie: the smaller, the more rounds the search
    /// needs before it overrules easy.
    Shrunk { spread: f32 },
}

/// `normal`'s search.
pub(super) const NORMAL: Plan = Plan {
    candidates: CANDIDATES,
    other_movers: OTHER_MOVERS,
    turns: TURNS,
    turns_among_many: TURNS,
    replies_judged: REPLIES_JUDGED,
    choice: Choice::Evidence,
    widening: None,
    reserve: 0,
};

pub(super) fn think(view: &PublicView, rng: &mut SplitMix64, budget: Budget) -> Option<Thought> {
    search(view, rng, budget, &NORMAL)
}

/// The search shaped by `plan`, within `budget`.
pub(super) fn search(
    view: &PublicView,
    rng: &mut SplitMix64,
    budget: Budget,
    plan: &Plan,
) -> Option<Thought> {
    // The clock runs from the call, as the player waiting for the move sees it: listing and
    // judging the actions count against the budget too.
    let deadline = Instant::now() + budget.time.saturating_sub(wrap_up(budget.time));
    let actions = super::candidates(view);
    if actions.len() <= 1 {
        return actions.first().map(|a| Thought::plain(*a));
    }
    let mut judged = easy::judge(view, actions, rng, &STANDARD);
    // A stable sort keeps the view's order among equals, so a decision is reproducible.
    judged.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut ranked = candidates_of(&judged, plan);
    // The candidates planned; those of the reserve come after them.
    let planned = ranked.len();
    ranked.extend(reserve_of(&judged, &ranked, plan));
    if ranked.len() == 1 {
        return Some(Thought {
            action: ranked[0].0,
            judged,
            search: None,
        });
    }
    let search = Search {
        me: view.controller(),
        prior: Prior::weighed(view, &STANDARD),
        deadline,
        turns: plan.turns_in(view),
        replies_judged: plan.replies_judged,
    };
    let risks = strand_risks(view, &ranked, rng);
    let mut rounds = Rounds::new(ranked.len());
    rounds.choice = plan.choice;
    // The reserve joins only as the candidates before it settle.
    rounds.entered = planned;
    if let Some((first, _)) = plan.widening {
        rounds.entered = first.clamp(2, planned.max(2));
    }
    rounds.prior = ranked
        .iter()
        .map(|(_, score)| *score - ranked[0].1)
        .collect();
    let mut playouts = 0u32;
    // The longest playout so far: one that may not end within the budget is not begun, so
    // that a move keeps to its time rather than running one playout over it.
    let mut slowest = Duration::ZERO;
    'rounds: loop {
        let guess = view.sample(rng);
        // Every action of a round meets the same guesses and the same draws of the players'
        // own guesses (as far as their playouts agree), so that the difference between two
        // actions' rounds is their own, not chance's.
        let draws = rng.next_u64();
        let mut round = vec![f32::NAN; ranked.len()];
        for (i, (action, _)) in ranked.iter().enumerate() {
            if !rounds.played(i) {
                continue;
            }
            let mut draw = SplitMix64::new(draws);
            let began = Instant::now();
            let reward = if risks[i] > 0.0 {
                search.risky_playout(view, &guess, action, risks[i], &mut draw)
            } else {
                search.playout(&guess, action, &mut draw)
            };
            let Some(reward) = reward else {
                // Cut off at the deadline: the round is incomplete, and is left out.
                break 'rounds;
            };
            round[i] = reward;
            slowest = slowest.max(began.elapsed());
            playouts += 1;
            let out_of_playouts = budget.playouts.is_some_and(|n| playouts >= n);
            let out_of_time = Instant::now() + slowest > deadline;
            if out_of_playouts || out_of_time {
                // A round cut short is left out: its actions did not all meet its guess.
                if (i + 1..ranked.len()).all(|k| !rounds.played(k)) {
                    rounds.add(round);
                }
                break 'rounds;
            }
        }
        rounds.add(round);
        if let Some((first, every)) = plan.widening {
            let due = (first + rounds.len() / every.max(1)).clamp(2, planned.max(2));
            rounds.entered = rounds.entered.max(due);
        }
        if rounds.len() >= MIN_ROUNDS {
            rounds.prune();
            if rounds.settled() {
                break;
            }
            if rounds.entered >= planned && rounds.settled_so_far() {
                // Settled among those played, with the reserve still to join.
                rounds.entered += 1;
            }
        }
    }
    let chosen = rounds.chosen();
    Some(Thought {
        action: ranked[chosen].0,
        search: Some(rounds.report(&ranked, chosen, playouts)),
        judged,
    })
}

/// The actions to play out, from easy's judgement best first: its [`CANDIDATES`] favourites,
/// then the best action of up to [`OTHER_MOVERS`] movers those leave out.
fn candidates_of(judged: &[(Action, f32)], plan: &Plan) -> Vec<(Action, f32)> {
    let mut ranked: Vec<(Action, f32)> = judged.iter().take(plan.candidates).copied().collect();
    let mut movers: Vec<Mover> = ranked.iter().map(|(a, _)| Mover::of(a)).collect();
    for (action, score) in judged.iter().skip(plan.candidates) {
        if ranked.len() >= plan.candidates + plan.other_movers {
            break;
        }
        let mover = Mover::of(action);
        // A fatal action easy rates at the floor is no alternative worth a playout.
        if *score > f32::MIN && !movers.contains(&mover) {
            movers.push(mover);
            ranked.push((*action, *score));
        }
    }
    ranked
}

/// The actions of easy's judgement held in reserve ([`Plan::reserve`]): the best of those
/// `ranked` left out, never a fatal one easy rated at the floor.
fn reserve_of(
    judged: &[(Action, f32)],
    ranked: &[(Action, f32)],
    plan: &Plan,
) -> Vec<(Action, f32)> {
    judged
        .iter()
        .filter(|(action, score)| *score > f32::MIN && !ranked.iter().any(|(a, _)| a == action))
        .take(plan.reserve)
        .copied()
        .collect()
}

/// What an action moves: which of the mover's pieces acts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mover {
    Unit(UnitKind),
    Ship,
    Boat(Cell),
    /// Resurrection, rum, the answer to a choice: no piece of its own to tell apart.
    Other,
}

impl Mover {
    fn of(action: &Action) -> Mover {
        match *action {
            Action::Move { unit, .. } => Mover::Unit(unit),
            Action::Ship { .. } => Mover::Ship,
            Action::Boat { from, .. } => Mover::Boat(from),
            _ => Mover::Other,
        }
    }
}

/// For a side down to its last free unit in a duel, each candidate's chance of losing the
/// game at once on what the fog tile it opens turns out to be (R-END-4); nothing otherwise.
fn strand_risks(view: &PublicView, ranked: &[(Action, f32)], rng: &mut SplitMix64) -> Vec<f32> {
    let sample = view.sample(rng);
    if !easy::fragile(&sample, view.controller()) {
        return vec![0.0; ranked.len()];
    }
    ranked
        .iter()
        .map(|(action, _)| easy::strand_risk(view, &sample, action, rng))
        .collect()
}

/// The rewards of the candidates in every whole round so far, and which are still played.
///
/// The rounds share their guesses, so the difference between two candidates is measured
/// round by round, far more closely than either's mean: a candidate is judged by its paired
/// gain over another ([`Rounds::gain`]).
struct Rounds {
    /// One reward a candidate in each round (not a number where it was dropped already).
    rewards: Vec<Vec<f32>>,
    /// The candidates still played: easy's favourite (candidate 0) always is.
    alive: Vec<bool>,
    /// How the rounds make a decision.
    choice: Choice,
    /// Each candidate's gain over easy's favourite as easy judged it, for [`Choice::Shrunk`].
    prior: Vec<f32>,
    /// The candidates played so far are the first this many ([`Plan::widening`]): the others
    /// join as the rounds add up.
    entered: usize,
}

impl Rounds {
    fn new(candidates: usize) -> Rounds {
        Rounds {
            rewards: Vec::new(),
            alive: vec![true; candidates],
            choice: Choice::Evidence,
            prior: vec![0.0; candidates],
            entered: candidates,
        }
    }

    /// Is candidate `i` played in the next round: joined, and not dropped?
    fn played(&self, i: usize) -> bool {
        i < self.entered && self.alive[i]
    }

    fn add(&mut self, round: Vec<f32>) {
        self.rewards.push(round);
    }

    fn len(&self) -> usize {
        self.rewards.len()
    }

    /// Candidate `i`'s gain over candidate `j`, over the rounds both were played in.
    fn gain(&self, i: usize, j: usize) -> Mean {
        let mut gain = Mean::default();
        for round in &self.rewards {
            let (a, b) = (round[i], round[j]);
            if !a.is_nan() && !b.is_nan() {
                gain.add(a - b);
            }
        }
        gain
    }

    /// The candidate to play: the one with the best mean gain over easy's favourite, if that
    /// gain stands out from the noise of the guesses by [`SWITCH`] standard errors; easy's
    /// favourite otherwise. Picking the best mean outright would, after a few rounds, pick
    /// whichever candidate was luckiest, which is often worse than easy's own choice; this
    /// way a short budget makes normal at worst easy, and a long one lets the search overrule
    /// easy wherever it has seen enough.
    fn chosen(&self) -> usize {
        if let Choice::Shrunk { spread } = self.choice {
            return self.shrunk(spread);
        }
        let best = (1..self.alive.len())
            .filter(|i| self.alive[*i])
            .map(|i| (i, self.gain(i, 0)))
            .filter(|(_, g)| g.count > 0)
            .max_by(|a, b| a.1.mean().total_cmp(&b.1.mean()));
        match best {
            Some((i, g)) if clearly_ahead(&g, SWITCH) => i,
            _ => 0,
        }
    }

    /// [`Choice::Shrunk`]: the candidate whose gain over easy's favourite is likeliest the
    /// best, the favourite's own being nothing. Each gain measured over `n` rounds is
    /// weighed against what easy's judgement said of it, as if that were worth `k` rounds,
    /// `k` being the noise of one round's gain (the candidates' pooled variance) over the
    /// `spread` of the true gains squared: so a few noisy rounds hardly move easy's order,
    /// and as they add up the search trusts them more. Unlike [`Choice::Evidence`] it does
    /// not need one candidate to stand clear of the noise on its own: a long budget plays
    /// the best measured candidate even when its lead is small.
    fn shrunk(&self, spread: f32) -> usize {
        let gains: Vec<(usize, Mean)> = (1..self.alive.len())
            .filter(|&i| self.alive[i])
            .map(|i| (i, self.gain(i, 0)))
            .filter(|(_, g)| g.count >= 2)
            .collect();
        if gains.is_empty() {
            return 0;
        }
        let noise = gains.iter().map(|(_, g)| g.variance()).sum::<f32>() / gains.len() as f32;
        let k = noise / (spread * spread);
        let mut best = (0, 0.0f32);
        for (i, g) in gains {
            let n = g.count as f32;
            let estimate = (n * g.mean() + k * self.prior[i]) / (n + k);
            if estimate > best.1 {
                best = (i, estimate);
            }
        }
        best.0
    }

    /// Drops each candidate (but easy's favourite) that another still played leads by
    /// [`SWITCH`] standard errors: it is all but sure not to be the best, and the rounds left
    /// are better spent telling the others apart.
    fn prune(&mut self) {
        let n = self.alive.len();
        let behind: Vec<usize> = (1..n)
            .filter(|&i| self.alive[i])
            .filter(|&i| {
                (0..n).filter(|&j| j != i && self.alive[j]).any(|j| {
                    // A candidate that joined late ([`Plan::widening`]) is not judged on
                    // fewer rounds than any is at first: two or three make too rough an
                    // estimate of the noise.
                    let gain = self.gain(j, i);
                    gain.count as usize >= MIN_ROUNDS.min(self.len())
                        && clearly_ahead(&gain, SWITCH)
                })
            })
            .collect();
        for i in behind {
            self.alive[i] = false;
        }
    }

    /// What the rounds say of each candidate of `ranked`, for [`Thought`].
    fn report(&self, ranked: &[(Action, f32)], chosen: usize, playouts: u32) -> SearchReport {
        let candidates = ranked
            .iter()
            .enumerate()
            .map(|(i, (action, _))| {
                let mut own = Mean::default();
                for round in &self.rewards {
                    if !round[i].is_nan() {
                        own.add(round[i]);
                    }
                }
                let gain = self.gain(i, 0);
                CandidateReport {
                    action: *action,
                    rounds: own.count,
                    mean: own.mean(),
                    gain: (i > 0 && gain.count >= 2).then(|| (gain.mean(), gain.spread().sqrt())),
                    dropped: !self.alive[i],
                    chosen: i == chosen,
                }
            })
            .collect();
        SearchReport {
            rounds: self.len(),
            playouts,
            candidates,
        }
    }

    /// Can more rounds no longer change the choice? Easy's favourite is the only candidate
    /// left, or the chosen one leads every other left by [`DECISIVE`] standard errors.
    fn settled(&self) -> bool {
        // Candidates still to join might change the choice.
        self.entered >= self.alive.len() && self.settled_so_far()
    }

    /// [`Rounds::settled`] among the candidates that have joined so far.
    fn settled_so_far(&self) -> bool {
        let c = self.chosen();
        (0..self.entered.min(self.alive.len()))
            .filter(|&k| k != c && self.alive[k])
            .all(|k| clearly_ahead(&self.gain(c, k), DECISIVE))
    }
}

/// Is a paired gain above zero by more than `sigmas` standard errors? A gain with no noise
/// at all (the same difference in every round) is judged by its sign.
fn clearly_ahead(gain: &Mean, sigmas: f32) -> bool {
    gain.count >= 2 && gain.mean() > sigmas * gain.spread().sqrt()
}

struct Search {
    me: Team,
    prior: Prior,
    /// When the move's time is up. Not beginning a playout that the slowest so far says would
    /// not fit is not enough: one reply can weigh far more than the ones before it (a flight
    /// from ice lands anywhere, each landing raising a choice), and a loaded machine slows
    /// any of them; so a playout checks the clock as it goes, and gives up once it is late.
    deadline: Instant,
    /// The mover's turns a playout covers ([`Plan::turns`]).
    turns: usize,
    /// Replies a greedy judgement weighs at most ([`Plan::replies_judged`]).
    replies_judged: usize,
}

impl Search {
    fn late(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// The mover's reward once `action` is played on `guess` and the others have replied;
    /// nothing if the deadline passed before the playout ended.
    fn playout(&self, guess: &Game, action: &Action, rng: &mut SplitMix64) -> Option<f32> {
        let (reward, _) = self.play_out(guess, action, rng);
        (!self.late()).then_some(reward)
    }

    /// [`Search::playout`] of an action that loses the game at once on `risk` of the guesses
    /// (a last free unit stepping into the fog, which may be a trap): played on a guess
    /// where it does not, and weighed by the chance of that. A few dozen rounds would most
    /// often meet no such guess, or meet it far too often, and a one-in-fifteen chance of
    /// losing the whole game is the one thing such a step must not get wrong.
    fn risky_playout(
        &self,
        view: &PublicView,
        guess: &Game,
        action: &Action,
        risk: f32,
        rng: &mut SplitMix64,
    ) -> Option<f32> {
        let mut guess = guess.clone();
        for _ in 0..REDRAWS {
            let (reward, lost_at_once) = self.play_out(&guess, action, rng);
            if self.late() {
                return None;
            }
            if !lost_at_once {
                return Some((1.0 - risk) * reward);
            }
            guess = view.sample(rng);
        }
        Some(0.0)
    }

    /// The mover's reward, and whether the action itself lost the game for it.
    fn play_out(&self, guess: &Game, action: &Action, rng: &mut SplitMix64) -> (f32, bool) {
        let mut game = guess.clone();
        if game.play(action).is_err() {
            return (0.0, false);
        }
        self.answer_choices(&mut game, self.me, rng);
        if lost(&game, self.me) {
            return (0.0, true);
        }
        for turn in 0..self.turns {
            if self.late() {
                break;
            }
            if turn > 0 {
                if game.is_over() || game.controller() != self.me {
                    break;
                }
                let Some(mine) = self.decide(&game, self.me, rng) else {
                    break;
                };
                if game.play(&mine).is_err() {
                    break;
                }
                self.answer_choices(&mut game, self.me, rng);
            }
            for _ in 0..MAX_REPLIES {
                if game.is_over() || game.controller() == self.me || self.late() {
                    break;
                }
                let mover = game.controller();
                let Some(reply) = self.decide(&game, mover, rng) else {
                    break;
                };
                if game.play(&reply).is_err() {
                    break;
                }
                self.answer_choices(&mut game, mover, rng);
            }
            if lost(&game, self.me) {
                return (SURVIVAL * turn as f32 / self.turns as f32, false);
            }
        }
        (race_rewards(&game, &self.prior)[self.me.index()], false)
    }

    /// Plays the greedy answer to each choice left to `team`.
    fn answer_choices(&self, game: &mut Game, team: Team, rng: &mut SplitMix64) {
        for _ in 0..MAX_CHOICES {
            if game.is_over()
                || game.pending().is_none()
                || game.controller() != team
                || self.late()
            {
                return;
            }
            let Some(option) = self.decide(game, team, rng) else {
                return;
            };
            if game.play(&option).is_err() {
                return;
            }
        }
    }

    /// What `team` plays in `game`: its greedy choice on a guess of its own. Judging actions
    /// on the playout's guess itself would let the player see what its actions would open
    /// (an opponent that always finds the gold), so it chooses on fog drawn afresh from what
    /// it can see; the action then plays out on the playout's guess.
    fn decide(&self, game: &Game, team: Team, rng: &mut SplitMix64) -> Option<Action> {
        let belief = game.public_view().sample(rng);
        self.greedy(&belief, team, rng)
    }

    /// The action `team` likes best in `game` by the position it leads to.
    fn greedy(&self, game: &Game, team: Team, rng: &mut SplitMix64) -> Option<Action> {
        let mut actions = game.legal_actions_unflagged();
        if actions.len() > self.replies_judged {
            actions = Glance::of(game).shortlist(game, &actions, self.replies_judged);
        }
        // Never cut down: a reply weighs a dozen actions on one guess, and its choices in
        // full, as before the cap on easy's own decisions.
        let judge = Judge::new(team, self.prior, u32::MAX);
        let guess = std::slice::from_ref(game);
        // Once late, the actions left are not judged: the playout is given up anyway.
        let scores: Vec<f32> = actions
            .iter()
            .map(|a| {
                if self.late() {
                    f32::MIN
                } else {
                    judge.action(guess, a)
                }
            })
            .collect();
        let at = super::policy::best(actions.len(), rng, |i| scores[i]);
        actions.get(at).copied()
    }
}

/// A running mean and variance (Welford).
#[derive(Clone, Copy, Debug, Default)]
struct Mean {
    count: u32,
    mean: f32,
    m2: f32,
}

impl Mean {
    fn add(&mut self, x: f32) {
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f32;
        self.m2 += delta * (x - self.mean);
    }

    fn mean(&self) -> f32 {
        self.mean
    }

    /// The variance of the values (infinite before two of them).
    fn variance(&self) -> f32 {
        if self.count < 2 {
            return f32::INFINITY;
        }
        self.m2 / (self.count - 1) as f32
    }

    /// The variance of the mean (infinite before two values).
    fn spread(&self) -> f32 {
        if self.count < 2 {
            return f32::INFINITY;
        }
        self.m2 / (self.count - 1) as f32 / self.count as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cell, Items, Settings, TileKind, UnitKind};

    /// A playout that finds the move's time up gives no reward rather than finishing late:
    /// a move keeps to its budget however long one playout would take.
    #[test]
    fn a_playout_past_the_deadline_is_given_up() {
        let game = Game::new(Settings::default(), 3).unwrap();
        let view = game.public_view();
        let action = super::super::candidates(&view)[0];
        let mut rng = SplitMix64::new(1);
        let guess = view.sample(&mut rng);
        let search = |deadline| Search {
            me: view.controller(),
            prior: Prior::of(&view),
            deadline,
            turns: TURNS,
            replies_judged: REPLIES_JUDGED,
        };
        let far = Instant::now() + Duration::from_secs(3600);
        let reward = search(far).playout(&guess, &action, &mut SplitMix64::new(2));
        assert!(reward.is_some_and(|r| (0.0..=1.0).contains(&r)));
        let passed = Instant::now();
        assert_eq!(
            search(passed).playout(&guess, &action, &mut SplitMix64::new(2)),
            None
        );
    }

    /// Team 1's last pirate stands on d5, fog all around but for e5 and f5; team 2 has two.
    /// A step into the fog may find a trap or the cannibal and lose the duel at once
    /// (R-END-4): the search weighs that by its chance over the unseen tiles, and plays the
    /// step out on a guess where it does not lose, so that a few rounds neither miss the trap
    /// nor meet it far too often. A step onto open ground risks nothing of the kind.
    #[test]
    fn a_last_free_unit_weighs_the_trap_in_the_fog_by_its_chance() {
        let text = "set tile_pack = classic\nseed 11\ntile d5 empty\ntile e5 empty\n\
                    tile f5 empty\ntile j11 empty\ntile k11 empty\nunit 1.1 d5\n\
                    unit 2.1 j11\nunit 2.2 k11\nturn 1\n";
        let game = crate::scenario::position_after_plays(text).unwrap().0;
        let view = game.public_view();
        let step = |to: &str| Action::Move {
            unit: UnitKind::Pirate(1),
            to: Cell::parse(to).unwrap(),
            cargo: Items::NONE,
        };
        let (safe, risky) = (step("e5"), step("d4"));
        let mut rng = SplitMix64::new(5);
        let risks = strand_risks(&view, &[(safe, 0.0), (risky, 0.0)], &mut rng);
        // Three traps and a cannibal among the classic pack's unseen tiles, and a little more
        // where an arrow or the ice throws the pirate on into fog that holds one.
        let unseen = view.unseen_count() as f32;
        assert_eq!(risks[0], 0.0);
        assert!(
            risks[1] >= 4.0 / unseen - 1e-6 && risks[1] < 0.2,
            "{risks:?} of {unseen}"
        );
        let search = Search {
            me: view.controller(),
            prior: Prior::of(&view),
            deadline: Instant::now() + Duration::from_secs(3600),
            turns: TURNS,
            replies_judged: REPLIES_JUDGED,
        };
        let trapped = view
            .sample_given(&mut rng, Cell::parse("d4").unwrap(), TileKind::Trap)
            .unwrap();
        assert_eq!(search.play_out(&trapped, &risky, &mut rng), (0.0, true));
        let reward = search
            .risky_playout(&view, &trapped, &risky, risks[1], &mut rng)
            .unwrap();
        assert!(reward > 0.0 && reward <= 1.0 - risks[1], "{reward}");
    }

    fn rounds(rows: &[[f32; 3]]) -> Rounds {
        let mut out = Rounds::new(3);
        for row in rows {
            out.add(row.to_vec());
        }
        out
    }

    /// Another candidate is played only once its gain over easy's favourite stands out of
    /// the noise: not after one lucky round, not when its gains swing either way, but when
    /// they are steady.
    #[test]
    fn the_search_overrules_easy_only_on_evidence() {
        assert_eq!(rounds(&[]).chosen(), 0);
        assert_eq!(rounds(&[[0.5, 0.9, 0.4]]).chosen(), 0);
        let swinging = [
            [0.5, 0.9, 0.4],
            [0.5, 0.2, 0.4],
            [0.5, 0.8, 0.5],
            [0.5, 0.3, 0.5],
        ];
        assert_eq!(rounds(&swinging).chosen(), 0);
        let steady = [
            [0.5, 0.6, 0.4],
            [0.4, 0.52, 0.4],
            [0.6, 0.69, 0.5],
            [0.5, 0.61, 0.5],
        ];
        assert_eq!(rounds(&steady).chosen(), 1);
        let worse = [[0.5, 0.4, 0.3], [0.5, 0.4, 0.3], [0.5, 0.4, 0.3]];
        assert_eq!(rounds(&worse).chosen(), 0);
    }

    /// [`Choice::Shrunk`] reads a few noisy rounds as easy's order, and many as what they
    /// measure: a candidate steadily a little ahead of easy's favourite is played once the
    /// rounds add up, though its lead never stands two standard errors clear, which
    /// [`Choice::Evidence`] waits for; one clearly behind easy's judgement needs more rounds
    /// to be played than one easy rated as high.
    #[test]
    fn shrunk_gains_trust_the_rounds_as_they_add_up() {
        let shrunk = |rows: &[[f32; 3]], prior: [f32; 3]| {
            let mut r = rounds(rows);
            r.choice = Choice::Shrunk { spread: 0.05 };
            r.prior = prior.to_vec();
            r
        };
        // Candidate 1 gains 0.02 a round, give or take 0.25: noise far beyond the gain.
        let row = |k: usize| {
            let swing = if k.is_multiple_of(2) { 0.25 } else { -0.25 };
            [0.5, 0.52 + swing, 0.45 + swing]
        };
        let few: Vec<[f32; 3]> = (0..4).map(row).collect();
        let many: Vec<[f32; 3]> = (0..400).map(row).collect();
        let even = [0.0, 0.0, 0.0];
        assert_eq!(shrunk(&few, [0.0, -0.01, 0.0]).chosen(), 0);
        assert_eq!(shrunk(&many, [0.0, -0.01, 0.0]).chosen(), 1);
        assert_eq!(
            rounds(&many).chosen(),
            0,
            "evidence waits for two standard errors"
        );
        // With no prior against it a steady gain is taken at once; a prior that easy rated
        // it far lower holds it back until the rounds outweigh it.
        assert_eq!(shrunk(&few, even).chosen(), 1);
        assert_eq!(shrunk(&few, [0.0, -0.2, 0.0]).chosen(), 0);
        // Candidate 2 loses 0.05 a round: never played.
        assert!(shrunk(&many, even).chosen() != 2);
    }

    /// With [`Plan::widening`], the candidates still to join are not played, the search is
    /// not settled before they have, and one that joined late is not dropped on its first
    /// few rounds, however far behind they put it.
    #[test]
    fn late_candidates_join_before_the_search_settles() {
        let mut r = rounds(&[
            [0.6, 0.5, f32::NAN],
            [0.7, 0.61, f32::NAN],
            [0.5, 0.39, f32::NAN],
            [0.6, 0.5, 0.3],
            [0.7, 0.61, 0.4],
        ]);
        r.entered = 2;
        assert!(r.played(1) && !r.played(2));
        r.prune();
        assert_eq!(r.alive, [true, false, true]);
        assert!(!r.settled(), "candidate 2 has yet to join");
        r.entered = 3;
        assert!(!r.played(1) && r.played(2));
        r.prune();
        assert!(r.alive[2], "two rounds are too few to drop it");
        for _ in 0..3 {
            r.add(vec![0.6, f32::NAN, 0.3]);
        }
        r.prune();
        assert_eq!(r.alive, [true, false, false]);
        assert!(r.settled());
    }

    /// The time kept back grows with the budget, within its bounds.
    #[test]
    fn the_time_kept_back_grows_with_the_budget() {
        let ms = Duration::from_millis;
        assert_eq!(wrap_up(ms(50)), ms(3));
        assert_eq!(wrap_up(ms(1000)), ms(20));
        assert_eq!(wrap_up(ms(2000)), ms(40));
        assert_eq!(wrap_up(ms(60_000)), ms(40));
    }

    /// A candidate steadily behind another is dropped, and its rewards no longer count;
    /// easy's favourite never is. Once the favourite is the only one left, or the chosen
    /// candidate is far ahead of every other, the search has settled.
    #[test]
    fn candidates_clearly_behind_are_dropped() {
        // Candidate 2 trails candidate 1 (not the favourite) steadily; 1 and 0 swing.
        let mut r = rounds(&[
            [0.5, 0.7, 0.55],
            [0.5, 0.3, 0.15],
            [0.5, 0.8, 0.65],
            [0.5, 0.2, 0.05],
        ]);
        r.prune();
        assert_eq!(r.alive, [true, true, false]);
        assert!(!r.settled());
        // A dropped candidate's rounds are no longer played: its reward is not a number.
        r.add(vec![0.5, 0.4, f32::NAN]);
        assert_eq!(r.gain(1, 2).count, 4);
        assert_eq!(r.gain(1, 0).count, 5);
        // The favourite steadily ahead of the rest: they go, and nothing is left to decide.
        let mut r = rounds(&[[0.6, 0.5, 0.4], [0.7, 0.61, 0.5], [0.5, 0.39, 0.3]]);
        r.prune();
        assert_eq!(r.alive, [true, false, false]);
        assert!(r.settled());
        assert_eq!(r.chosen(), 0);
        // Far ahead of the favourite and of candidate 2: chosen, and settled.
        let r = rounds(&[[0.4, 0.8, 0.3], [0.5, 0.91, 0.4], [0.3, 0.69, 0.2]]);
        assert_eq!(r.chosen(), 1);
        assert!(r.settled());
    }

    /// Easy's favourites all moved one pirate: the search plays those out, and besides them
    /// the best action of each of two other movers, never a fatal one (easy's floor) nor a
    /// third mover beyond [`OTHER_MOVERS`].
    #[test]
    fn candidates_take_in_the_best_of_the_movers_easy_left_out() {
        let step = |unit, to: &str| Action::Move {
            unit,
            to: Cell::parse(to).unwrap(),
            cargo: Items::NONE,
        };
        let first = UnitKind::Pirate(1);
        let mut judged: Vec<(Action, f32)> = ["c3", "c4", "c5", "d3", "d5", "e3", "e4"]
            .iter()
            .enumerate()
            .map(|(i, to)| (step(first, to), 10.0 - i as f32))
            .collect();
        judged.push((step(UnitKind::Pirate(2), "h8"), f32::MIN));
        judged.push((step(UnitKind::Pirate(3), "h9"), 1.0));
        judged.push((step(UnitKind::Pirate(3), "h10"), 0.5));
        judged.push((
            Action::Ship {
                to: Cell::parse("a7").unwrap(),
            },
            0.2,
        ));
        judged.push((step(UnitKind::Pirate(2), "h7"), 0.1));
        let ranked = candidates_of(&judged, &NORMAL);
        let moved: Vec<Action> = ranked.iter().map(|(a, _)| *a).collect();
        let mut expected: Vec<Action> = judged[..CANDIDATES].iter().map(|(a, _)| *a).collect();
        expected.push(step(UnitKind::Pirate(3), "h9"));
        expected.push(Action::Ship {
            to: Cell::parse("a7").unwrap(),
        });
        assert_eq!(moved, expected);
        // Fewer actions than candidates: all of them, nothing added.
        assert_eq!(candidates_of(&judged[..3], &NORMAL).len(), 3);
    }

    /// A plan's reserve ([`Plan::reserve`]) is the best of easy's actions its candidates
    /// left out, best first, never one of the candidates again nor a fatal one (easy's
    /// floor), and no more than the plan holds; normal holds none.
    #[test]
    fn the_reserve_is_the_best_of_what_the_candidates_left_out() {
        let step = |n, to: &str| Action::Move {
            unit: UnitKind::Pirate(n),
            to: Cell::parse(to).unwrap(),
            cargo: Items::NONE,
        };
        let judged: Vec<(Action, f32)> = ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5", "f3"]
            .iter()
            .enumerate()
            .map(|(i, to)| (step(1, to), if i == 7 { f32::MIN } else { 9.0 - i as f32 }))
            .collect();
        let plan = Plan {
            candidates: 3,
            other_movers: 0,
            reserve: 4,
            ..NORMAL
        };
        let ranked = candidates_of(&judged, &plan);
        assert_eq!(ranked, judged[..3].to_vec());
        let reserve = reserve_of(&judged, &ranked, &plan);
        assert_eq!(reserve, judged[3..7].to_vec());
        let all = Plan {
            reserve: 20,
            ..plan
        };
        let reserve = reserve_of(&judged, &ranked, &all);
        assert_eq!(
            reserve.len(),
            5,
            "all but the three candidates and the fatal one"
        );
        assert!(reserve.iter().all(|(_, score)| *score > f32::MIN));
        assert!(reserve_of(&judged, &ranked, &NORMAL).is_empty());
    }

    /// With candidates still in reserve, a search settled among those played is not done
    /// ([`Rounds::settled`]) though it is so far ([`Rounds::settled_so_far`]): the next one
    /// joins instead.
    #[test]
    fn a_settled_search_with_a_reserve_is_not_done() {
        let mut r = rounds(&[
            [0.6, 0.5, f32::NAN],
            [0.7, 0.61, f32::NAN],
            [0.5, 0.39, f32::NAN],
            [0.6, 0.5, f32::NAN],
            [0.7, 0.6, f32::NAN],
        ]);
        r.entered = 2;
        r.prune();
        assert!(r.settled_so_far() && !r.settled());
        r.entered = 3;
        assert!(!r.settled_so_far(), "candidate 2 has no rounds yet");
    }
}
