//! Ships and boats: a plate in the team colour with the vessel's silhouette, the team's
//! shape in a corner, and a red cross per cannonball hit.

use super::canvas::Canvas;
use super::icons::Icon;
use super::kit::Kit;
use super::layout::Rect;
use super::style::{self, BLACK, DANGER, WHITE};
use super::units;
use crate::engine::Vessel;

/// Draws the vessel's plate on its cell; units and items aboard are drawn over it later.
/// `crewed` dims the silhouette so the tokens on it stay readable.
pub fn draw(canvas: &mut Canvas, kit: &Kit, vessel: &Vessel, crewed: bool) {
    let rect = kit.layout.cell_rect(vessel.cell);
    let team = style::team_colour(vessel.owner);
    // A boat's plate is smaller than a ship's, so the two read apart without the icon.
    let plate = if vessel.boat {
        rect.inset(rect.w * 0.1)
    } else {
        rect.inset(2.0)
    };
    canvas.rounded_rect(plate, plate.w * 0.18, style::mix(team, BLACK, 0.35), 1.0);
    canvas.rounded_rect(
        plate.inset(2.5),
        plate.w * 0.15,
        style::mix(team, WHITE, 0.55),
        1.0,
    );
    let icon = if vessel.boat {
        Icon::Canoe
    } else {
        Icon::Galleon
    };
    let (cx, cy) = plate.centre();
    let alpha = if crewed { 0.35 } else { 0.9 };
    canvas.mask_centred(
        kit.tile.get(icon),
        cx,
        cy,
        style::mix(team, BLACK, 0.45),
        alpha,
    );

    // The team's shape in the top-right corner: the colour-independent cue for the owner.
    let s = kit.cell() * 0.09;
    units::draw_shape(
        canvas,
        vessel.owner,
        plate.x + plate.w - s * 1.6,
        plate.y + s * 1.6,
        s,
        team,
    );
    draw_hits(canvas, plate, vessel.hits);
}

/// One red cross per hit along the top-left of the plate.
fn draw_hits(canvas: &mut Canvas, plate: Rect, hits: u8) {
    let s = plate.w * 0.11;
    for i in 0..hits {
        let cx = plate.x + s * 1.5 + i as f32 * s * 2.4;
        let cy = plate.y + s * 1.5;
        canvas.disc(cx, cy, s * 1.05, WHITE, 1.0);
        let w = s * 0.45;
        canvas.capsule(
            (cx - s * 0.6, cy - s * 0.6),
            (cx + s * 0.6, cy + s * 0.6),
            w,
            DANGER,
            1.0,
        );
        canvas.capsule(
            (cx - s * 0.6, cy + s * 0.6),
            (cx + s * 0.6, cy - s * 0.6),
            w,
            DANGER,
            1.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Board, Cell, Items, Team};
    use crate::render::layout::SIZE;
    use crate::render::strings::Lang;

    /// Boats come with the expansion and cannot be set up in a scenario yet: a boat with a
    /// hit is drawn here, next to a ship, and both plates show their team colour.
    #[test]
    fn ships_and_boats_show_owner_and_hits() {
        let kit = Kit::new(Board::new(13).unwrap(), Lang::En);
        let mut canvas = Canvas::new(SIZE, SIZE, BLACK);
        let ship = Vessel {
            owner: Team::of(2),
            boat: false,
            cell: Cell::new(0, 6),
            hits: 1,
            items: Items::NONE,
            sunk: false,
        };
        let boat = Vessel {
            boat: true,
            cell: Cell::new(1, 1),
            ..ship
        };
        for v in [ship, boat] {
            draw(&mut canvas, &kit, &v, false);
            let r = kit.layout.cell_rect(v.cell);
            let plate = style::mix(style::team_colour(Team::of(2)), WHITE, 0.55);
            let probe = canvas
                .img
                .get_pixel((r.x + r.w * 0.3) as u32, (r.y + r.h * 0.8) as u32);
            assert_eq!(probe.0, plate.0, "boat {}", v.boat);
        }
        if let Ok(path) = std::env::var("JACKAL_RENDER_VESSELS") {
            canvas.img.save(path).unwrap();
        }
    }
}
