//! The board picture: a 1024×1024 PNG of any position, readable on a phone (DESIGN §6).
//!
//! [`render`] draws the whole position — sea and island, coordinates on all four sides, fog
//! with cell names, every open tile with its orientation and state, items with counts, units
//! with team colour, team shape, id and state, ships and boats with their hits — plus what
//! [`RenderOptions`] adds for one viewer: highlighted cells and the last action's path.
//!
//! Modules, one job each: [`layout`] (where), [`style`] (colours), [`canvas`] (anti-aliased
//! shapes), [`text`], [`icons`] (SVG → cached masks), [`tiles`], [`items`], [`units`],
//! [`vessels`], [`overlay`], [`header`], [`strings`] (en/ru), [`encode`] (palette PNG).

pub mod canvas;
pub mod chart;
pub mod encode;
pub mod header;
pub mod icons;
pub mod items;
pub mod kit;
pub mod layout;
pub mod overlay;
pub mod replay;
pub mod strings;
pub mod style;
pub mod text;
pub mod tiles;
pub mod units;
pub mod vessels;

use std::collections::BTreeMap;

use image::RgbImage;

use crate::engine::{Cell, Event, Game, Place, Unit};
use canvas::Canvas;
use kit::Kit;
use layout::{BAND, Rect, SIZE};
pub use strings::Lang;
use style::{BACKGROUND, COORDINATE, HIGHLIGHT, PATH, SEA, SEA_GRID};

/// What one viewer's picture adds to the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Cells to highlight, e.g. a player's legal targets in the private view.
    pub highlights: Vec<Cell>,
    /// The last action's path: where it started, the cells it went through, where it ended.
    /// Build it from the action's events with [`path_of`].
    pub path: Vec<Cell>,
    /// Language of the text on the picture.
    pub lang: Lang,
    /// The number of the move to be played, as players count moves (a move through choices is
    /// several plies and one number); `None`: the next ply's.
    pub move_number: Option<u32>,
}

/// The PNG of `game` as seen with `options`: 1024×1024, opaque.
pub fn render(game: &Game, options: &RenderOptions) -> Vec<u8> {
    // The image is built here with a fixed, valid size, so encoding it cannot fail short of
    // a defect in the encoder; a picture-less board post would be worse than a loud failure.
    encode::png(&draw(game, options)).expect("encoding a 1024×1024 in-memory image")
}

/// The picture before encoding (for tests and the benchmark, which time the two apart).
pub fn draw(game: &Game, options: &RenderOptions) -> RgbImage {
    let kit = Kit::new(game.board(), options.lang);
    let mut canvas = Canvas::new(SIZE, SIZE, BACKGROUND);
    header::draw(&mut canvas, &kit, game, options.move_number);
    draw_coordinates(&mut canvas, &kit);
    draw_sea(&mut canvas, &kit);
    let board = game.board();
    for cell in board.land_cells() {
        if let Some(tile) = game.tile(cell) {
            tiles::draw(&mut canvas, &kit, cell, tile);
        }
    }
    let highlights: Vec<Cell> = options
        .highlights
        .iter()
        .copied()
        .filter(|c| board.exists(*c))
        .collect();
    let path: Vec<Cell> = options
        .path
        .iter()
        .copied()
        .filter(|c| board.exists(*c))
        .collect();
    overlay::highlight_wash(&mut canvas, &kit, &highlights);
    overlay::path_line(&mut canvas, &kit, &path);
    // Frames before the contents: tokens never reach a cell's edge, and a crowded cell's
    // magnified plate must cover its neighbours' frames (it repeats its own).
    overlay::path_frames(&mut canvas, &kit, &path);
    overlay::highlight_frames(&mut canvas, &kit, &highlights);
    draw_contents(&mut canvas, &kit, game, &path, &highlights);
    canvas.img
}

