//! The header band: per team its shape and colour, score, rum stock and dead pirates, and its
//! vessels afloat once ships can sink; the acting team framed (on weed turns with the team of
//! the player commanding it); an eliminated team dimmed; the move number or the result on the
//! right.

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

pub fn draw(canvas: &mut Canvas, kit: &Kit, game: &Game, move_number: Option<u32>) {
    let number = move_number.unwrap_or(game.ply() + 1);
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
        if game.is_eliminated(team) {
            canvas.rounded_rect(block, 8.0, HEADER, 0.6);
        }
        x += width + 8.0;
    }

    let status = match outcome {
        None => format!("{} {}", word(kit.lang, Key::Move), number),
        Some(o) if o.draw => format!(
            "{}: {}",
            word(kit.lang, Key::GameOver),
            word(kit.lang, Key::Draw)
        ),
        Some(_) => word(kit.lang, Key::GameOver).to_string(),
    };
    // Where the teams' blocks leave too little room, the move number goes without its word,
    // and a result without its detail.
    let short = match outcome {
        None => format!("{number}"),
        Some(_) => word(kit.lang, Key::GameOver).to_string(),
    };
    let room = SIZE as f32 - 14.0 - (x + 8.0);
    let fits = |t: &String| text::width(t, PX * 0.9) <= room;
    if let Some(status) = [status, short].into_iter().find(fits) {
        let w = text::width(&status, PX * 0.9);
        text::left(
            canvas,
            &status,
            PX * 0.9,
            SIZE as f32 - 14.0 - w,
            cy,
            COORDINATE,
        );
    }
}

fn dead(game: &Game, team: Team) -> usize {
    game.units()
        .iter()
        .filter(|u| u.team == team && u.place == Place::Dead)
        .count()
}

/// The figures of a team's block: (icon, value); the rum stock and the dead only when there
/// are some, the vessels afloat only where ships can sink (`destroying_ships`), so that four
/// teams fit the band.
fn figures(game: &Game, team: Team) -> Vec<(Icon, String)> {
    let mut out = vec![(Icon::TwoCoins, game.score(team).to_string())];
    if game.rum(team) > 0 {
        out.push((Icon::BrandyBottle, game.rum(team).to_string()));
    }
    let d = dead(game, team);
    if d > 0 {
        out.push((Icon::SkullCrossedBones, d.to_string()));
    }
    if game.settings().destroying_ships {
        let afloat = game
            .vessels()
            .iter()
            .filter(|v| v.owner == team && !v.sunk)
            .count();
        out.push((Icon::Galleon, afloat.to_string()));
    }
    out
}

/// On a weed turn (R-WEED-2) the acting team is commanded by another team's player: that
/// team, shown after a weed leaf in the acting team's block.
fn commanded_by(game: &Game, team: Team) -> Option<Team> {
    let controller = game.controller();
    (game.outcome().is_none() && game.turn() == team && controller != team).then_some(controller)
}

/// The weed leaf and the commanding team's token.
const COMMAND_W: f32 = 10.0 + HEADER_ICON as f32 + 26.0;

fn block_width(game: &Game, team: Team) -> f32 {
    let mut w = PAD + 28.0;
    for (_, value) in figures(game, team) {
        w += 10.0 + HEADER_ICON as f32 + 3.0 + text::width(&value, PX);
    }
    if commanded_by(game, team).is_some() {
        w += COMMAND_W;
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
    if let Some(by) = commanded_by(game, team) {
        x += 10.0;
        canvas.mask_centred(
            kit.header.get(Icon::VineLeaf),
            x + HEADER_ICON as f32 / 2.0,
            cy,
            rgb(0x9CC68A),
            1.0,
        );
        x += HEADER_ICON as f32 + 13.0;
        units::draw_shape(canvas, by, x, cy, 10.0, style::team_colour(by));
        text::centred(canvas, &by.to_string(), 12.0, x, cy, WHITE, 1.0);
    }
}
