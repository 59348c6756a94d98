//! The move picker: every legal action of a position, arranged as menus a player clicks
//! through (Discord's select menus hold at most 25 entries; Jackal positions can have
//! hundreds of actions). Pure: a position in, menus out; the Discord views draw them.
//!
//! The arrangement, from the root:
//! - a pending choice (fork, horse, ice, drop…): its answers, as buttons;
//! - at most 25 actions in all: the actions themselves (one click);
//! - otherwise one entry per piece (each pirate, Ben Gunn, the ship, a boat, rum,
//!   resurrection), then that piece's actions: directly when they fit, else by target cell,
//!   else (a plane's flight to any cell) in runs of cells.
//!
//! Every action is reachable within three menus (`tests::every_action_within_three_clicks`
//! checks it over random games), and nothing is ever cut off.

use std::collections::BTreeMap;

use crate::engine::{Action, Cell, Game, Items, LegalAction, UnitKind, UnitRef};
use crate::game::TurnView;
use crate::tr;
use crate::words::{Lang, narrate};

/// Discord's limit of entries in a select menu, and of buttons on a message.
pub const MENU_MAX: usize = 25;
/// Discord's limit for a label or a value.
pub const TEXT_MAX: usize = 100;

/// One entry of a menu: a group to open, or an action to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub label: String,
    pub kind: EntryKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Opens the group at this index of the menu.
    Group(u8),
    /// Plays the action (its canonical notation); `fatal`: it kills a unit of the player's.
    Action { notation: String, fatal: bool },
}

/// A node of the picker: a group of entries or an action.
#[derive(Clone, Debug)]
enum Node {
    Leaf(LegalAction),
    Group { label: String, children: Vec<Node> },
}

/// What the player sees at one place in the picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    /// Where this menu is, from the root (the `path` of its custom id).
    pub path: Vec<u8>,
    /// What the menu asks ("Choose a piece", "Pirate 2 · e5: where to?").
    pub prompt: String,
    pub entries: Vec<Entry>,
    /// A pending choice: its answers are buttons, not a menu.
    pub choice: bool,
}

/// The position's actions for the side to move, as a tree (root entries first).
fn tree(view: &TurnView, lang: Lang) -> Vec<Node> {
    let game = &view.position;
    let legal = view.legal.clone();
    if legal.len() <= MENU_MAX {
        return legal.into_iter().map(Node::Leaf).collect();
    }
    if game.pending().is_some() {
        // A choice answers one question, so its answers are not grouped by piece; but some
        // have more than a menu holds (a flight that lands on ice flies again, to any land
        // cell: 116 answers on the big island): in runs of cells, as a plane's flight is.
        return fit(legal.into_iter().map(Node::Leaf).collect(), lang);
    }
    let mut pieces: BTreeMap<PieceKey, Vec<LegalAction>> = BTreeMap::new();
    for l in legal {
        pieces.entry(PieceKey::of(&l.action)).or_default().push(l);
    }
    let groups = pieces
        .into_iter()
        .map(|(key, actions)| Node::Group {
            label: key.label(game, lang),
            children: by_target(lang, actions),
        })
        .collect();
    fit(groups, lang)
}

/// A piece's actions: as they are when they fit, else grouped by target cell.
fn by_target(lang: Lang, actions: Vec<LegalAction>) -> Vec<Node> {
    if actions.len() <= MENU_MAX {
        return actions.into_iter().map(Node::Leaf).collect();
    }
    let mut targets: BTreeMap<Cell, Vec<LegalAction>> = BTreeMap::new();
    for l in actions {
        let Some(cell) = target(&l.action) else {
            continue;
        };
        targets.entry(cell).or_default().push(l);
    }
    let groups = targets
        .into_iter()
        .map(|(cell, mut actions)| {
            if actions.len() == 1 {
                Node::Leaf(actions.remove(0))
            } else {
                Node::Group {
                    label: tr!(
                        lang,
                        "picker-target",
                        cell = cell.to_string(),
                        count = actions.len()
                    ),
                    children: actions.into_iter().map(Node::Leaf).collect(),
                }
            }
        })
        .collect();
    fit(groups, lang)
}

/// Makes a list fit one menu: past 25 entries, consecutive runs of entries become groups
/// named after their first and last entries.
fn fit(mut nodes: Vec<Node>, lang: Lang) -> Vec<Node> {
    if nodes.len() <= MENU_MAX {
        return nodes;
    }
    let per_group = nodes.len().div_ceil(MENU_MAX);
    let mut out = Vec::new();
    while !nodes.is_empty() {
        let run: Vec<Node> = nodes.drain(..per_group.min(nodes.len())).collect();
        let first = short_label(&run[0]);
        let last = short_label(&run[run.len() - 1]);
        out.push(Node::Group {
            label: tr!(lang, "picker-run", first = first, last = last),
            children: run,
        });
    }
    out
}

fn short_label(node: &Node) -> String {
    match node {
        Node::Leaf(l) => target(&l.action).map(|c| c.to_string()).unwrap_or_default(),
        Node::Group { label, .. } => label.clone(),
    }
}