/// The path of the last action from the events `Game::play` returned: the cell the first
/// movement started from, then every cell entered, in order (a vessel move: from and to).
pub fn path_of(events: &[Event]) -> Vec<Cell> {
    let mut path: Vec<Cell> = Vec::new();
    let push = |c: Cell, path: &mut Vec<Cell>| {
        if path.last() != Some(&c) {
            path.push(c);
        }
    };
    for e in events {
        match *e {
            Event::Moved { from, to, .. } | Event::VesselMoved { from, to, .. } => {
                if path.is_empty() {
                    push(from, &mut path);
                }
                push(to, &mut path);
            }
            _ => {}
        }
    }
    path
}

/// Column letters above and below the board, row numbers left and right, row 1 at the
/// bottom: exactly the notation's names (R-BOARD-2).
fn draw_coordinates(canvas: &mut Canvas, kit: &Kit) {
    let l = &kit.layout;
    let px = l.coordinate_px();
    let b = l.board_rect();
    let band = BAND as f32;
    for i in 0..l.board.size() {
        let letter = ((b'a' + i) as char).to_string();
        let (cx, _) = l.cell_centre(Cell::new(i, 0));
        text::centred(canvas, &letter, px, cx, b.y - band / 2.0, COORDINATE, 1.0);
        text::centred(
            canvas,
            &letter,
            px,
            cx,
            b.y + b.h + band / 2.0,
            COORDINATE,
            1.0,
        );
        let number = (i + 1).to_string();
        let (_, cy) = l.cell_centre(Cell::new(0, i));
        text::centred(
            canvas,
            &number,
            px,
            b.x - band / 2.0 - 2.0,
            cy,
            COORDINATE,
            1.0,
        );
        text::centred(
            canvas,
            &number,
            px,
            b.x + b.w + band / 2.0 + 2.0,
            cy,
            COORDINATE,
            1.0,
        );
    }
}

/// The sea under everything; the four missing corners (R-BOARD-3) stay background.
fn draw_sea(canvas: &mut Canvas, kit: &Kit) {
    let l = &kit.layout;
    canvas.fill_rect(l.board_rect(), SEA, 1.0);
    let n = l.board.size();
    for row in 0..n {
        for col in 0..n {
            let c = Cell::new(col, row);
            let r = l.cell_rect(c);
            if !l.board.exists(c) {
                canvas.fill_rect(r, BACKGROUND, 1.0);
            } else if l.board.is_sea(c) {
                // A faint grid, so sea cells can be counted for a swimmer or a boat.
                canvas.stroke_rect(r, 1.0, SEA_GRID, 1.0);
            }
        }
    }
}

/// Vessels, then the items and units of every cell.
fn draw_contents(canvas: &mut Canvas, kit: &Kit, game: &Game, path: &[Cell], highlights: &[Cell]) {
    let mut groups: BTreeMap<Cell, Vec<&Unit>> = BTreeMap::new();
    for u in game.units() {
        let cell = match u.place {
            Place::Land { cell, .. } | Place::Swim(cell) | Place::Tunnel(cell) => cell,
            Place::Aboard(v) => match game.vessel(v) {
                vessel if !vessel.sunk => vessel.cell,
                _ => continue,
            },
            Place::Dead => continue,
        };
        groups.entry(cell).or_default().push(u);
    }
    let mut item_cells: BTreeMap<Cell, crate::engine::Items> = BTreeMap::new();
    for v in game.vessels().iter().filter(|v| !v.sunk) {
        let crewed = groups.contains_key(&v.cell);
        vessels::draw(canvas, kit, v, crewed);
        if !v.items.is_empty() {
            item_cells.insert(v.cell, v.items);
        }
    }
    for cell in game.board().land_cells() {
        let items = game.items_at(cell);
        if !items.is_empty() {
            item_cells.insert(cell, items);
        }
    }
    let mut cells: Vec<Cell> = groups.keys().chain(item_cells.keys()).copied().collect();
    cells.sort();
    cells.dedup();
    // Crowded cells are drawn last, enlarged over their neighbours, so they stay on top.
    let (crowded, plain): (Vec<Cell>, Vec<Cell>) = cells.into_iter().partition(|c| {
        let rect = kit.layout.cell_rect(*c).inset(2.0);
        let (area, _) = split(rect, item_cells.contains_key(c));
        let n = groups.get(c).map_or(0, Vec::len);
        n > 0 && units::grid(n, area, f32::MAX).1 < min_radius(kit)
    });
    for cell in plain.into_iter().chain(crowded.iter().copied()) {
        let has_items = item_cells.contains_key(&cell);
        let n = groups.get(&cell).map_or(0, Vec::len);
        let sparse = crowded.contains(&cell);
        let rect = if sparse {
            let frame = if path.contains(&cell) {
                Some(PATH)
            } else if highlights.contains(&cell) {
                Some(HIGHLIGHT)
            } else {
                None
            };
            magnify(canvas, kit, game, cell, n, has_items, frame)
        } else {
            kit.layout.cell_rect(cell).inset(2.0)
        };
        let (unit_area, item_area) = if n == 0 {
            // Items alone get the whole cell: gold is what players scan the board for.
            (rect, rect.inset(rect.w * 0.15))
        } else {
            split(rect, has_items)
        };
        if let Some(items) = item_cells.get(&cell) {
            items::draw(canvas, kit, item_area, *items);
        }
        if let Some(units) = groups.get_mut(&cell) {
            units::draw_group(canvas, kit, unit_area, units, sparse);
        }
    }
}

