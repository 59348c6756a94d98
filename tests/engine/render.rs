//! The board picture, tested by decoding the PNG: dimensions, opacity, probe
//! pixels (a tile's tint, a unit's team colour, the highlight, the path), and a byte budget.
//! No golden bytes: anti-aliasing and deflate output change with crate upgrades.
//!
//! Set JACKAL_RENDER_DIR to a folder to also write every picture there for a person to look
//! at.

use image::{Rgb, RgbImage};
use jackal::engine::mapgen::SplitMix64;
use jackal::engine::{Board, Cell, Game, Pack, Players, Settings, Team};
use jackal::render::layout::{Layout, SIZE};
use jackal::render::style::{self, HIGHLIGHT, PATH};
use jackal::render::{self, Lang, RenderOptions};

/// The size and time budget of a 1024×1024 picture.
const MAX_BYTES: usize = 100 * 1024;

/// A real classic game after up to `plies` random legal actions, and its last path.
fn midgame(size: u8, players: Players, seed: u64, plies: usize) -> (Game, Vec<Cell>) {
    let settings = Settings {
        board_size: size,
        players,
        tile_pack: Pack::Classic,
        ..Settings::default()
    };
    let mut game = Game::new(settings, seed).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut path = Vec::new();
    for _ in 0..plies {
        let legal = game.legal_actions();
        if game.is_over() || legal.is_empty() {
            break;
        }
        let action = legal[rng.pick(legal.len())].action;
        let p = render::path_of(&game.play(&action).unwrap());
        if !p.is_empty() {
            path = p;
        }
    }
    (game, path)
}

/// The position a scenario reaches and the path of its last move.
fn scenario(text: &str) -> (Game, Vec<Cell>) {
    let (game, played) = jackal::scenario::position_after_plays(text).unwrap();
    let path = played
        .iter()
        .rev()
        .map(|events| render::path_of(events))
        .find(|p| !p.is_empty())
        .unwrap_or_default();
    (game, path)
}

/// Renders, checks what every picture must satisfy, optionally saves, and decodes.
fn picture(name: &str, game: &Game, options: &RenderOptions) -> RgbImage {
    let png = render::render(game, options);
    assert!(png.len() <= MAX_BYTES, "{name}: {} bytes", png.len());
    if let Ok(dir) = std::env::var("JACKAL_RENDER_DIR") {
        std::fs::write(format!("{dir}/{name}.png"), &png).unwrap();
    }
    let decoded = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap();
    // Opaque: no alpha channel at all.
    assert!(!decoded.color().has_alpha(), "{name} has alpha");
    let img = decoded.to_rgb8();
    assert_eq!(img.dimensions(), (SIZE, SIZE), "{name}");
    img
}

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

/// Colours survive the 256-colour palette up to a small rounding.
fn close(a: Rgb<u8>, b: Rgb<u8>) -> bool {
    a.0.iter()
        .zip(b.0)
        .all(|(x, y)| (*x as i32 - y as i32).abs() <= 12)
}

fn at(img: &RgbImage, (x, y): (f32, f32)) -> Rgb<u8> {
    *img.get_pixel(x as u32, y as u32)
}

#[test]
fn mid_game_13x13_fits_the_budget() {
    let (game, path) = midgame(13, Players::Four, 7, 80);
    assert!(
        game.ply() >= 40,
        "the game ended too early to be a mid-game"
    );
    let options = RenderOptions {
        path,
        ..RenderOptions::default()
    };
    picture("midgame-13", &game, &options);
}

