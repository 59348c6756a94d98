//! Anti-aliased drawing on an RGB image.
//!
//! imageproc's shapes are aliased (DESIGN §6), and jagged discs and arrows are what makes a
//! small picture look cheap, so every shape here is filled from a signed distance function:
//! a pixel's coverage is how far its centre lies inside the edge, clamped to one pixel.

use image::RgbImage;

use super::layout::Rect;
use super::style::Colour;

/// An 8-bit alpha mask (a rasterised icon or glyph run).
#[derive(Clone, Debug)]
pub struct Mask {
    pub w: u32,
    pub h: u32,
    pub alpha: Vec<u8>,
}

pub struct Canvas {
    pub img: RgbImage,
}

impl Canvas {
    pub fn new(w: u32, h: u32, fill: Colour) -> Canvas {
        Canvas {
            img: RgbImage::from_pixel(w, h, fill),
        }
    }

    /// Blends `c` over the pixel with opacity `a` (0–1); outside the image does nothing.
    #[inline]
    pub fn blend(&mut self, x: i32, y: i32, c: Colour, a: f32) {
        if a <= 0.0
            || x < 0
            || y < 0
            || x >= self.img.width() as i32
            || y >= self.img.height() as i32
        {
            return;
        }
        let p = self.img.get_pixel_mut(x as u32, y as u32);
        if a >= 1.0 {
            *p = c;
            return;
        }
        for i in 0..3 {
            p[i] = (p[i] as f32 + (c[i] as f32 - p[i] as f32) * a).round() as u8;
        }
    }

    /// An axis-aligned rectangle on whole pixels (cells, bands), with opacity.
    pub fn fill_rect(&mut self, r: Rect, c: Colour, a: f32) {
        let (x0, y0) = (r.x.round() as i32, r.y.round() as i32);
        let (x1, y1) = ((r.x + r.w).round() as i32, (r.y + r.h).round() as i32);
        for y in y0..y1 {
            for x in x0..x1 {
                self.blend(x, y, c, a);
            }
        }
    }

    /// A frame of `width` pixels just inside `r`.
    pub fn stroke_rect(&mut self, r: Rect, width: f32, c: Colour, a: f32) {
        self.fill_rect(Rect::new(r.x, r.y, r.w, width), c, a);
        self.fill_rect(Rect::new(r.x, r.y + r.h - width, r.w, width), c, a);
        self.fill_rect(Rect::new(r.x, r.y + width, width, r.h - 2.0 * width), c, a);
        self.fill_rect(
            Rect::new(r.x + r.w - width, r.y + width, width, r.h - 2.0 * width),
            c,
            a,
        );
    }

    /// Fills the region where `sdf(x, y) < 0` inside the bounding box, anti-aliased.
    pub fn fill_sdf(&mut self, bbox: Rect, c: Colour, a: f32, sdf: impl Fn(f32, f32) -> f32) {
        let x0 = bbox.x.floor() as i32 - 1;
        let y0 = bbox.y.floor() as i32 - 1;
        let x1 = (bbox.x + bbox.w).ceil() as i32 + 1;
        let y1 = (bbox.y + bbox.h).ceil() as i32 + 1;
        for y in y0..y1 {
            for x in x0..x1 {
                let d = sdf(x as f32 + 0.5, y as f32 + 0.5);
                let cover = (0.5 - d).clamp(0.0, 1.0);
                if cover > 0.0 {
                    self.blend(x, y, c, cover * a);
                }
            }
        }
    }

    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Colour, a: f32) {
        let bbox = Rect::new(cx - r, cy - r, 2.0 * r, 2.0 * r);
        self.fill_sdf(bbox, c, a, |x, y| {
            ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r
        });
    }

    pub fn rounded_rect(&mut self, r: Rect, radius: f32, c: Colour, a: f32) {
        let (cx, cy) = r.centre();
        let (hw, hh) = (r.w / 2.0, r.h / 2.0);
        self.fill_sdf(r, c, a, |x, y| rounded_box(x - cx, y - cy, hw, hh, radius));
    }

    /// A thick line with round ends from `a` to `b`.
    pub fn capsule(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Colour, alpha: f32) {
        let r = width / 2.0;
        let bbox = Rect::new(
            a.0.min(b.0) - r,
            a.1.min(b.1) - r,
            (a.0 - b.0).abs() + width,
            (a.1 - b.1).abs() + width,
        );
        self.fill_sdf(bbox, c, alpha, |x, y| segment_distance((x, y), a, b) - r);
    }

    /// A convex polygon, points in either winding order.
    pub fn convex_polygon(&mut self, pts: &[(f32, f32)], c: Colour, a: f32) {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in pts {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        let bbox = Rect::new(x0, y0, x1 - x0, y1 - y0);
        self.fill_sdf(bbox, c, a, |x, y| convex_sdf(pts, x, y));
    }

    /// Draws `m` with its top-left at (x, y) in colour `c`, opacity `a`.
    pub fn mask(&mut self, m: &Mask, x: i32, y: i32, c: Colour, a: f32) {
        for my in 0..m.h {
            let row = &m.alpha[(my * m.w) as usize..((my + 1) * m.w) as usize];
            for (mx, &v) in row.iter().enumerate() {
                if v > 0 {
                    self.blend(x + mx as i32, y + my as i32, c, a * v as f32 / 255.0);
                }
            }
        }
    }

    /// Draws `m` centred on (cx, cy).
    pub fn mask_centred(&mut self, m: &Mask, cx: f32, cy: f32, c: Colour, a: f32) {
        let x = (cx - m.w as f32 / 2.0).round() as i32;
        let y = (cy - m.h as f32 / 2.0).round() as i32;
        self.mask(m, x, y, c, a);
    }
}

