//! What a player can see of a game (R-PACK-1): every open tile, and of the face-down ones only
//! where they lie and how many tiles of each kind the pack still holds unseen.
//!
//! Bots are given a [`PublicView`], never the [`Game`] itself. The view is built by blanking
//! every fog tile and forgetting the map's seed (which would deal the map again), so nothing
//! reachable from it — nor from the games it samples — tells what lies under the fog. A bot that
//! looks ahead plays on a *determinisation*: the view with its fog tiles drawn from the unseen
//! tiles by the bot's own generator ([`PublicView::sample`]).

use super::action::{Action, LegalAction};
use super::board::{Board, Cell};
use super::game::Game;
use super::mapgen::SplitMix64;
use super::settings::Settings;
use super::tile::{Tile, TileKind};
use super::unit::Team;

/// A game as every player sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PublicView {
    /// The game with each fog tile replaced by a face-down empty tile and no seed: the real
    /// kinds are not in it. Never handed out as a `Game`, since its fog would read as empty.
    masked: Game,
    /// The fog cells, in canonical order (R-BOARD-9).
    fog: Vec<Cell>,
    /// The tiles not seen yet (R-PACK-5 minus the open tiles, unrotated, padded with `empty`
    /// as R-MAP-2 pads a short pack), in the pack's canonical order.
    unseen: Vec<TileKind>,
}

/// The kind a tile had in the pack, before the deal turned it (R-PACK-4).
fn unrotated(tile: &Tile) -> TileKind {
    tile.kind.rotated((4 - tile.rotation % 4) % 4)
}

impl Game {
    /// This game as every player sees it.
    pub fn public_view(&self) -> PublicView {
        let board = self.board;
        let mut masked = self.clone();
        masked.seed = None;
        let mut fog = Vec::new();
        let mut unseen = self.settings.tile_pack.tiles();
        if unseen.len() < board.land_count() {
            unseen.resize(board.land_count(), TileKind::Empty);
        }
        for cell in board.land_cells() {
            let Some(tile) = masked.tiles[board.index(cell)].as_mut() else {
                continue;
            };
            if tile.open {
                // A tile set up by a scenario may be no tile of the pack: nothing to take away.
                let kind = unrotated(tile);
                if let Some(i) = unseen.iter().position(|k| *k == kind) {
                    unseen.remove(i);
                }
            } else {
                *tile = Tile::fog(TileKind::Empty, 0);
                fog.push(cell);
            }
        }
        masked.dealt_gold = masked.visible_gold_dealt();
        PublicView {
            masked,
            fog,
            unseen,
        }
    }

    /// The gold dealt as far as anyone can tell without the fog: what was delivered, lost, or
    /// lies in play outside the fog (keeps `remaining_gold` equal to `gold_in_play`).
    fn visible_gold_dealt(&self) -> u32 {
        self.delivered_gold + self.lost_gold + self.gold_in_play()
    }
}

impl PublicView {
    /// A determinisation: this position with every fog tile drawn, without replacement, from
    /// the unseen tiles, each turned by a random quarter (as R-MAP-2 deals them). The same
    /// generator state always gives the same game.
    pub fn sample(&self, rng: &mut SplitMix64) -> Game {
        Self::deal(self.bag(), &self.fog, self.masked.clone(), rng)
    }

    /// A determinisation in which the fog tile on `cell` is one of the unseen tiles of
    /// `kind` (turned by a random quarter) and the rest of the fog is drawn as in
    /// [`PublicView::sample`]: what a bot asks to weigh what opening that tile may bring.
    /// `None` when `cell` is not fog or no unseen tile is of `kind`.
    pub fn sample_given(&self, rng: &mut SplitMix64, cell: Cell, kind: TileKind) -> Option<Game> {
        let mut bag = self.bag();
        let drawn = bag.iter().position(|k| *k == kind)?;
        let others: Vec<Cell> = self.fog.iter().copied().filter(|c| *c != cell).collect();
        if others.len() == self.fog.len() {
            return None;
        }
        bag.swap_remove(drawn);
        let mut game = self.masked.clone();
        let rotation = rng.below(4) as u8;
        *game.tile_mut(cell) = Tile::fog(kind.rotated(rotation), rotation);
        Some(Self::deal(bag, &others, game, rng))
    }

    /// The unseen tiles, with empty ones added when the island has more cells than the pack
    /// has tiles.
    fn bag(&self) -> Vec<TileKind> {
        let mut bag = self.unseen.clone();
        if bag.len() < self.fog.len() {
            bag.resize(self.fog.len(), TileKind::Empty);
        }
        bag
    }

