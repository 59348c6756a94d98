//! The players' rules guide behind `/jackal rules [topic]`: a short text per tile, unit and
//! rule, in English and Russian.
//!
//! The texts live in `docs/guide/en.md` and `docs/guide/ru.md` so that they can be read and
//! edited as documents; they are embedded at build time (the bot reads no files at run time)
//! and parsed once. Each topic is a `## id | Title` line and the Markdown under it; anything
//! above the first topic is a note for editors. A malformed file is a defect of the build,
//! caught by this module's tests, so parsing panics with the file's name rather than
//! returning an error nobody could act on.

use std::sync::LazyLock;

use crate::engine::TileKind;
use crate::render::Lang;

/// One topic of the guide, in one language. The `id` is the same in every language.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Topic {
    pub id: &'static str,
    pub title: &'static str,
    pub body: &'static str,
}

/// Discord allows 4,096 characters in an embed description; the guide keeps each topic
/// short enough to read on a phone.
pub const MAX_BODY_CHARS: usize = 1500;
/// Discord's limit for an autocomplete choice's name, which shows the title.
pub const MAX_TITLE_CHARS: usize = 100;
/// Discord shows at most 25 autocomplete choices.
pub const MAX_SEARCH_RESULTS: usize = 25;

static EN: LazyLock<Vec<Topic>> =
    LazyLock::new(|| parse("docs/guide/en.md", include_str!("../docs/guide/en.md")));
static RU: LazyLock<Vec<Topic>> =
    LazyLock::new(|| parse("docs/guide/ru.md", include_str!("../docs/guide/ru.md")));

/// Splits a guide file into its topics, keeping slices of the embedded text.
fn parse(file: &str, text: &'static str) -> Vec<Topic> {
    let mut headings = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("## ") {
            headings.push(offset);
        }
        offset += line.len();
    }
    headings.push(text.len());
    headings
        .windows(2)
        .map(|w| {
            let section = &text[w[0]..w[1]];
            let (heading, body) = section.split_once('\n').unwrap_or((section, ""));
            let (id, title) = heading["## ".len()..]
                .split_once(" | ")
                .unwrap_or_else(|| panic!("{file}: `{heading}` is not `## id | Title`"));
            Topic {
                id: id.trim(),
                title: title.trim(),
                body: body.trim(),
            }
        })
        .collect()
}

/// Every topic in `lang`, in the guide's order (general topics first, then units and tiles).
pub fn topics(lang: Lang) -> &'static [Topic] {
    match lang {
        Lang::En => &EN,
        Lang::Ru => &RU,
    }
}

/// The topic with this id (as typed: surrounding spaces and case do not matter).
pub fn topic(lang: Lang, id: &str) -> Option<&'static Topic> {
    let id = id.trim();
    topics(lang).iter().find(|t| t.id.eq_ignore_ascii_case(id))
}

/// Topics for autocomplete, in `lang`: those whose id or title in either language starts
/// with `typed`, then those that contain it elsewhere, each group in the guide's order.
/// Case does not matter, nor ё against е (most Russian keyboards type «лед» for «лёд»).
/// Nothing typed gives the first topics.
pub fn search(lang: Lang, typed: &str) -> Vec<&'static Topic> {
    let typed = fold(typed.trim());
    let other = match lang {
        Lang::En => Lang::Ru,
        Lang::Ru => Lang::En,
    };
    // Both files hold the same ids in the same order (tested), so topics pair by position.
    let keys = |t: &Topic, u: &Topic| [fold(t.id), fold(t.title), fold(u.title)];
    let mut prefix = Vec::new();
    let mut inside = Vec::new();
    for (t, u) in topics(lang).iter().zip(topics(other)) {
        let keys = keys(t, u);
        if keys.iter().any(|k| k.starts_with(&typed)) {
            prefix.push(t);
        } else if keys.iter().any(|k| k.contains(&typed)) {
            inside.push(t);
        }
    }
    prefix.extend(inside);
    prefix.truncate(MAX_SEARCH_RESULTS);
    prefix
}

