//! Text: DejaVu Sans Bold, placed by its ink bounds.
//!
//! Centring by advance width and font ascent leaves digits visibly off-centre on a token,
//! so labels are centred on the bounding box of the glyph outlines actually drawn.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, OutlinedGlyph, PxScale, ScaleFont, point};

use super::canvas::Canvas;
use super::style::Colour;

/// DejaVu Sans Bold from Debian's fonts-dejavu-core (licence: assets/fonts/), embedded so the
/// renderer needs no file at run time.
static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        // The bytes are compiled in and covered by a test: this cannot fail at run time.
        FontRef::try_from_slice(FONT_BYTES).expect("the embedded DejaVu font parses")
    })
}

/// A laid-out run of text: glyph outlines and their joint ink bounds.
struct Run {
    glyphs: Vec<OutlinedGlyph>,
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

fn layout(text: &str, px: f32) -> Run {
    let f = font().as_scaled(PxScale::from(px));
    let mut caret = 0.0;
    let mut prev = None;
    let mut run = Run {
        glyphs: Vec::new(),
        x0: f32::MAX,
        y0: f32::MAX,
        x1: f32::MIN,
        y1: f32::MIN,
    };
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            caret += f.kern(p, id);
        }
        let glyph = id.with_scale_and_position(px, point(caret, 0.0));
        caret += f.h_advance(id);
        prev = Some(id);
        if let Some(g) = font().outline_glyph(glyph) {
            let b = g.px_bounds();
            run.x0 = run.x0.min(b.min.x);
            run.y0 = run.y0.min(b.min.y);
            run.x1 = run.x1.max(b.max.x);
            run.y1 = run.y1.max(b.max.y);
            run.glyphs.push(g);
        }
    }
    if run.glyphs.is_empty() {
        (run.x0, run.y0, run.x1, run.y1) = (0.0, 0.0, caret, 0.0);
    }
    run
}

fn draw_run(canvas: &mut Canvas, run: &Run, dx: f32, dy: f32, c: Colour, a: f32) {
    let (dx, dy) = (dx.round() as i32, dy.round() as i32);
    for g in &run.glyphs {
        let b = g.px_bounds();
        let (gx, gy) = (b.min.x as i32 + dx, b.min.y as i32 + dy);
        g.draw(|x, y, cover| canvas.blend(gx + x as i32, gy + y as i32, c, cover * a));
    }
}

/// Width of the ink of `text` at `px`.
pub fn width(text: &str, px: f32) -> f32 {
    let r = layout(text, px);
    (r.x1 - r.x0).max(0.0)
}

/// Draws `text` with its ink centred on (cx, cy).
pub fn centred(canvas: &mut Canvas, text: &str, px: f32, cx: f32, cy: f32, c: Colour, a: f32) {
    let r = layout(text, px);
    let dx = cx - (r.x0 + r.x1) / 2.0;
    let dy = cy - (r.y0 + r.y1) / 2.0;
    draw_run(canvas, &r, dx, dy, c, a);
}

/// Draws `text` with its ink starting at x and vertically centred on cy; returns the x where
/// the ink ends.
pub fn left(canvas: &mut Canvas, text: &str, px: f32, x: f32, cy: f32, c: Colour) -> f32 {
    let r = layout(text, px);
    let dx = x - r.x0;
    // Centre on the height of a capital, not of this run's ink, so that a row of labels with
    // and without descenders shares one baseline.
    let cap = layout("H", px);
    let dy = cy - (cap.y0 + cap.y1) / 2.0;
    draw_run(canvas, &r, dx, dy, c, 1.0);
    x + (r.x1 - r.x0).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::style::{BLACK, WHITE};

    #[test]
    fn font_has_latin_and_cyrillic() {
        for ch in ['a', 'm', '7', 'Х', 'о', 'д'] {
            assert_ne!(font().glyph_id(ch).0, 0, "{ch}");
        }
    }

    #[test]
    fn centred_text_is_centred_on_its_ink() {
        let mut c = Canvas::new(60, 60, WHITE);
        centred(&mut c, "1", 30.0, 30.0, 30.0, BLACK, 1.0);
        let (mut x0, mut x1, mut y0, mut y1) = (60, 0, 60, 0);
        for (x, y, p) in c.img.enumerate_pixels() {
            if p.0[0] < 128 {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        let (mx, my) = ((x0 + x1) as f32 / 2.0, (y0 + y1) as f32 / 2.0);
        assert!(
            (mx - 30.0).abs() <= 1.5 && (my - 30.0).abs() <= 1.5,
            "{mx},{my}"
        );
        assert!(width("1", 30.0) > 5.0);
    }
}
