//! Land tiles: fog with the cell's name, and every open kind of RULES §2 with its
//! orientation (arrows, cannon barrel) and state (spent, collected, fired).

use super::canvas::Canvas;
use super::icons::Icon;
use super::kit::Kit;
use super::layout::Rect;
use super::style::{self, Colour, FOG, FOG_TEXT, INK, WHITE, rgb};
use super::text;
use crate::engine::{Cell, Dir, DirSet, Tile, TileKind};

/// Opacity of a tile symbol, and of one whose effect is spent (it now acts as empty, but
/// players still want to see what was there).
const ICON_ALPHA: f32 = 0.78;
const SPENT_ALPHA: f32 = 0.26;

/// The gap left between land tiles so the grid stays countable.
pub const GAP: f32 = 1.0;

/// Draws the tile on land cell `cell`.
pub fn draw(canvas: &mut Canvas, kit: &Kit, cell: Cell, tile: &Tile) {
    let rect = kit.layout.cell_rect(cell).inset(GAP);
    if !tile.open {
        draw_fog(canvas, kit, rect, cell);
    } else {
        draw_open(canvas, kit, rect, tile);
    }
}

fn draw_fog(canvas: &mut Canvas, kit: &Kit, rect: Rect, cell: Cell) {
    canvas.fill_rect(rect, FOG, 1.0);
    // A slightly lighter inner square gives the face-down tile an edge, like a card back.
    canvas.stroke_rect(rect.inset(3.0), 1.0, FOG_TEXT, 0.45);
    let (cx, cy) = rect.centre();
    let px = kit.layout.coordinate_px();
    text::centred(canvas, &cell.to_string(), px, cx, cy, FOG_TEXT, 1.0);
}

/// Draws an open tile into `rect` (public so the tile kinds can be tested one by one).
pub fn draw_open(canvas: &mut Canvas, kit: &Kit, rect: Rect, tile: &Tile) {
    let kind = tile.kind;
    // A spent tile keeps a hint of its category's tint.
    let tint = style::tile_tint(kind);
    let spent = is_spent(tile);
    let tint = if spent {
        style::mix(tint, style::tile_tint(TileKind::Empty), 0.6)
    } else {
        tint
    };
    canvas.fill_rect(rect, tint, 1.0);
    let alpha = if spent { SPENT_ALPHA } else { ICON_ALPHA };
    match kind {
        TileKind::Empty => {}
        TileKind::Arrow(exits) => draw_arrows(canvas, rect, exits),
        TileKind::Cannon(dir) => draw_cannon(canvas, rect, dir),
        TileKind::Maze(k) => draw_maze(canvas, kit, rect, k),
        TileKind::Bottles(k) => {
            icon(canvas, kit, rect, Icon::BrandyBottle, rgb(0x6B3A12), alpha);
            if !spent {
                count_tag(canvas, kit, rect, k);
            }
        }
        TileKind::Ice => icon(canvas, kit, rect, Icon::Snowflake, rgb(0x2E6F96), alpha),
        other => {
            if let Some(i) = symbol(other) {
                icon(canvas, kit, rect, i, INK, alpha);
            }
        }
    }
}

/// Whether the tile's one-off effect has happened, so it now acts as empty.
pub fn is_spent(tile: &Tile) -> bool {
    tile.open && tile.effective() == TileKind::Empty && tile.kind != TileKind::Empty
}

/// The icon of kinds drawn as a plain symbol.
fn symbol(kind: TileKind) -> Option<Icon> {
    Some(match kind {
        TileKind::Horse => Icon::HorseHead,
        TileKind::Trap => Icon::WolfTrap,
        TileKind::Crocodile => Icon::CrocJaws,
        TileKind::Cannibal => Icon::Cauldron,
        TileKind::Fortress => Icon::StoneTower,
        TileKind::ResFort => Icon::HeartTower,
        TileKind::Chest(_) => Icon::OpenTreasureChest,
        TileKind::Bullion => Icon::GoldBar,
        TileKind::Barrel => Icon::Barrel,
        TileKind::Balloon => Icon::AirBalloon,
        TileKind::Plane => Icon::Airplane,
        TileKind::Lighthouse => Icon::Lighthouse,
        TileKind::BenGunn => Icon::Beard,
        TileKind::Friday => Icon::TribalMask,
        TileKind::Missionary => Icon::Prayer,
        TileKind::Cave => Icon::CaveEntrance,
        TileKind::Earthquake => Icon::EarthCrack,
        TileKind::Jungle => Icon::Jungle,
        TileKind::Weed => Icon::VineLeaf,
        TileKind::Caramba => Icon::ParrotHead,
        TileKind::BoatTile => Icon::Canoe,
        TileKind::CartTile => Icon::Wheelbarrow,
        TileKind::BallTile => Icon::CannonBall,
        _ => return None,
    })
}