    /// Deals `bag` onto the `fog` cells of `game` without replacement.
    fn deal(mut bag: Vec<TileKind>, fog: &[Cell], mut game: Game, rng: &mut SplitMix64) -> Game {
        for (i, &cell) in fog.iter().enumerate() {
            let j = i + rng.pick(bag.len() - i);
            bag.swap(i, j);
            let rotation = rng.below(4) as u8;
            *game.tile_mut(cell) = Tile::fog(bag[i].rotated(rotation), rotation);
        }
        game.dealt_gold = game.visible_gold_dealt();
        game
    }

    /// The face-down cells, in canonical order.
    pub fn fog_cells(&self) -> &[Cell] {
        &self.fog
    }

    /// How many tiles of each kind are still unseen (unrotated kinds; arrows and cannons
    /// point as in the pack), in the pack's canonical order.
    pub fn unseen_counts(&self) -> Vec<(TileKind, u16)> {
        let mut counts: Vec<(TileKind, u16)> = Vec::new();
        for &kind in &self.unseen {
            match counts.last_mut() {
                Some((k, n)) if *k == kind => *n += 1,
                _ => counts.push((kind, 1)),
            }
        }
        counts
    }

    /// The number of unseen tiles (more than the fog cells when the pack is larger than the
    /// island, R-MAP-2).
    pub fn unseen_count(&self) -> usize {
        self.unseen.len().max(self.fog.len())
    }

    /// The tile on `cell` if it is open; `None` for fog, sea and cells off the board.
    pub fn open_tile(&self, cell: Cell) -> Option<&Tile> {
        self.masked.tile(cell).filter(|t| t.open)
    }

    pub fn settings(&self) -> &Settings {
        self.masked.settings()
    }

    pub fn board(&self) -> Board {
        self.masked.board()
    }

    pub fn ply(&self) -> u32 {
        self.masked.ply()
    }

    pub fn turn(&self) -> Team {
        self.masked.turn()
    }

    /// The player commanding the turn (R-TURN-8).
    pub fn controller(&self) -> Team {
        self.masked.controller()
    }

    pub fn is_over(&self) -> bool {
        self.masked.is_over()
    }

    /// The legal actions with their fatal flags: the fatal flag never looks under the fog
    /// (R-CHAIN-9), and no rule of legality does either, so these are the game's own.
    pub fn legal_actions(&self) -> Vec<LegalAction> {
        self.masked.legal_actions()
    }

    pub fn legal_actions_unflagged(&self) -> Vec<Action> {
        self.masked.legal_actions_unflagged()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Players};

    fn classic(size: u8) -> Settings {
        Settings {
            board_size: size,
            players: Players::Two,
            tile_pack: Pack::Classic,
            ..Settings::default()
        }
    }

    /// Plays `plies` actions picked by a seeded generator.
    fn played(settings: Settings, seed: u64, plies: usize) -> Game {
        let mut game = Game::new(settings, seed).unwrap();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..plies {
            let legal = game.legal_actions_unflagged();
            if legal.is_empty() {
                break;
            }
            game.play(&legal[rng.pick(legal.len())]).unwrap();
        }
        game
    }

    #[test]
    fn a_fresh_game_shows_nothing_but_the_pack() {
        let game = Game::new(classic(13), 7).unwrap();
        let view = game.public_view();
        assert_eq!(view.fog_cells().len(), 117);
        assert_eq!(view.unseen, Pack::Classic.tiles());
        assert_eq!(
            view.unseen_counts().iter().map(|(_, n)| *n).sum::<u16>(),
            117
        );
        assert_eq!(view.masked.seed(), None);
        assert!(
            view.fog_cells()
                .iter()
                .all(|c| view.masked.tile(*c) == Some(&Tile::fog(TileKind::Empty, 0)))
        );
        assert_eq!(view.masked.gold_in_play(), 0);
    }

    /// Two deals of the same settings look the same before anything is opened, and so do two
    /// positions whose fog tiles were shuffled among themselves.
    #[test]
    fn the_fog_does_not_show() {
        let a = Game::new(classic(11), 1).unwrap();
        let b = Game::new(classic(11), 2).unwrap();
        assert_ne!(a, b);
        assert_eq!(a.public_view(), b.public_view());

        let game = played(classic(13), 3, 60);
        let mut shuffled = game.clone();
        let fog: Vec<Cell> = game.public_view().fog_cells().to_vec();
        for pair in fog.chunks(2) {
            if let [x, y] = *pair {
                let tx = *shuffled.tile(x).unwrap();
                let ty = *shuffled.tile(y).unwrap();
                *shuffled.tile_mut(x) = ty;
                *shuffled.tile_mut(y) = tx;
            }
        }
        assert_ne!(game, shuffled);
        assert_eq!(game.public_view(), shuffled.public_view());
    }

