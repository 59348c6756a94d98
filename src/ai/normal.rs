//! The `normal` level: Monte Carlo tree search over determinisations (single-observer
//! information-set MCTS).
//!
//! Every iteration draws the fog afresh from the unseen tiles ([`PublicView::sample`]), walks
//! down one shared tree of actions — each player, the opponents too, choosing by UCB among the
//! actions legal in this draw — adds one node, plays a short playout with the quick policy
//! ([`super::policy`]) and scores the end by [`super::eval`]. The most visited first action is
//! played. The search stops when the budget's time is up, after its playouts if it names a
//! number, or as soon as the choice can no longer change.

use std::time::Instant;

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Game, PublicView, Team};

use super::Budget;
use super::eval::{Prior, rewards};
use super::policy::{self, Glance, best};

/// Exploration constant of UCB (rewards lie in 0…1).
const EXPLORATION: f32 = 0.5;
/// Plies played by the quick policy after the tree, before the position is judged.
const PLAYOUT_PLIES: usize = 4;
/// The tree goes no deeper than this many plies.
const MAX_DEPTH: usize = 12;
/// The clock and the "can the choice still change" test are looked at every this many
/// iterations.
const CHECK_EVERY: u32 = 16;

struct Node {
    /// The action leading here (the root's is unused).
    action: Action,
    /// The team whose player chose that action: the node's rewards are theirs.
    mover: Team,
    visits: u32,
    reward: f32,
    /// How often this node's action was legal when its parent was visited (ISMCTS).
    available: u32,
    children: Vec<u32>,
}

impl Node {
    fn new(action: Action, mover: Team) -> Node {
        Node {
            action,
            mover,
            visits: 0,
            reward: 0.0,
            available: 0,
            children: Vec::new(),
        }
    }

    fn ucb(&self) -> f32 {
        if self.visits == 0 {
            return f32::MAX;
        }
        let mean = self.reward / self.visits as f32;
        let parent = (self.available.max(1) as f32).ln();
        mean + EXPLORATION * (parent / self.visits as f32).sqrt()
    }
}

pub(super) fn choose(view: &PublicView, rng: &mut SplitMix64, budget: Budget) -> Option<Action> {
    let roots = super::candidates(view);
    if roots.len() <= 1 {
        return roots.first().copied();
    }
    let started = Instant::now();
    let mut search = Search {
        nodes: vec![Node::new(roots[0], view.controller())],
        prior: Prior::of(view),
        roots,
    };
    let mut done = 0u32;
    loop {
        let game = view.sample(rng);
        search.iterate(game, rng);
        done += 1;
        if budget.playouts.is_some_and(|n| done >= n) {
            break;
        }
        if done.is_multiple_of(CHECK_EVERY) {
            let spent = started.elapsed();
            if spent >= budget.time {
                break;
            }
            // Iterations still to come at the pace so far (or the playouts left).
            let pace = done as f64 / spent.as_secs_f64().max(1e-6);
            let by_time = ((budget.time - spent).as_secs_f64() * pace) as u32;
            let left = budget.playouts.map_or(by_time, |n| (n - done).min(by_time));
            if search.settled(left) {
                break;
            }
        }
    }
    Some(search.most_visited())
}

struct Search {
    nodes: Vec<Node>,
    prior: Prior,
    /// The actions considered at the root (fatal ones left out).
    roots: Vec<Action>,
}

impl Search {
    /// One iteration on one determinisation: select, expand, play out, back up.
    fn iterate(&mut self, mut game: Game, rng: &mut SplitMix64) {
        let mut path = vec![0u32];
        let mut node = 0usize;
        while !game.is_over() && path.len() <= MAX_DEPTH {
            let legal = if node == 0 {
                self.roots.clone()
            } else {
                game.legal_actions_unflagged()
            };
            if legal.is_empty() {
                break;
            }
            let mover = game.controller();
            let tried: Vec<Action> = self.nodes[node]
                .children
                .iter()
                .map(|c| self.nodes[*c as usize].action)
                .collect();
            let fresh: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| !tried.contains(a))
                .collect();
            let next = if fresh.is_empty() {
                self.select(node, &legal)
            } else {
                // New actions are tried in the quick policy's order of preference.
                let glance = Glance::of(&game);
                let action = fresh[best(fresh.len(), rng, |i| glance.score(&game, &fresh[i]))];
                let child = self.nodes.len();
                self.nodes.push(Node::new(action, mover));
                self.nodes[node].children.push(child as u32);
                child
            };
            let action = self.nodes[next].action;
            if game.play(&action).is_err() {
                break;
            }
            path.push(next as u32);
            let expanded = !fresh.is_empty();
            node = next;
            if expanded {
                break;
            }
        }
        for _ in 0..PLAYOUT_PLIES {
            let actions = game.legal_actions_unflagged();
            if actions.is_empty() {
                break;
            }
            let action = policy::pick(&game, &actions, rng);
            if game.play(&action).is_err() {
                break;
            }
        }
        let rewards = rewards(&game, &self.prior);
        for &n in &path[1..] {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += rewards[node.mover.index()];
        }
    }

    /// UCB among the children whose action is legal in this determinisation; each of them
    /// counts one more availability.
    fn select(&mut self, node: usize, legal: &[Action]) -> usize {
        let children = self.nodes[node].children.clone();
        let mut top = children[0] as usize;
        let mut top_score = f32::MIN;
        for c in children {
            let c = c as usize;
            if !legal.contains(&self.nodes[c].action) {
                continue;
            }
            self.nodes[c].available += 1;
            let score = self.nodes[c].ucb();
            if score > top_score {
                top = c;
                top_score = score;
            }
        }
        top
    }

    /// Can `left` more iterations no longer change which first action is the most visited?
    fn settled(&self, left: u32) -> bool {
        let mut visits: Vec<u32> = self.nodes[0]
            .children
            .iter()
            .map(|c| self.nodes[*c as usize].visits)
            .collect();
        if visits.len() < self.roots.len() {
            return false;
        }
        visits.sort_unstable_by(|a, b| b.cmp(a));
        visits.len() < 2 || visits[0] > visits[1] + left
    }

    fn most_visited(&self) -> Action {
        self.nodes[0]
            .children
            .iter()
            .map(|c| &self.nodes[*c as usize])
            .max_by_key(|n| n.visits)
            .map_or(self.roots[0], |n| n.action)
    }
}