/// The cell an action goes to (or acts on); none for the timeout's pass, which is never
/// offered to a player.
pub fn target(action: &Action) -> Option<Cell> {
    match *action {
        Action::Move { to, .. } | Action::Ship { to } | Action::Boat { to, .. } => Some(to),
        Action::Resurrect { at } | Action::Rum { at } => Some(at),
        Action::Choose { cell, .. } => Some(cell),
        Action::Pass => None,
    }
}

/// The cells of all legal actions (highlighted on the player's private board).
pub fn targets(view: &TurnView) -> Vec<Cell> {
    let mut cells: Vec<Cell> = view
        .legal
        .iter()
        .map(|l| &l.action)
        .filter_map(target)
        .collect();
    cells.sort();
    cells.dedup();
    cells
}

/// What an action is done with: one entry per piece at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PieceKey {
    Unit(UnitKind),
    Ship,
    Boat(Cell),
    Resurrect,
    Rum,
}

impl PieceKey {
    fn of(action: &Action) -> PieceKey {
        match *action {
            Action::Move { unit, .. } => PieceKey::Unit(unit),
            Action::Ship { .. } => PieceKey::Ship,
            Action::Boat { from, .. } => PieceKey::Boat(from),
            Action::Resurrect { .. } => PieceKey::Resurrect,
            Action::Rum { .. } => PieceKey::Rum,
            // Choices are never grouped (the root lists them all), and a pass is never offered.
            Action::Choose { .. } | Action::Pass => PieceKey::Rum,
        }
    }

    fn label(self, game: &Game, lang: Lang) -> String {
        match self {
            PieceKey::Unit(kind) => {
                let name = narrate::unit_kind(lang, kind);
                let unit = game.unit(UnitRef {
                    team: game.turn(),
                    kind,
                });
                match unit.and_then(|u| game.place_cell(u.place)) {
                    Some(cell) => tr!(
                        lang,
                        "picker-piece-at",
                        piece = name,
                        cell = cell.to_string()
                    ),
                    None => name,
                }
            }
            PieceKey::Ship => tr!(lang, "picker-ship"),
            PieceKey::Boat(from) => tr!(lang, "picker-boat", cell = from.to_string()),
            PieceKey::Resurrect => tr!(lang, "picker-resurrect"),
            PieceKey::Rum => tr!(lang, "picker-rum"),
        }
    }
}

/// An action's label: in words, ☠ first when it is fatal, cut to Discord's limit.
fn action_label(lang: Lang, l: &LegalAction) -> String {
    let words = narrate::action(lang, &l.action);
    let words = if l.fatal {
        format!("☠ {words}")
    } else {
        words
    };
    clip(&words, TEXT_MAX)
}

/// `text` cut to `max` characters, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The menu at `path` (the root for an empty path); `None` if the path leads nowhere (an
/// id from a different position, or damaged).
pub fn menu(view: &TurnView, lang: Lang, path: &[u8]) -> Option<Menu> {
    let game = &view.position;
    let mut nodes = tree(view, lang);
    let mut prompt = match game.pending_kind() {
        Some(kind) => tr!(lang, narrate::choice_id(kind)),
        None if nodes.iter().all(|n| matches!(n, Node::Leaf(_))) => tr!(lang, "picker-choose-move"),
        None => tr!(lang, "picker-choose-piece"),
    };
    for &i in path {
        match nodes.into_iter().nth(i as usize)? {
            Node::Group { label, children } => {
                prompt = tr!(lang, "picker-choose-in", group = label);
                nodes = children;
            }
            Node::Leaf(_) => return None,
        }
    }
    let entries = nodes
        .iter()
        .enumerate()
        .map(|(i, node)| match node {
            Node::Leaf(l) => Entry {
                label: action_label(lang, l),
                kind: EntryKind::Action {
                    notation: game.notation(&l.action),
                    fatal: l.fatal,
                },
            },
            Node::Group { label, .. } => Entry {
                label: clip(label, TEXT_MAX),
                kind: EntryKind::Group(i as u8),
            },
        })
        .collect();
    Some(Menu {
        path: path.to_vec(),
        prompt,
        entries,
        choice: game.pending().is_some(),
    })
}