    #[test]
    fn open_tiles_leave_the_unseen_counts() {
        let game = played(classic(13), 5, 80);
        let view = game.public_view();
        let open = game
            .board()
            .land_cells()
            .filter(|c| game.tile(*c).is_some_and(|t| t.open))
            .count();
        assert!(open > 0, "80 plies open some tiles");
        assert_eq!(view.fog_cells().len(), 117 - open);
        assert_eq!(view.unseen_count(), 117 - open);
        // Every face-down kind of the real game is among the unseen, as often as it lies there.
        let mut unseen = view.unseen.clone();
        for c in view.fog_cells() {
            let kind = unrotated(game.tile(*c).unwrap());
            let i = unseen.iter().position(|k| *k == kind).expect("unseen");
            unseen.remove(i);
        }
        assert!(unseen.is_empty());
    }

    /// A sample keeps everything open as it is, deals the unseen tiles into the fog, and plays
    /// like the game: the same legal actions, the same fatal flags, gold accounted for.
    #[test]
    fn samples_are_games_like_this_one() {
        for (size, plies) in [(13, 0), (13, 70), (9, 40), (7, 25)] {
            let game = played(classic(size), size as u64, plies);
            let view = game.public_view();
            let mut rng = SplitMix64::new(99);
            for _ in 0..5 {
                let sample = view.sample(&mut rng);
                for cell in game.board().land_cells() {
                    let (real, drawn) = (game.tile(cell).unwrap(), sample.tile(cell).unwrap());
                    assert_eq!(real.open, drawn.open);
                    if real.open {
                        assert_eq!(real, drawn);
                    }
                }
                assert_eq!(sample.legal_actions(), game.legal_actions());
                let (dealt, delivered, lost) = sample.gold_accounts();
                assert_eq!(dealt, sample.gold_in_play() + delivered + lost);
                assert_eq!(sample.seed(), None);
            }
            assert_eq!(view.legal_actions(), game.legal_actions());
            assert_eq!(
                view.sample(&mut SplitMix64::new(8)),
                view.sample(&mut SplitMix64::new(8))
            );
        }
    }

    /// A sample given one fog tile's kind puts that kind there and deals the rest of the fog
    /// from the other unseen tiles: together, the tiles it deals are the unseen ones.
    #[test]
    fn a_sample_given_one_tile_deals_the_rest() {
        let game = played(classic(13), 6, 70);
        let view = game.public_view();
        let cell = view.fog_cells()[10];
        let mut rng = SplitMix64::new(3);
        for (kind, _) in view.unseen_counts() {
            let sample = view
                .sample_given(&mut rng, cell, kind)
                .expect("an unseen kind");
            assert_eq!(unrotated(sample.tile(cell).unwrap()), kind);
            let mut dealt: Vec<TileKind> = view
                .fog_cells()
                .iter()
                .map(|c| unrotated(sample.tile(*c).unwrap()))
                .collect();
            let mut unseen = view.unseen.clone();
            dealt.sort_by_key(|k| format!("{k:?}"));
            unseen.sort_by_key(|k| format!("{k:?}"));
            assert_eq!(dealt, unseen);
            assert_eq!(sample.legal_actions(), game.legal_actions());
        }
        let open = game
            .board()
            .land_cells()
            .find(|c| game.tile(*c).is_some_and(|t| t.open))
            .unwrap();
        assert!(view.sample_given(&mut rng, open, TileKind::Empty).is_none());
        // The classic pack has no caves.
        assert!(view.sample_given(&mut rng, cell, TileKind::Cave).is_none());
    }

    /// On a board smaller than the pack, the fog holds only some of the unseen tiles.
    #[test]
    fn a_small_board_samples_from_the_whole_pack() {
        let game = Game::new(classic(5), 4).unwrap();
        let view = game.public_view();
        assert_eq!(view.fog_cells().len(), 5);
        assert_eq!(view.unseen_count(), 117);
        let mut rng = SplitMix64::new(1);
        let kinds: std::collections::HashSet<TileKind> = (0..200)
            .flat_map(|_| {
                let s = view.sample(&mut rng);
                view.fog
                    .iter()
                    .map(|c| unrotated(s.tile(*c).unwrap()))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(kinds.len() > 10, "{kinds:?}");
    }
}
