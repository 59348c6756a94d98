//! Unit tokens: a shape in the team colour (the shape is the colour-blind-safe second cue),
//! a white ring, the unit's id, and badges for its state.

use super::canvas::{Canvas, convex_sdf, rounded_box};
use super::icons::Icon;
use super::kit::Kit;
use super::layout::Rect;
use super::style::{self, Colour, INK, TeamShape, WHITE, rgb};
use super::text;
use crate::engine::{Place, Seat, Team, Unit, UnitKind};

/// Signed distance to a team's token shape of nominal radius `r`, centred at the origin.
pub fn shape_sdf(shape: TeamShape, r: f32, x: f32, y: f32) -> f32 {
    match shape {
        TeamShape::Circle => (x * x + y * y).sqrt() - r,
        TeamShape::Square => rounded_box(x, y, r * 0.86, r * 0.86, r * 0.2),
        TeamShape::Diamond => (x.abs() + y.abs() - r * 1.25) / std::f32::consts::SQRT_2,
        TeamShape::Triangle => convex_sdf(&triangle(r), x, y),
    }
}

fn triangle(r: f32) -> [(f32, f32); 3] {
    [(0.0, -r * 1.3), (r * 1.2, r * 0.8), (-r * 1.2, r * 0.8)]
}

/// The team's shape filled at (cx, cy) with a white ring around it.
pub fn draw_shape(canvas: &mut Canvas, team: Team, cx: f32, cy: f32, r: f32, fill: Colour) {
    let shape = style::team_shape(team);
    let ring = (r * 0.16).max(1.5);
    let reach = r * 1.35 + ring;
    let bbox = Rect::new(cx - reach, cy - reach, 2.0 * reach, 2.0 * reach);
    canvas.fill_sdf(bbox, WHITE, 1.0, |x, y| {
        shape_sdf(shape, r, x - cx, y - cy) - ring
    });
    canvas.fill_sdf(bbox, fill, 1.0, |x, y| shape_sdf(shape, r, x - cx, y - cy));
}

/// Where the ink of a label sits best inside the shape (a triangle's centre is low).
fn label_centre(shape: TeamShape, cx: f32, cy: f32, r: f32) -> (f32, f32) {
    match shape {
        TeamShape::Triangle => (cx, cy + r * 0.22),
        _ => (cx, cy),
    }
}

/// The id written on a token: `1`–`3`, `b`, `f`, `m`; a converted missionary (a fighter
/// now) is `M`.
pub fn label(unit: &Unit) -> String {
    match unit.kind {
        UnitKind::Missionary if unit.converted => "M".into(),
        k => k.to_string(),
    }
}

/// One token. `step` is the maze step to show, if the unit is in a maze.
pub fn draw_token(
    canvas: &mut Canvas,
    kit: &Kit,
    unit: &Unit,
    cx: f32,
    cy: f32,
    r: f32,
    step: Option<u8>,
) {
    let shape = style::team_shape(unit.team);
    draw_shape(canvas, unit.team, cx, cy, r, style::team_colour(unit.team));
    let (lx, ly) = label_centre(shape, cx, cy, r);
    let px = if shape == TeamShape::Triangle {
        r * 1.0
    } else {
        r * 1.2
    };
    text::centred(canvas, &label(unit), px, lx, ly, WHITE, 1.0);

    // State badges clockwise from the top right: drunk, trapped, stuck, seated.
    let mut badges: Vec<(Icon, Colour)> = Vec::new();
    if unit.drunk {
        badges.push((Icon::BrandyBottle, rgb(0x8B3A0E)));
    }
    if unit.trapped {
        badges.push((Icon::WolfTrap, style::DANGER));
    }
    if unit.stuck() {
        badges.push((Icon::CaveEntrance, INK));
    }
    if let Some(seat) = unit.seat {
        let c = match seat {
            Seat::Pilot => rgb(0x1A4F8B),
            Seat::Passenger => rgb(0x4F7FB8),
        };
        badges.push((Icon::Airplane, c));
    }
    let mask_px = kit.badge.get(Icon::Airplane).w as f32;
    let br = (mask_px * 0.68).max(r * 0.5);
    for (i, (icon, c)) in badges.into_iter().enumerate() {
        // Angles from the upper right, going clockwise.
        let angle = -std::f32::consts::FRAC_PI_4 + i as f32 * std::f32::consts::FRAC_PI_2;
        let (bx, by) = (cx + angle.cos() * r * 1.05, cy + angle.sin() * r * 1.05);
        canvas.disc(bx, by, br + 1.0, INK, 1.0);
        canvas.disc(bx, by, br, WHITE, 1.0);
        canvas.mask_centred(kit.badge.get(icon), bx, by, c, 1.0);
    }
    if let Some(s) = step {
        // The maze step in a dark tag at the lower left.
        let tr = (r * 0.55).max(7.0);
        let (tx, ty) = (cx - r * 0.85, cy + r * 0.85);
        canvas.disc(tx, ty, tr, INK, 1.0);
        text::centred(canvas, &s.to_string(), tr * 1.4, tx, ty, WHITE, 1.0);
    }
}