/// The items of an action's cargo (for confirmations).
pub fn cargo(action: &Action) -> Items {
    match *action {
        Action::Move { cargo, .. } | Action::Choose { cargo, .. } => cargo,
        _ => Items::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{self, BotLevel};
    use crate::engine::{Pack, Players, Settings};

    /// Follows every path of the picker and collects the actions reached, with the number
    /// of menus opened to reach each.
    fn reachable(game: &Game, lang: Lang) -> Vec<(String, usize)> {
        let view = TurnView::of_position(crate::id::GameId::new(1).unwrap(), 1, game.clone());
        let game = &view;
        let mut out = Vec::new();
        let mut stack = vec![Vec::<u8>::new()];
        while let Some(path) = stack.pop() {
            let menu =
                menu(game, lang, &path).expect("every path the picker offers leads somewhere");
            assert!(
                menu.entries.len() <= MENU_MAX,
                "{} entries",
                menu.entries.len()
            );
            assert!(!menu.entries.is_empty());
            for e in &menu.entries {
                assert!(e.label.chars().count() <= TEXT_MAX, "{}", e.label);
                assert!(!e.label.is_empty());
                match &e.kind {
                    EntryKind::Group(i) => {
                        let mut deeper = path.clone();
                        deeper.push(*i);
                        stack.push(deeper);
                    }
                    EntryKind::Action { notation, .. } => {
                        assert!(notation.len() <= TEXT_MAX);
                        out.push((notation.clone(), path.len() + 1));
                    }
                }
            }
        }
        out
    }

    fn settings(size: u8, players: Players) -> Settings {
        Settings {
            board_size: size,
            players,
            tile_pack: Pack::Classic,
            ..Settings::default()
        }
    }

    /// Over random games of every size and player count: each legal action is reached
    /// exactly once, in at most three menus, and nothing else is offered.
    #[test]
    fn every_action_within_three_clicks() {
        let mut biggest = 0;
        for (seed, (size, players)) in [
            (5, Players::Two),
            (9, Players::Three),
            (13, Players::Four),
            (13, Players::TwoVsTwo),
            (11, Players::Two),
        ]
        .into_iter()
        .enumerate()
        {
            let mut game = Game::new(settings(size, players), seed as u64).unwrap();
            let mut ply = 0;
            while !game.is_over() && ply < 400 {
                let legal = game.legal_actions();
                biggest = biggest.max(legal.len());
                let lang = if ply % 2 == 0 { Lang::En } else { Lang::Ru };
                let mut reached = reachable(&game, lang);
                assert!(
                    reached.iter().all(|(_, clicks)| *clicks <= 3),
                    "{reached:?}"
                );
                let mut expected: Vec<String> =
                    legal.iter().map(|l| game.notation(&l.action)).collect();
                reached.sort();
                expected.sort();
                let reached: Vec<String> = reached.into_iter().map(|(n, _)| n).collect();
                assert_eq!(reached, expected, "ply {ply}");
                let Some(action) = ai::choose(&game, BotLevel::Random, seed as u64 + 1) else {
                    break;
                };
                game.play(&action).unwrap();
                ply += 1;
            }
        }
        assert!(biggest > MENU_MAX, "the games tried never needed grouping");
    }

    /// Found by the load test: the picker offered all 116 answers of such a choice in one
    /// menu, which Discord refuses (25 at most).
    #[test]
    fn a_choice_with_more_answers_than_a_menu_holds_comes_in_runs() {
        // t_plane.scn: a flight onto ice flies again, to any land cell but the ice.
        let scenario = "scenario flight onto ice\n\
                        tile f5 plane\ntile k11 ice\ntile d10 fog chest1\n\
                        unit 1.1 f5 pilot\nitem f5 coin\nturn 1\n\
                        play 1 k11 coin\n";
        let (game, _) = crate::scenario::position_after_plays(scenario).expect("a position");
        assert!(game.pending().is_some());
        let legal = game.legal_actions();
        assert_eq!(legal.len(), 116);
        let mut reached = reachable(&game, Lang::En);
        assert!(
            reached.iter().all(|(_, clicks)| *clicks <= 3),
            "{reached:?}"
        );
        let mut expected: Vec<String> = legal.iter().map(|l| game.notation(&l.action)).collect();
        reached.sort();
        expected.sort();
        let reached: Vec<String> = reached.into_iter().map(|(n, _)| n).collect();
        assert_eq!(reached, expected);
        // The root holds runs of cells; each run's answers fit as buttons.
        let root = menu(
            &TurnView::of_position(crate::id::GameId::new(1).unwrap(), 1, game.clone()),
            Lang::En,
            &[],
        )
        .expect("the root");
        assert!(root.choice && root.entries.len() <= MENU_MAX);
        assert!(matches!(root.entries[0].kind, EntryKind::Group(0)));
    }

    #[test]
    fn a_wrong_path_leads_nowhere() {
        let game = Game::new(settings(13, Players::Two), 3).unwrap();
        assert!(
            menu(
                &TurnView::of_position(crate::id::GameId::new(1).unwrap(), 1, game.clone()),
                Lang::En,
                &[]
            )
            .is_some()
        );
        assert!(
            menu(
                &TurnView::of_position(crate::id::GameId::new(1).unwrap(), 1, game.clone()),
                Lang::En,
                &[200]
            )
            .is_none()
        );
        assert!(
            menu(
                &TurnView::of_position(crate::id::GameId::new(1).unwrap(), 1, game.clone()),
                Lang::En,
                &[0, 0, 0, 0]
            )
            .is_none()
        );
    }

    #[test]
    fn long_labels_are_clipped() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("abcdef", 5), "abcd…");
        assert_eq!(clip("ёёёёёё", 3).chars().count(), 3);
    }
}