#[test]
fn probes_tint_unit_colour_highlight_and_path() {
    // Team 1's pirate 1 alone on an empty tile, an empty tile with nothing on it, a
    // highlighted cell and a path.
    let (game, _) =
        scenario("tile e5 fog chest1\ntile d4 trap\nunit 1.1 f4\nunit 2.1 g10\nunit 2.2 h10\n");
    let layout = Layout::new(game.board());
    let options = RenderOptions {
        highlights: vec![cell("c3")],
        path: vec![cell("f3"), cell("f4")],
        lang: Lang::En,
        move_number: None,
    };
    let img = picture("probes", &game, &options);

    let empty = style::tile_tint(jackal::engine::TileKind::Empty);
    let centre = layout.cell_centre(cell("h5"));
    assert!(close(at(&img, centre), empty), "{:?}", at(&img, centre));

    // The token is centred in its cell; left of centre is inside the disc and clear of the id.
    let (cx, cy) = layout.cell_centre(cell("f4"));
    let on_disc = (cx - layout.cell as f32 * 0.15, cy);
    assert!(
        close(at(&img, on_disc), style::team_colour(Team::of(1))),
        "{:?}",
        at(&img, on_disc)
    );

    let r = layout.cell_rect(cell("c3"));
    let edge = (r.x + 1.0, r.y + r.h / 2.0);
    assert!(close(at(&img, edge), HIGHLIGHT), "{:?}", at(&img, edge));
    let r = layout.cell_rect(cell("f4"));
    assert!(close(at(&img, (r.x + 1.0, r.y + 1.0)), PATH));
}

