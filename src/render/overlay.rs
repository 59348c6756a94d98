//! What is drawn over the board for one viewer: highlighted cells (a player's legal
//! targets) and the last action's path.

use super::canvas::Canvas;
use super::kit::Kit;
use super::style::{BLACK, HIGHLIGHT, PATH};
use crate::engine::Cell;

/// Width of the highlight and path frames, in pixels at the 13×13 cell size.
fn frame_width(kit: &Kit) -> f32 {
    (kit.cell() * 0.07).round().clamp(3.0, 7.0)
}

/// A light wash over highlighted cells, drawn under the units.
pub fn highlight_wash(canvas: &mut Canvas, kit: &Kit, cells: &[Cell]) {
    for &c in cells {
        canvas.fill_rect(kit.layout.cell_rect(c), HIGHLIGHT, 0.22);
    }
}

/// A cyan frame inside each highlighted cell, drawn over everything.
pub fn highlight_frames(canvas: &mut Canvas, kit: &Kit, cells: &[Cell]) {
    let w = frame_width(kit);
    for &c in cells {
        let r = kit.layout.cell_rect(c);
        canvas.stroke_rect(r, w, HIGHLIGHT, 1.0);
        canvas.stroke_rect(r.inset(w), 1.0, BLACK, 0.5);
    }
}

/// The path's line, from cell centre to cell centre with an arrowhead at the end; drawn
/// under units and items so it never hides an id.
pub fn path_line(canvas: &mut Canvas, kit: &Kit, path: &[Cell]) {
    if path.len() < 2 {
        return;
    }
    let pts: Vec<(f32, f32)> = path.iter().map(|c| kit.layout.cell_centre(*c)).collect();
    let w = kit.cell() * 0.09;
    for pair in pts.windows(2) {
        canvas.capsule(pair[0], pair[1], w + 3.0, BLACK, 0.45);
    }
    for pair in pts.windows(2) {
        canvas.capsule(pair[0], pair[1], w, PATH, 1.0);
    }
    canvas.disc(pts[0].0, pts[0].1, w * 1.3, PATH, 1.0);
    // The arrowhead on the last leg, stopping short of the centre so the token there shows.
    let (a, b) = (pts[pts.len() - 2], pts[pts.len() - 1]);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len > 1.0 {
        let (ux, uy) = (dx / len, dy / len);
        let tip = (b.0 - ux * kit.cell() * 0.2, b.1 - uy * kit.cell() * 0.2);
        let head = kit.cell() * 0.22;
        let base = (tip.0 - ux * head, tip.1 - uy * head);
        let (px, py) = (-uy * head * 0.6, ux * head * 0.6);
        canvas.convex_polygon(
            &[tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
            PATH,
            1.0,
        );
    }
}

/// Amber frames: a thick one on the start and the end, a thin one on the cells passed
/// through.
pub fn path_frames(canvas: &mut Canvas, kit: &Kit, path: &[Cell]) {
    let w = frame_width(kit);
    let last = path.len().saturating_sub(1);
    for (i, &c) in path.iter().enumerate() {
        let r = kit.layout.cell_rect(c);
        let width = if i == 0 || i == last {
            w
        } else {
            (w * 0.5).max(2.0)
        };
        canvas.stroke_rect(r, width, PATH, 1.0);
    }
}
