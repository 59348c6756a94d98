//! The header band: per team its shape and colour, score, rum stock and dead pirates; the
//! acting team framed; the move number or the result on the right.

use super::canvas::Canvas;
use super::icons::Icon;
use super::kit::{HEADER_ICON, Kit};
use super::layout::{HEADER_H, Rect, SIZE};
use super::strings::{Key, text as word};
use super::style::{self, COORDINATE, GOLD, HEADER, WHITE, rgb};
use super::text;
use super::units;
use crate::engine::{Game, Place, Team};

const PX: f32 = 25.0;
const PAD: f32 = 10.0;

pub fn draw(canvas: &mut Canvas, kit: &Kit, game: &Game) {
    let band = Rect::new(0.0, 0.0, SIZE as f32, HEADER_H as f32);
    canvas.fill_rect(band, HEADER, 1.0);
    let cy = band.h / 2.0;
    let outcome = game.outcome();
    let mut x = 10.0;
    for team in game.teams() {
        let width = block_width(game, team);
        let block = Rect::new(x, 6.0, width, band.h - 12.0);
        let winner = outcome.is_some_and(|o| o.winners.contains(&team));
        if winner {
            canvas.rounded_rect(block, 8.0, GOLD, 1.0);
            canvas.rounded_rect(block.inset(3.0), 6.0, HEADER, 1.0);
        } else if outcome.is_none() && game.turn() == team {
            // The acting team: a bright frame around a block tinted in its colour.
            canvas.rounded_rect(block, 8.0, WHITE, 1.0);
            let fill = style::mix(HEADER, style::team_colour(team), 0.35);
            canvas.rounded_rect(block.inset(3.0), 6.0, fill, 1.0);
        }
        draw_block(canvas, kit, game, team, x, cy);
        x += width + 8.0;
    }

    let status = match outcome {
        None => format!("{} {}", word(kit.lang, Key::Move), game.ply() + 1),
        Some(o) if o.draw => format!(
            "{}: {}",
            word(kit.lang, Key::GameOver),
            word(kit.lang, Key::Draw)
        ),
        Some(_) => word(kit.lang, Key::GameOver).to_string(),
    };
    let w = text::width(&status, PX * 0.9);
    let sx = (SIZE as f32 - 14.0 - w).max(x + 8.0);
    text::left(canvas, &status, PX * 0.9, sx, cy, COORDINATE);
}

fn dead(game: &Game, team: Team) -> usize {
    game.units()
        .iter()
        .filter(|u| u.team == team && u.place == Place::Dead)
        .count()
}

/// The figures of a team's block: (icon, value), the dead only when there are some.
fn figures(game: &Game, team: Team) -> Vec<(Icon, String)> {
    let mut out = vec![
        (Icon::TwoCoins, game.score(team).to_string()),
        (Icon::BrandyBottle, game.rum(team).to_string()),
    ];
    let d = dead(game, team);
    if d > 0 {
        out.push((Icon::SkullCrossedBones, d.to_string()));
    }
    out
}

fn block_width(game: &Game, team: Team) -> f32 {
    let mut w = PAD + 28.0;
    for (_, value) in figures(game, team) {
        w += 10.0 + HEADER_ICON as f32 + 3.0 + text::width(&value, PX);
    }
    w + PAD
}

fn draw_block(canvas: &mut Canvas, kit: &Kit, game: &Game, team: Team, x: f32, cy: f32) {
    let colour = style::team_colour(team);
    units::draw_shape(canvas, team, x + PAD + 13.0, cy, 11.0, colour);
    text::centred(
        canvas,
        &team.to_string(),
        13.0,
        x + PAD + 13.0,
        cy + if style::team_shape(team) == style::TeamShape::Triangle {
            2.5
        } else {
            0.0
        },
        WHITE,
        1.0,
    );
    let mut x = x + PAD + 28.0;
    for (icon, value) in figures(game, team) {
        x += 10.0;
        let tint = match icon {
            Icon::TwoCoins => GOLD,
            Icon::BrandyBottle => rgb(0xE0A060),
            _ => rgb(0xC8C8C8),
        };
        canvas.mask_centred(
            kit.header.get(icon),
            x + HEADER_ICON as f32 / 2.0,
            cy,
            tint,
            1.0,
        );
        x += HEADER_ICON as f32 + 3.0;
        x = text::left(canvas, &value, PX, x, cy, WHITE);
    }
}
