//! The board as text, for the terminal game: one 4-character slot per cell (tile code, who
//! stands there, whether gold lies there), then the units and items in words.

use std::fmt::Write as _;

use crate::engine::{Cell, Dir, Game, Place, TileKind};

fn arrow_glyph(d: Dir) -> char {
    match d {
        Dir::N => '↑',
        Dir::Ne => '↗',
        Dir::E => '→',
        Dir::Se => '↘',
        Dir::S => '↓',
        Dir::Sw => '↙',
        Dir::W => '←',
        Dir::Nw => '↖',
    }
}

/// Two characters naming what lies on a cell.
fn tile_code(game: &Game, cell: Cell) -> String {
    let board = game.board();
    if board.is_sea(cell) {
        return match game.vessel_at(cell) {
            Some(v) => format!("S{}", game.vessel(v).owner),
            None => "~~".into(),
        };
    }
    let Some(tile) = game.tile(cell) else {
        return "  ".into();
    };
    if !tile.open {
        return "░░".into();
    }
    match tile.effective() {
        TileKind::Empty => " .".into(),
        TileKind::Arrow(exits) if exits.len() == 1 => {
            format!("{} ", arrow_glyph(exits.iter().next().expect("one exit")))
        }
        TileKind::Arrow(exits) => format!("✣{}", exits.len()),
        TileKind::Horse => "Hr".into(),
        TileKind::Ice => "Ic".into(),
        TileKind::Maze(k) => format!("M{k}"),
        TileKind::Trap => "Tr".into(),
        TileKind::Crocodile => "Cr".into(),
        TileKind::Cannibal => "Ca".into(),
        TileKind::Fortress => "Fo".into(),
        TileKind::ResFort => "Rf".into(),
        TileKind::Barrel => "Ba".into(),
        TileKind::Cannon(d) => format!("K{}", arrow_glyph(d)),
        TileKind::Balloon => "Bl".into(),
        TileKind::Plane => "Pl".into(),
        other => other.to_string().chars().take(2).collect(),
    }
}

/// The team digit of the units standing on a cell ('*' for several teams).
fn occupant(game: &Game, cell: Cell) -> char {
    let mut teams = game
        .units()
        .iter()
        .filter(|u| match u.place {
            Place::Land { cell: c, .. } | Place::Swim(c) => c == cell,
            _ => false,
        })
        .map(|u| u.team);
    match teams.next() {
        None => ' ',
        Some(t) if teams.all(|o| o == t) => char::from(b'0' + t.number()),
        Some(_) => '*',
    }
}

pub fn render(game: &Game) -> String {
    let board = game.board();
    let n = board.size();
    let mut out = String::new();
    let header: String = (0..n)
        .map(|c| format!(" {}  ", (b'a' + c) as char))
        .collect();
    let _ = writeln!(out, "    {header}");
    for row in (0..n).rev() {
        let _ = write!(out, "{:>3} ", row + 1);
        for col in 0..n {
            let cell = Cell::new(col, row);
            if !board.exists(cell) {
                out.push_str("    ");
                continue;
            }
            let gold = if board.is_land(cell) && game.items_at(cell).has_gold() {
                '$'
            } else {
                ' '
            };
            let _ = write!(
                out,
                "{}{}{}",
                tile_code(game, cell),
                occupant(game, cell),
                gold
            );
        }
        let _ = writeln!(out, "{:>3}", row + 1);
    }
    let _ = writeln!(out, "    {header}");
    for team in game.teams() {
        let mut units = Vec::new();
        for u in game.units().iter().filter(|u| u.team == team) {
            let at = match u.place {
                Place::Land { cell, step } if step > 0 => format!("{cell}:{step}"),
                Place::Land { cell, .. } => cell.to_string(),
                Place::Swim(cell) => format!("{cell} swimming"),
                Place::Aboard(v) => format!("{} aboard", game.vessel(v).cell),
                Place::Tunnel(cell) => format!("tunnel ({cell})"),
                Place::Dead => "dead".into(),
            };
            let mut flags = String::new();
            if u.drunk {
                flags.push_str(" drunk");
            }
            if u.trapped {
                flags.push_str(" trapped");
            }
            if u.seat.is_some() {
                flags.push_str(" seated");
            }
            units.push(format!("{}@{at}{flags}", u.kind));
        }
        let _ = writeln!(
            out,
            "team {team}: score {:>2}  {}",
            game.score(team),
            units.join(", ")
        );
    }
    let items: Vec<String> = board
        .land_cells()
        .filter(|c| !game.items_at(*c).is_empty())
        .map(|c| format!("{c}: {}", game.items_at(c).list()))
        .collect();
    if !items.is_empty() {
        let _ = writeln!(out, "items: {}", items.join("; "));
    }
    let _ = writeln!(out, "gold in play: {}", game.gold_in_play());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Settings};

    #[test]
    fn draws_every_row_and_the_ships() {
        let settings = Settings {
            board_size: 5,
            tile_pack: Pack::Classic,
            ..Settings::default()
        };
        let g = Game::new(settings, 1).unwrap();
        let text = render(&g);
        assert_eq!(text.lines().filter(|l| l.starts_with("  ")).count(), 5 + 2);
        assert!(text.contains("S1"));
        assert!(text.contains("S2"));
        assert!(text.contains("team 1: score  0  1@c1 aboard"));
    }
}