fn icon(canvas: &mut Canvas, kit: &Kit, rect: Rect, i: Icon, c: Colour, a: f32) {
    let (cx, cy) = rect.centre();
    canvas.mask_centred(kit.tile.get(i), cx, cy, c, a);
}

/// "×k" in the top-right corner (the bottles still on the tile).
fn count_tag(canvas: &mut Canvas, kit: &Kit, rect: Rect, k: u8) {
    let r = kit.cell() * 0.15;
    let (cx, cy) = (rect.x + rect.w - r - 2.0, rect.y + r + 2.0);
    canvas.disc(cx, cy, r, INK, 1.0);
    text::centred(canvas, &k.to_string(), r * 1.5, cx, cy, WHITE, 1.0);
}

/// A direction as a screen vector: y grows downwards on the picture, northwards on the board.
pub fn screen_vector(d: Dir) -> (f32, f32) {
    let (dx, dy) = d.delta();
    (dx as f32, -(dy as f32))
}

/// Arrows as drawn shapes (DESIGN §6), so every exit reads exactly, whatever the rotation.
fn draw_arrows(canvas: &mut Canvas, rect: Rect, exits: DirSet) {
    let (cx, cy) = rect.centre();
    let s = rect.w;
    let colour = rgb(0x5A3413);
    let shaft = s * 0.09;
    let single = exits.len() == 1;
    for d in exits.iter() {
        let (vx, vy) = screen_vector(d);
        // Diagonal arrows reach toward the corner; straight ones toward the edge.
        let reach = s * 0.40;
        let tip = (cx + vx * reach, cy + vy * reach);
        let head_len = s * 0.2;
        let len = (vx * vx + vy * vy).sqrt();
        let (ux, uy) = (vx / len, vy / len);
        let base = (tip.0 - ux * head_len, tip.1 - uy * head_len);
        // A single arrow runs through the whole tile: the unit passes over it.
        let start = if single {
            (cx - vx * reach * 0.75, cy - vy * reach * 0.75)
        } else {
            (cx, cy)
        };
        canvas.capsule(start, base, shaft, colour, 1.0);
        let half = s * 0.14;
        let (px, py) = (-uy * half, ux * half);
        canvas.convex_polygon(
            &[
                (tip.0 + ux * 1.0, tip.1 + uy * 1.0),
                (base.0 + px, base.1 + py),
                (base.0 - px, base.1 - py),
            ],
            colour,
            1.0,
        );
    }
    if !single {
        canvas.disc(cx, cy, shaft * 0.9, colour, 1.0);
    }
}

/// The cannon as a shape: a breech and a barrel pointing where it fires.
fn draw_cannon(canvas: &mut Canvas, rect: Rect, dir: Dir) {
    let (cx, cy) = rect.centre();
    let s = rect.w;
    let (vx, vy) = screen_vector(dir);
    let iron = rgb(0x2B2B2B);
    let breech = (cx - vx * s * 0.12, cy - vy * s * 0.12);
    let muzzle = (cx + vx * s * 0.36, cy + vy * s * 0.36);
    // Wheels across the barrel, so the barrel reads as a barrel even at a glance.
    let (px, py) = (-vy, vx);
    for side in [-1.0, 1.0] {
        canvas.disc(
            breech.0 + px * side * s * 0.17,
            breech.1 + py * side * s * 0.17,
            s * 0.09,
            rgb(0x6B4A2B),
            1.0,
        );
    }
    canvas.disc(breech.0, breech.1, s * 0.16, iron, 1.0);
    canvas.capsule(breech, muzzle, s * 0.17, iron, 1.0);
    canvas.disc(muzzle.0, muzzle.1, s * 0.11, iron, 1.0);
    canvas.disc(muzzle.0, muzzle.1, s * 0.05, rgb(0x777777), 1.0);
}

