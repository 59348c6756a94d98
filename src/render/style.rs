//! Colours and proportions of the board picture, in one place so the picture stays coherent.

use image::Rgb;

use crate::engine::{Team, TileKind};

pub type Colour = Rgb<u8>;

pub const fn rgb(hex: u32) -> Colour {
    Rgb([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8])
}

/// Around the board and behind the header.
pub const BACKGROUND: Colour = rgb(0x1B2A3A);
pub const HEADER: Colour = rgb(0x0F1A26);
pub const COORDINATE: Colour = rgb(0xD8E2EC);
pub const SEA: Colour = rgb(0x3F7FAE);
pub const SEA_GRID: Colour = rgb(0x376F99);
/// Face-down tiles: the dark back of the real game's tiles, so open tiles stand out.
pub const FOG: Colour = rgb(0x55704F);
pub const FOG_TEXT: Colour = rgb(0x7E9A76);
pub const INK: Colour = rgb(0x33281C);
pub const WHITE: Colour = rgb(0xFFFFFF);
pub const BLACK: Colour = rgb(0x000000);
pub const GOLD: Colour = rgb(0xF2B705);
pub const GOLD_DARK: Colour = rgb(0x8A6200);
pub const DANGER: Colour = rgb(0xC62828);
/// Legal targets (the private view): cyan, far from every team colour and from the path.
pub const HIGHLIGHT: Colour = rgb(0x00E5FF);
/// The last action's path: amber.
pub const PATH: Colour = rgb(0xFFB000);

/// Team colours from the Okabe–Ito palette, which stays distinguishable for the common
/// colour-vision deficiencies; each team also has its own token shape ([`TeamShape`]).
pub fn team_colour(team: Team) -> Colour {
    match team.number() {
        1 => rgb(0xD55E00),
        2 => rgb(0x0072B2),
        3 => rgb(0x009E73),
        _ => rgb(0xCC79A7),
    }
}

/// The second, colour-independent cue per team: the outline of its unit tokens.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TeamShape {
    Circle,
    Square,
    Diamond,
    Triangle,
}

pub fn team_shape(team: Team) -> TeamShape {
    match team.number() {
        1 => TeamShape::Circle,
        2 => TeamShape::Square,
        3 => TeamShape::Diamond,
        _ => TeamShape::Triangle,
    }
}

/// Tile tint by category, so the kind reads at a glance before the icon does.
pub fn tile_tint(kind: TileKind) -> Colour {
    use TileKind::*;
    match kind {
        Empty | Arrow(_) | Horse | Cannon(_) | Chest(_) | Bullion | BoatTile | CartTile
        | BallTile => rgb(0xE9D9AC),
        Ice => rgb(0xD3EAF4),
        Maze(_) => rgb(0xB9D59C),
        Trap | Crocodile => rgb(0xE9B49C),
        Cannibal => rgb(0xDC9580),
        Fortress | ResFort => rgb(0xC9C3B8),
        Barrel | Bottles(_) => rgb(0xDDBE94),
        Balloon | Plane | Lighthouse => rgb(0xD5E0EE),
        BenGunn | Friday | Missionary => rgb(0xDCCDEA),
        Cave | Earthquake => rgb(0xC7B49F),
        Jungle | Weed => rgb(0x9CC68A),
        Caramba => rgb(0xF1C79B),
    }
}

/// Mixes `a` toward `b` by `t` (0 = a, 1 = b).
pub fn mix(a: Colour, b: Colour, t: f32) -> Colour {
    let f = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t).round() as u8;
    Rgb([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2])])
}