fn fold(text: &str) -> String {
    text.to_lowercase().replace('ё', "е")
}

/// The id of the topic that explains a tile kind. The match is exhaustive so that a new
/// kind cannot be added to the engine without a place in the guide.
pub fn tile_topic(kind: TileKind) -> &'static str {
    match kind {
        TileKind::Empty => "empty",
        TileKind::Arrow(_) => "arrow",
        TileKind::Horse => "horse",
        TileKind::Ice => "ice",
        TileKind::Maze(_) => "maze",
        TileKind::Trap => "trap",
        TileKind::Crocodile => "crocodile",
        TileKind::Cannibal => "cannibal",
        TileKind::Fortress => "fortress",
        TileKind::ResFort => "resfort",
        TileKind::Chest(_) => "chest",
        TileKind::Bullion => "bullion",
        TileKind::Barrel => "barrel",
        TileKind::Cannon(_) => "cannon",
        TileKind::Balloon => "balloon",
        TileKind::Plane => "plane",
        TileKind::Lighthouse => "lighthouse",
        TileKind::BenGunn => "bengunn",
        TileKind::Friday => "friday",
        TileKind::Missionary => "missionary",
        TileKind::Bottles(_) => "bottles",
        TileKind::Cave => "cave",
        TileKind::Earthquake => "earthquake",
        TileKind::Jungle => "jungle",
        TileKind::Weed => "weed",
        TileKind::Caramba => "caramba",
        TileKind::BoatTile => "boat",
        TileKind::CartTile => "cart",
        TileKind::BallTile => "ball",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Pack;
    use crate::engine::board::Board;
    use crate::engine::notation;

    const LANGS: [Lang; 2] = [Lang::En, Lang::Ru];

    fn ids(lang: Lang) -> Vec<&'static str> {
        topics(lang).iter().map(|t| t.id).collect()
    }

    /// Every tile kind a pack can deal, the caramba (which only custom packs hold) included.
    fn all_tile_kinds() -> Vec<TileKind> {
        let mut kinds = Pack::full().tiles();
        kinds.push(TileKind::Caramba);
        kinds.dedup();
        kinds
    }

    #[test]
    fn both_languages_have_the_same_topics_in_the_same_order() {
        assert!(ids(Lang::En).len() >= 30, "{:?}", ids(Lang::En));
        assert_eq!(ids(Lang::En), ids(Lang::Ru));
        let mut unique = ids(Lang::En);
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids(Lang::En).len(), "an id appears twice");
    }

    #[test]
    fn every_topic_fits_discord() {
        for lang in LANGS {
            for t in topics(lang) {
                let id_ok = !t.id.is_empty()
                    && t.id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
                assert!(id_ok, "{lang:?}: bad id `{}`", t.id);
                assert!(!t.title.is_empty(), "{lang:?} {}: no title", t.id);
                assert!(!t.body.is_empty(), "{lang:?} {}: no text", t.id);
                let title = t.title.chars().count();
                let body = t.body.chars().count();
                assert!(title <= MAX_TITLE_CHARS, "{lang:?} {}: title {title}", t.id);
                assert!(
                    body <= MAX_BODY_CHARS,
                    "{lang:?} {}: {body} characters",
                    t.id
                );
            }
        }
    }

    /// Discord renders bold, italics, lists and code in an embed; tables, images and HTML
    /// would show as raw text, and rule ids mean nothing to players.
    #[test]
    fn bodies_are_plain_player_text() {
        for lang in LANGS {
            for t in topics(lang) {
                for line in t.body.lines() {
                    let bad = line.starts_with('#')
                        || line.starts_with('|')
                        || line.contains("![")
                        || line.contains('<');
                    assert!(!bad, "{lang:?} {}: `{line}`", t.id);
                }
                let cites_rule = ["R-", "D-", "N-"].iter().any(|p| {
                    t.body.match_indices(p).any(|(i, _)| {
                        t.body[i + p.len()..]
                            .starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit())
                    })
                });
                assert!(!cites_rule, "{lang:?} {}: cites a rule id", t.id);
            }
        }
    }

    #[test]
    fn every_tile_kind_has_a_topic() {
        for kind in all_tile_kinds() {
            for lang in LANGS {
                assert!(
                    topic(lang, tile_topic(kind)).is_some(),
                    "{lang:?}: no topic for {kind}"
                );
            }
        }
    }

    /// A tile the classic pack does not deal says which tile set has it: the full set (the
    /// default), or only a custom one (the caramba, which neither standard set deals).
    #[test]
    fn tiles_outside_the_classic_pack_are_marked() {
        let classic = Pack::Classic.tiles();
        let full = Pack::Full.tiles();
        let notes = [
            (
                Lang::En,
                "*Full tile set only (the default); the classic set doesn't have it.*",
                "*Custom tile sets only.*",
            ),
            (
                Lang::Ru,
                "*Только в полном наборе клеток (он по умолчанию); в классическом этого нет.*",
                "*Только в собранных вручную наборах.*",
            ),
        ];
        for kind in all_tile_kinds() {
            for (lang, full_only, custom_only) in notes {
                let Some(t) = topic(lang, tile_topic(kind)) else {
                    panic!("{lang:?}: no topic for {kind}");
                };
                let expected = if classic.contains(&kind) {
                    None
                } else if full.contains(&kind) {
                    Some(full_only)
                } else {
                    Some(custom_only)
                };
                let found = [full_only, custom_only]
                    .into_iter()
                    .find(|note| t.body.ends_with(note));
                assert_eq!(found, expected, "{lang:?} {}: the tile set note", t.id);
            }
        }
    }

    /// Every move written in the guide is one the bot would read.
    #[test]
    fn example_moves_are_valid_notation() {
        let board = Board::new(13).expect("13 is a board size");
        for lang in LANGS {
            for t in topics(lang) {
                let spans = t.body.split('`').skip(1).step_by(2);
                for example in spans.filter(|s| s.contains(' ')) {
                    assert!(
                        notation::parse(example, board).is_ok(),
                        "{lang:?} {}: `{example}` is not a move",
                        t.id
                    );
                }
            }
        }
    }

    #[test]
    fn topics_are_found_by_id() {
        for lang in LANGS {
            assert_eq!(topic(lang, "arrow").map(|t| t.id), Some("arrow"));
            assert_eq!(topic(lang, " Plane ").map(|t| t.id), Some("plane"));
            assert_eq!(topic(lang, "dragon"), None);
            assert_eq!(topic(lang, ""), None);
        }
        assert_eq!(topic(Lang::Ru, "arrow").map(|t| t.title), Some("Стрелки"));
    }

    fn found(lang: Lang, typed: &str) -> Vec<&'static str> {
        search(lang, typed).iter().map(|t| t.id).collect()
    }

    #[test]
    fn search_matches_ids_and_titles_in_either_language() {
        assert_eq!(found(Lang::En, "arr").first(), Some(&"arrow"));
        assert_eq!(found(Lang::Ru, "стр").first(), Some(&"arrow"));
        assert_eq!(found(Lang::Ru, "СТР").first(), Some(&"arrow"));
        // A Russian title asked for in English gives the English topic.
        let croc = search(Lang::En, "крок");
        assert_eq!(croc.first().map(|t| t.title), Some("Crocodile"));
        assert_eq!(found(Lang::Ru, "horse"), ["horse"]);
        // ё typed as е.
        assert_eq!(found(Lang::Ru, "лед"), ["ice"]);
        assert!(found(Lang::En, "xyzzy").is_empty());
    }

    #[test]
    fn search_puts_prefix_matches_first() {
        // "fortress" starts the fortress topic and only appears inside the other one's title.
        assert_eq!(found(Lang::En, "fortress"), ["fortress", "resfort"]);
        let everything = found(Lang::En, "");
        assert_eq!(everything.len(), MAX_SEARCH_RESULTS);
        assert_eq!(everything, ids(Lang::En)[..MAX_SEARCH_RESULTS]);
    }
}