/// The smallest token whose id can still be read on a phone.
fn min_radius(kit: &Kit) -> f32 {
    kit.cell() * 0.2
}

/// Draws an enlarged copy of a crowded cell's ground, centred on the cell and kept inside
/// the board, and returns the area to draw its contents in. Six units in a maze cannot be
/// read at a fifth of a cell each; covering a little of the neighbours is the lesser evil.
/// The plate is sized so its tokens get a readable radius; `frame` repeats the cell's path
/// or highlight frame around it.
fn magnify(
    canvas: &mut Canvas,
    kit: &Kit,
    game: &Game,
    cell: Cell,
    units: usize,
    has_items: bool,
    frame: Option<style::Colour>,
) -> Rect {
    let r = kit.layout.cell_rect(cell);
    let (cols, rows) = units::grid_shape(units);
    let slot = kit.cell() * 0.24 / units::SPARSE_FILL;
    let unit_h = if has_items { 1.0 - ITEMS_SHARE } else { 1.0 };
    let side = (cols as f32 * slot)
        .max(rows as f32 * slot / unit_h)
        .clamp(r.w * 1.8, r.w * 3.0)
        + 6.0;
    let b = kit.layout.board_rect();
    let (cx, cy) = r.centre();
    let x = (cx - side / 2.0).clamp(b.x, b.x + b.w - side);
    let y = (cy - side / 2.0).clamp(b.y, b.y + b.h - side);
    let plate = Rect::new(x, y, side, side);
    let ground = match (game.tile(cell), game.vessel_at(cell)) {
        (_, Some(v)) => style::mix(style::team_colour(game.vessel(v).owner), style::WHITE, 0.55),
        (Some(t), _) if t.open => style::tile_tint(t.kind),
        (Some(_), _) => style::FOG,
        (None, _) => SEA,
    };
    canvas.rounded_rect(plate.inset(-2.0), 8.0, frame.unwrap_or(style::INK), 1.0);
    if frame.is_some() {
        canvas.rounded_rect(plate.inset(2.0), 6.0, ground, 1.0);
    } else {
        canvas.rounded_rect(plate, 6.0, ground, 1.0);
    }
    plate.inset(5.0)
}

/// The share of a cell's height the items' strip takes.
const ITEMS_SHARE: f32 = 0.34;

/// Splits a cell into the units' area and the items' strip along the bottom.
fn split(rect: Rect, has_items: bool) -> (Rect, Rect) {
    if !has_items {
        return (rect, Rect::new(rect.x, rect.y + rect.h, rect.w, 0.0));
    }
    let items_h = rect.h * ITEMS_SHARE;
    (
        Rect::new(rect.x, rect.y, rect.w, rect.h - items_h),
        Rect::new(rect.x, rect.y + rect.h - items_h, rect.w, items_h),
    )
}