/// Token centres and radius for `n` tokens in `area`: a grid as square as possible, the
/// last row centred, tokens as large as fits but never larger than `max_r`.
pub fn grid(n: usize, area: Rect, max_r: f32) -> (Vec<(f32, f32)>, f32) {
    grid_with(n, area, max_r, FILL)
}

/// How much of its grid cell a token's radius takes in a normal cell.
const FILL: f32 = 0.44;
/// In a magnified crowded cell: more air, so state badges and step tags do not overlap the
/// neighbouring token.
pub const SPARSE_FILL: f32 = 0.36;

/// The grid's shape for `n` tokens: (columns, rows).
pub fn grid_shape(n: usize) -> (usize, usize) {
    let cols = if n == 2 {
        2
    } else {
        (n as f32).sqrt().ceil() as usize
    };
    (cols, n.div_ceil(cols.max(1)))
}

pub fn grid_with(n: usize, area: Rect, max_r: f32, fill: f32) -> (Vec<(f32, f32)>, f32) {
    if n == 0 {
        return (Vec::new(), 0.0);
    }
    let (cols, rows) = grid_shape(n);
    let cw = area.w / cols as f32;
    let ch = area.h / rows as f32;
    let r = (cw.min(ch) * fill).min(max_r);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let row = i / cols;
        let in_row = if row == rows - 1 {
            n - row * cols
        } else {
            cols
        };
        let col = i % cols;
        let row_w = in_row as f32 * cw;
        let x = area.x + (area.w - row_w) / 2.0 + cw * (col as f32 + 0.5);
        let y = area.y + ch * (row as f32 + 0.5);
        out.push((x, y));
    }
    (out, r)
}

/// Draws the given units together in `area` (a cell, or part of it); `sparse` for the
/// magnified plate of a crowded cell.
pub fn draw_group(canvas: &mut Canvas, kit: &Kit, area: Rect, units: &mut [&Unit], sparse: bool) {
    units.sort_by_key(|u| (step_of(u), u.team, u.kind));
    let in_maze = units.iter().any(|u| step_of(u) > 0);
    let fill = if sparse { SPARSE_FILL } else { FILL };
    let (centres, r) = grid_with(units.len(), area, kit.cell() * 0.28, fill);
    for (u, (x, y)) in units.iter().zip(centres) {
        let step = in_maze.then(|| step_of(u));
        draw_token(canvas, kit, u, x, y, r, step);
    }
}

fn step_of(u: &Unit) -> u8 {
    match u.place {
        Place::Land { step, .. } => step,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_fits_every_count() {
        let area = Rect::new(0.0, 0.0, 70.0, 70.0);
        for n in 1..=9 {
            let (c, r) = grid(n, area, 20.0);
            assert_eq!(c.len(), n);
            for (x, y) in c {
                assert!(
                    x - r >= 0.0 && x + r <= 70.0 && y - r >= 0.0 && y + r <= 70.0,
                    "n={n}"
                );
            }
        }
    }

    #[test]
    fn shapes_differ_by_team() {
        // At the corner of the bounding square a square token is filled, a circle is not.
        let (x, y) = (8.0, 8.0);
        assert!(shape_sdf(TeamShape::Square, 10.0, x, y) < 0.0);
        assert!(shape_sdf(TeamShape::Circle, 10.0, x, y) > 0.0);
        assert!(shape_sdf(TeamShape::Diamond, 10.0, x, y) > 0.0);
        assert!(shape_sdf(TeamShape::Triangle, 10.0, 0.0, 0.0) < 0.0);
    }
}
