//! Items lying on a cell or aboard a vessel: one badge per kind with its count.

use super::canvas::Canvas;
use super::icons::Icon;
use super::kit::Kit;
use super::layout::Rect;
use super::style::{GOLD, GOLD_DARK, INK, WHITE, rgb};
use super::text;
use crate::engine::{Item, Items};

/// Draws the items in a row centred in `area` (usually the bottom strip of a cell).
pub fn draw(canvas: &mut Canvas, kit: &Kit, area: Rect, items: Items) {
    let kinds: Vec<Item> = Item::ALL
        .into_iter()
        .filter(|i| items.count(*i) > 0)
        .collect();
    if kinds.is_empty() {
        return;
    }
    // Badges as large as the strip allows, never wider than a share of it.
    let d = area
        .h
        .min(area.w / kinds.len() as f32)
        .min(kit.cell() * 0.5);
    let total = d * kinds.len() as f32;
    let (cx, cy) = area.centre();
    let mut x = cx - total / 2.0 + d / 2.0;
    for item in kinds {
        badge(canvas, kit, x, cy, d, item, items.count(item));
        x += d;
    }
}

fn badge(canvas: &mut Canvas, kit: &Kit, cx: f32, cy: f32, d: f32, item: Item, n: u8) {
    // Never smaller than the icon, whose ink fills its square.
    let r = (d * 0.46).max(kit.badge.get(Icon::Canoe).w as f32 * 0.62);
    match item {
        // Gold is the point of the game: a coin is a gold disc with the count on it.
        Item::Coin => {
            canvas.disc(cx, cy, r, GOLD_DARK, 1.0);
            canvas.disc(cx, cy, r - 1.5, GOLD, 1.0);
            text::centred(canvas, &n.to_string(), r * 1.25, cx, cy, INK, 1.0);
            return;
        }
        Item::Bar => {
            canvas.rounded_rect(
                Rect::new(cx - r, cy - r, 2.0 * r, 2.0 * r),
                r * 0.3,
                GOLD_DARK,
                1.0,
            );
            canvas.mask_centred(kit.badge.get(Icon::GoldBar), cx, cy, GOLD, 1.0);
        }
        Item::Ball => {
            canvas.disc(cx, cy, r, WHITE, 0.9);
            canvas.mask_centred(kit.badge.get(Icon::CannonBall), cx, cy, rgb(0x222222), 1.0);
        }
        Item::Cart => {
            canvas.disc(cx, cy, r, WHITE, 0.9);
            canvas.mask_centred(kit.badge.get(Icon::Wheelbarrow), cx, cy, rgb(0x5A3413), 1.0);
        }
        Item::Boat => {
            canvas.disc(cx, cy, r, WHITE, 0.9);
            canvas.mask_centred(kit.badge.get(Icon::Canoe), cx, cy, rgb(0x5A3413), 1.0);
        }
    }
    if n > 1 {
        // The count in a small dark tag at the badge's lower right.
        let tr = r * 0.5;
        let (tx, ty) = (cx + r * 0.7, cy + r * 0.7);
        canvas.disc(tx, ty, tr, INK, 1.0);
        text::centred(canvas, &n.to_string(), tr * 1.5, tx, ty, WHITE, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Board;
    use crate::render::strings::Lang;
    use crate::render::style::BACKGROUND;

    /// Items the expansion brings (bullion, cannonball, wheelbarrow, boat) cannot be set up in
    /// a scenario yet, so every kind is drawn here, alone and counted. Set
    /// JACKAL_RENDER_ITEMS to a file name to look at them.
    #[test]
    fn every_item_kind_draws_with_its_count() {
        let kit = Kit::new(Board::new(13).unwrap(), Lang::En);
        let c = kit.cell();
        let mut canvas = Canvas::new((c * 5.0) as u32, (c * 2.0) as u32, BACKGROUND);
        for (i, item) in Item::ALL.into_iter().enumerate() {
            for (row, n) in [1u8, 3].into_iter().enumerate() {
                let mut items = Items::NONE;
                items.add(item, n);
                let area = Rect::new(i as f32 * c, row as f32 * c + c * 0.6, c, c * 0.34);
                draw(&mut canvas, &kit, area, items);
                let (cx, cy) = area.centre();
                assert_ne!(
                    canvas.img.get_pixel(cx as u32, cy as u32).0,
                    BACKGROUND.0,
                    "{item:?} x{n}"
                );
            }
        }
        if let Ok(path) = std::env::var("JACKAL_RENDER_ITEMS") {
            canvas.img.save(path).unwrap();
        }
    }
}