/// Signed distance to a box of half-size (hw, hh) with rounded corners, centred at 0.
pub fn rounded_box(px: f32, py: f32, hw: f32, hh: f32, radius: f32) -> f32 {
    let qx = px.abs() - hw + radius;
    let qy = py.abs() - hh + radius;
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - radius
}

pub fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (pax, pay) = (p.0 - a.0, p.1 - a.1);
    let (bax, bay) = (b.0 - a.0, b.1 - a.1);
    let len2 = bax * bax + bay * bay;
    let h = if len2 > 0.0 {
        ((pax * bax + pay * bay) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((pax - bax * h).powi(2) + (pay - bay * h).powi(2)).sqrt()
}

/// Signed distance to a convex polygon: the largest signed distance to its edge lines. Exact
/// inside and along the edges, slightly small beyond sharp corners, which only rounds the
/// anti-aliasing of a corner by a fraction of a pixel.
pub fn convex_sdf(pts: &[(f32, f32)], x: f32, y: f32) -> f32 {
    let n = pts.len();
    // Orientation, so "outside" is the same side for either winding.
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    let mut d = f32::MIN;
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let len = (ex * ex + ey * ey).sqrt().max(1e-6);
        // Negative on the inner side of the edge for a positive shoelace area.
        let dist = ((x - a.0) * ey - (y - a.1) * ex) / len;
        d = d.max(sign * dist);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::style::{BLACK, WHITE};

    #[test]
    fn disc_is_solid_inside_and_soft_at_the_edge() {
        let mut c = Canvas::new(40, 40, WHITE);
        c.disc(20.0, 20.0, 10.0, BLACK, 1.0);
        assert_eq!(c.img.get_pixel(20, 20).0, [0, 0, 0]);
        assert_eq!(c.img.get_pixel(2, 2).0, [255, 255, 255]);
        // Pixels straddling the edge are neither colour.
        let soft = c
            .img
            .pixels()
            .filter(|p| p.0[0] > 0 && p.0[0] < 255)
            .count();
        assert!(soft > 20, "{soft} anti-aliased pixels");
    }

    #[test]
    fn polygon_fills_either_winding() {
        for pts in [
            [(5.0, 5.0), (35.0, 5.0), (20.0, 35.0)],
            [(20.0, 35.0), (35.0, 5.0), (5.0, 5.0)],
        ] {
            let mut c = Canvas::new(40, 40, WHITE);
            c.convex_polygon(&pts, BLACK, 1.0);
            assert_eq!(c.img.get_pixel(20, 15).0, [0, 0, 0]);
            assert_eq!(c.img.get_pixel(3, 30).0, [255, 255, 255]);
        }
    }
}