#[test]
fn crowded_maze_two_teams() {
    let (game, path) = scenario(
        "players 2\n\
         tile f6 maze5\ntile d10 fog chest2\n\
         unit 1.1 f6 step 1\nunit 1.2 f6 step 1\nunit 1.3 f6 step 2 drunk\n\
         unit 2.1 f6 step 3\nunit 2.2 f6 step 4\nunit 2.3 f6 step 5\n\
         item f6 step 5 coin 3\n\
         play 1 f6\n",
    );
    let layout = Layout::new(game.board());
    let img = picture(
        "crowded-maze",
        &game,
        &RenderOptions {
            path,
            ..RenderOptions::default()
        },
    );
    // Both team colours show inside the maze cell.
    let r = layout.cell_rect(cell("f6"));
    let mut seen = [false; 2];
    for y in r.y as u32..(r.y + r.h) as u32 {
        for x in r.x as u32..(r.x + r.w) as u32 {
            for (i, team) in [Team::of(1), Team::of(2)].into_iter().enumerate() {
                seen[i] |= *img.get_pixel(x, y) == style::team_colour(team)
                    || close(*img.get_pixel(x, y), style::team_colour(team));
            }
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn small_5x5_map() {
    let (game, path) = midgame(5, Players::Two, 3, 12);
    let img = picture(
        "map-5",
        &game,
        &RenderOptions {
            path,
            ..RenderOptions::default()
        },
    );
    // The missing corner a1 (R-BOARD-3) is background, not sea.
    let layout = Layout::new(Board::new(5).unwrap());
    let (x, y) = layout.cell_centre(cell("a1"));
    assert!(close(at(&img, (x, y)), style::BACKGROUND));
    let (x, y) = layout.cell_centre(cell("c1"));
    assert!(!close(at(&img, (x, y)), style::BACKGROUND));
}

/// Every classic tile kind in one scenario position.
#[test]
fn every_classic_tile_kind() {
    let (game, path) = scenario(
        "board 9\nplayers 4\n\
         tile c3 arrow n\ntile d3 arrow ne\ntile e3 arrow ne+sw\ntile f3 arrow e+w\ntile g3 arrow nw+e+s\n\
         tile c4 arrow n+e+s+w\ntile d4 arrow ne+se+sw+nw\ntile e4 horse\ntile f4 ice\ntile g4 maze2\n\
         tile b5 maze3\ntile c5 maze4\ntile d5 maze5\ntile e5 trap\ntile f5 crocodile\ntile g5 cannibal\n\
         tile h5 fortress\ntile c6 resfort\ntile d6 chest3\ntile e6 barrel\ntile f6 cannon e\n\
         tile g6 balloon\ntile h6 plane\ntile c7 fog chest1\ntile d7 cannon s\ntile e7 plane used\n\
         tile f7 arrow w\ntile g7 arrow sw\ntile h4 empty\n\
         unit 1.1 e5 trapped\nunit 1.2 d6\nunit 1.3 e6 drunk\n\
         unit 2.1 h6 pilot\nunit 2.2 h6 passenger\nunit 2.3 h5\n\
         item d6 coin 3\nitem h4 coin\n\
         ship 3 e9\nunit 3.1 b8\nunit 3.2 a7\nunit 3.3 e9\n\
         unit 4.1 c5 step 2\n",
    );
    picture(
        "tile-kinds",
        &game,
        &RenderOptions {
            path,
            lang: Lang::Ru,
            ..RenderOptions::default()
        },
    );
}

/// Every kind the expansion brings, on one 13×13 board of four teams: its tiles (waiting and
/// used), Ben Gunn, Friday, a converted missionary in the plane, drunk, trapped and stuck units,
/// boats, a sunk ship and a hit one, items of every kind on land and aboard, rum stocks, and a
/// weed turn. Within the byte budget; the boat on b12 in its team's colour, and no ship on the
/// slot of the sunk one.
#[test]
fn every_expansion_kind() {
    let (game, path) = scenario(
        "players 4\n\
         set destroying_ships = on\n\
         set plane_seats = two\n\
         tile c3 arrow n\n\
         tile d3 arrow ne+sw\n\
         tile e3 arrow e+w\n\
         tile f3 arrow nw+e+s\n\
         tile g3 arrow n+e+s+w\n\
         tile h3 arrow ne+se+sw+nw\n\
         tile i3 horse\n\
         tile j3 ice\n\
         tile k3 crocodile\n\
         tile c4 maze2\n\
         tile d4 maze3\n\
         tile e4 maze4\n\
         tile f4 maze5\n\
         tile g4 trap\n\
         tile h4 cannibal\n\
         tile i4 fortress\n\
         tile j4 resfort\n\
         tile k4 barrel\n\
         tile c5 chest1\n\
         tile d5 chest5\n\
         tile e5 bullion\n\
         tile f5 cannon n\n\
         tile g5 cannon e\n\
         tile h5 cannon s\n\
         tile i5 cannon w\n\
         tile j5 balloon\n\
         tile k5 plane\n\
         tile c6 plane used\n\
         tile d6 lighthouse\n\
         tile e6 bengunn\n\
         tile f6 friday\n\
         tile g6 missionary used\n\
         tile h6 bottles1\n\
         tile i6 bottles2\n\
         tile j6 bottles3\n\
         tile k6 cave\n\
         tile c7 earthquake\n\
         tile d7 jungle\n\
         tile e7 weed\n\
         tile f7 caramba\n\
         tile g7 boat\n\
         tile h7 cart\n\
         tile i7 ball\n\
         tile j7 bengunn used\n\
         tile k7 cave\n\
         tile c8, d8, e8, f8, g8, h8 fog empty\n\
         tile i8 fog chest3\n\
         unit 1.1 g4 trapped\n\
         unit 1.2 d4 step 2\n\
         unit 1.3 k5 pilot\n\
         unit 1.m k5 passenger converted\n\
         unit 2.1 k4 drunk\n\
         unit 2.2 k6 stuck\n\
         unit 2.3 a9\n\
         unit 2.b d7\n\
         unit 3.1 d7\n\
         unit 3.2 m3\n\
         unit 3.f j9\n\
         unit 4.1 f4 step 5\n\
         unit 4.2 i4\n\
         unit 4.3 m7\n\
         ship 1 g1 hits 1\n\
         ship 3 sunk\n\
         boat 2 a9\n\
         boat 3 b12\n\
         item d5 coin 3\n\
         item e5 bar\n\
         item c5 coin\n\
         item f4 step 5 coin 2\n\
         item g7 boat\n\
         item h7 cart\n\
         item i7 ball\n\
         item h10 ball\n\
         item a9 cart\n\
         rum 1 = 2\n\
         rum 2 = 1\n\
         rum 4 = 3\n\
         score 2 = 5\n\
         score 4 = 3\n\
         weed 3\n\
         turn 2\n",
    );
    assert_ne!(game.controller(), game.turn(), "a weed turn");
    let layout = Layout::new(game.board());
    for lang in [Lang::En, Lang::Ru] {
        let img = picture(
            &format!("expansion-kinds-{lang:?}"),
            &game,
            &RenderOptions {
                path: path.clone(),
                lang,
                ..RenderOptions::default()
            },
        );
        // The boat's plate is a light tint of team 3's green.
        let r = layout.cell_rect(cell("b12"));
        let Rgb([red, green, blue]) = at(&img, (r.x + r.w * 0.2, r.y + r.h * 0.5));
        assert!(green > red + 40 && green > blue, "{red} {green} {blue}");
        let slot = layout.cell_centre(cell("g13"));
        assert!(
            !close(at(&img, slot), style::team_colour(Team::of(3))),
            "a sunk ship is drawn"
        );
    }
}

#[test]
fn the_cli_renders_a_scenario_file() {
    let dir = std::env::temp_dir().join(format!("jackal-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scn = dir.join("pos.scn");
    std::fs::write(&scn, "board 7\ntile d3 fog chest2\nplay 1 d2\n").unwrap();
    let out = dir.join("board.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["render", "--scenario"])
        .arg(&scn)
        .arg("-o")
        .arg(&out)
        .args(["--lang", "ru", "--highlight", "c3,d3"])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let img = image::open(&out).unwrap();
    assert_eq!((img.width(), img.height()), (SIZE, SIZE));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every icon shipped has a row in assets/LICENSES.md, every row names a shipped icon, and the
/// credit line the bot shows names every author of those rows (CC BY asks for attribution).
#[test]
fn every_icon_is_licensed_and_its_author_credited() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let licences = std::fs::read_to_string(root.join("assets/LICENSES.md")).unwrap();
    let mut rows = std::collections::BTreeMap::new();
    for line in licences.lines() {
        let Some(rest) = line.strip_prefix("| `assets/icons/") else {
            continue;
        };
        let (file, rest) = rest
            .split_once("` | ")
            .expect("a file cell, then the author");
        let author = rest
            .split_once(" (game-icons.net)")
            .expect("the author cell names game-icons.net")
            .0;
        rows.insert(file.to_string(), author.to_string());
    }
    let mut shipped: Vec<String> = std::fs::read_dir(root.join("assets/icons"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".svg"))
        .collect();
    shipped.sort();
    assert_eq!(rows.keys().cloned().collect::<Vec<_>>(), shipped);
    // The credit line is the help's footer, in each language (`help-credits`).
    for lang in jackal::words::Lang::ALL {
        let credits = jackal::words::format(lang, "help-credits", None);
        for (file, author) in &rows {
            assert!(
                credits.contains(author.as_str()),
                "{file}: the {lang:?} credit line does not name {author}"
            );
        }
    }
}

/// The header counts moves as players do when told (a move through choices is one number):
/// the given number changes the header and nothing below it; without one it counts plies.
#[test]
fn the_header_shows_the_move_number_it_is_given() {
    let (game, _) = midgame(9, Players::Two, 5, 12);
    let plies = picture("header-plies", &game, &RenderOptions::default());
    let told = picture(
        "header-told",
        &game,
        &RenderOptions {
            move_number: Some(game.ply() + 40),
            ..RenderOptions::default()
        },
    );
    let header_rows = 56;
    // (The palette is chosen per picture: colours below the header may shift by a shade.)
    let differs = |from: u32, to: u32| {
        (from..to).any(|y| (0..SIZE).any(|x| !close(*plies.get_pixel(x, y), *told.get_pixel(x, y))))
    };
    assert!(differs(0, header_rows), "the header did not change");
    assert!(!differs(header_rows, SIZE), "the board changed");
}