/// The maze: its symbol, and one pip per step along the top so its size reads at a glance.
/// Units inside carry their step on their token (see `units`).
fn draw_maze(canvas: &mut Canvas, kit: &Kit, rect: Rect, k: u8) {
    icon(canvas, kit, rect, Icon::Maze, rgb(0x3D5A2A), 0.30);
    let r = (rect.w * 0.045).max(2.0);
    let gap = r * 3.0;
    let total = gap * (k as f32 - 1.0);
    let (cx, _) = rect.centre();
    let y = rect.y + r + 3.0;
    for i in 0..k {
        canvas.disc(cx - total / 2.0 + gap * i as f32, y, r, rgb(0x3D5A2A), 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Board;
    use crate::render::strings::Lang;
    use crate::render::style::BACKGROUND;

    /// Every kind of RULES R-PACK-2, expansion ones included (which no game can hold yet),
    /// open and spent, drawn one by one: the tint shows at the tile's corner and the symbol
    /// leaves ink in the middle. Also writes a sheet for a person to look at when
    /// JACKAL_RENDER_SHEET is set.
    #[test]
    fn every_tile_kind_draws() {
        let kinds = all_kinds();
        let kit = Kit::new(Board::new(13).unwrap(), Lang::En);
        let c = kit.layout.cell;
        let cols = 8u32;
        let rows = (kinds.len() as u32 * 2).div_ceil(cols);
        let mut canvas = Canvas::new(cols * c, rows * c, BACKGROUND);
        for (i, (kind, used)) in kinds
            .iter()
            .flat_map(|k| [(*k, false), (*k, true)])
            .enumerate()
        {
            let (x, y) = ((i as u32 % cols) * c, (i as u32 / cols) * c);
            let rect = Rect::new(x as f32, y as f32, c as f32, c as f32).inset(GAP);
            let tile = Tile {
                kind,
                rotation: 0,
                open: true,
                used,
            };
            draw_open(&mut canvas, &kit, rect, &tile);
            let corner = canvas.img.get_pixel(x + 2, y + c - 3).0;
            assert_ne!(corner, BACKGROUND.0, "{kind} has no tint");
            if kind != TileKind::Empty {
                let tint = canvas.img.get_pixel(x + 2, y + c - 3).0;
                let ink = (x + c / 4..x + 3 * c / 4)
                    .flat_map(|px| (y + c / 4..y + 3 * c / 4).map(move |py| (px, py)))
                    .filter(|&(px, py)| canvas.img.get_pixel(px, py).0 != tint)
                    .count();
                assert!(ink > 20, "{kind} (used {used}) draws nothing");
            }
        }
        if let Ok(path) = std::env::var("JACKAL_RENDER_SHEET") {
            canvas.img.save(path).unwrap();
        }
    }

    fn all_kinds() -> Vec<TileKind> {
        let mut kinds: Vec<TileKind> = crate::engine::Pack::Full.tiles();
        kinds.push(TileKind::Caramba);
        kinds.push(TileKind::Cannon(Dir::E));
        kinds.push(TileKind::Arrow(DirSet::of(&[Dir::Sw])));
        kinds.dedup();
        kinds
    }

    #[test]
    fn arrows_point_where_their_exits_go() {
        let kit = Kit::new(Board::new(13).unwrap(), Lang::En);
        let c = kit.layout.cell;
        for (d, probe) in [(Dir::N, (c / 2, c / 8)), (Dir::E, (c - c / 8, c / 2))] {
            let mut canvas = Canvas::new(c, c, BACKGROUND);
            let rect = Rect::new(0.0, 0.0, c as f32, c as f32);
            draw_open(
                &mut canvas,
                &kit,
                rect,
                &Tile::open(TileKind::Arrow(DirSet::of(&[d]))),
            );
            let tint = style::tile_tint(TileKind::Empty).0;
            assert_ne!(canvas.img.get_pixel(probe.0, probe.1).0, tint, "{d:?}");
            // Nothing at the opposite edge's middle beyond the shaft's start.
            let opposite = (c - 1 - probe.0, c - 1 - probe.1);
            assert_eq!(
                canvas.img.get_pixel(opposite.0, opposite.1).0,
                tint,
                "{d:?}"
            );
        }
    }
}
