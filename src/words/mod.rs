//! Every word a player reads, in English and Russian (DESIGN §7): Project Fluent files in
//! `assets/locales/{en,ru}/`, embedded in the binary and parsed once.
//!
//! Texts are asked for by message id with [`tr!`]; numbers passed as arguments choose their
//! plural form by the language's own rules (1 монета, 2 монеты, 5 монет). The Discord layer
//! words its posts, replies and DMs here; the terminal game words its narration here too (in
//! English), so a move is told the same way everywhere.

pub mod narrate;

use std::borrow::Cow;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

pub use fluent_bundle::FluentValue;

/// A language the bot speaks.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// `en` or `ru`, in any case, alone or as a locale's language (`en-US`, `ru_RU`, as Discord
    /// locales are written).
    pub fn parse(text: &str) -> Option<Lang> {
        let language = text.split(['-', '_']).next()?;
        match language.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The code stored in the database and used in file names.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Ru => 1,
        }
    }
}

/// The Fluent sources of one language, in the order they are added to its bundle.
struct Sources {
    lang: Lang,
    files: &'static [(&'static str, &'static str)],
}

const SOURCES: [Sources; 2] = [
    Sources {
        lang: Lang::En,
        files: &[
            (
                "en/narration.ftl",
                include_str!("../../assets/locales/en/narration.ftl"),
            ),
            (
                "en/bot.ftl",
                include_str!("../../assets/locales/en/bot.ftl"),
            ),
            (
                "en/commands.ftl",
                include_str!("../../assets/locales/en/commands.ftl"),
            ),
        ],
    },
    Sources {
        lang: Lang::Ru,
        files: &[
            (
                "ru/narration.ftl",
                include_str!("../../assets/locales/ru/narration.ftl"),
            ),
            (
                "ru/bot.ftl",
                include_str!("../../assets/locales/ru/bot.ftl"),
            ),
            (
                "ru/commands.ftl",
                include_str!("../../assets/locales/ru/commands.ftl"),
            ),
        ],
    },
];

type Bundle = FluentBundle<FluentResource>;

static BUNDLES: LazyLock<Vec<Bundle>> = LazyLock::new(|| SOURCES.iter().map(bundle).collect());

/// The bundle of one language. The files are part of the binary, so a syntax error in them
/// is a defect that `tests::every_file_parses` catches, not a condition to handle at run time.
fn bundle(sources: &Sources) -> Bundle {
    let locale = sources
        .lang
        .code()
        .parse()
        .expect("en and ru are valid language ids");
    let mut bundle = FluentBundle::new_concurrent(vec![locale]);
    // Fluent wraps every placeable in Unicode isolation marks by default; in Discord they
    // would break mentions (`<@…>`) and timestamps (`<t:…>`) and show up in copied text.
    bundle.set_use_isolating(false);
    for (name, text) in sources.files {
        let resource = FluentResource::try_new(text.to_string())
            .unwrap_or_else(|(_, errors)| panic!("{name} does not parse: {errors:?}"));
        bundle
            .add_resource(resource)
            .unwrap_or_else(|errors| panic!("{name} redefines messages: {errors:?}"));
    }
    bundle
}

fn bundle_of(lang: Lang) -> &'static Bundle {
    &BUNDLES[lang.index()]
}

/// The text of message `id` (or its attribute `id.attr`) with `args`. A missing message is
/// logged and its id returned: the tests check that every id the code uses exists in both
/// languages, so this is only a safety net.
pub fn format(lang: Lang, id: &str, args: Option<&FluentArgs>) -> String {
    let bundle = bundle_of(lang);
    let (name, attribute) = match id.split_once('.') {
        Some((name, attribute)) => (name, Some(attribute)),
        None => (id, None),
    };
    let pattern = bundle.get_message(name).and_then(|m| match attribute {
        Some(a) => m.get_attribute(a).map(|a| a.value()),
        None => m.value(),
    });
    let Some(pattern) = pattern else {
        tracing::warn!(id, lang = lang.code(), "no such Fluent message");
        return id.to_string();
    };
    let mut errors = Vec::new();
    let text: Cow<str> = bundle.format_pattern(pattern, args, &mut errors);
    if !errors.is_empty() {
        tracing::warn!(id, lang = lang.code(), ?errors, "Fluent formatting errors");
    }
    text.into_owned()
}

/// Does message `id` (or `id.attr`) exist in `lang`?
pub fn has(lang: Lang, id: &str) -> bool {
    let bundle = bundle_of(lang);
    match id.split_once('.') {
        Some((name, attribute)) => bundle
            .get_message(name)
            .is_some_and(|m| m.get_attribute(attribute).is_some()),
        None => bundle.get_message(id).is_some_and(|m| m.value().is_some()),
    }
}

/// `tr!(lang, "message-id")` or `tr!(lang, "message-id", name = value, …)`: the text of a
/// Fluent message. Values are anything `FluentValue` converts from (numbers choose plural
/// forms, strings are inserted as they are).
#[macro_export]
macro_rules! tr {
    ($lang:expr, $id:expr) => {
        $crate::words::format($lang, $id, None)
    };
    ($lang:expr, $id:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::words::Args::new();
        $( args.set(stringify!($name), $crate::words::FluentValue::from($value)); )+
        $crate::words::format($lang, $id, Some(&args))
    }};
}

pub use fluent_bundle::FluentArgs as Args;

/// A team in a sentence is its number ("team 2"); names are the caller's ([`narrate::Teams`]).
impl From<crate::engine::Team> for FluentValue<'_> {
    fn from(team: crate::engine::Team) -> Self {
        FluentValue::from(team.number())
    }
}

/// A game in a sentence is its number ("game #12").
impl From<crate::id::GameId> for FluentValue<'_> {
    fn from(game: crate::id::GameId) -> Self {
        FluentValue::from(game.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every message id and attribute (`id.attr`) of a language.
    fn ids(lang: Lang) -> BTreeSet<String> {
        let sources = &SOURCES[lang.index()];
        let mut out = BTreeSet::new();
        for (_, text) in sources.files {
            let resource = FluentResource::try_new(text.to_string()).expect("parses");
            for entry in resource.entries() {
                if let fluent_syntax::ast::Entry::Message(m) = entry {
                    out.insert(m.id.name.to_string());
                    for a in &m.attributes {
                        out.insert(format!("{}.{}", m.id.name, a.id.name));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_file_parses() {
        for sources in &SOURCES {
            for (name, text) in sources.files {
                if let Err((_, errors)) = FluentResource::try_new(text.to_string()) {
                    panic!("{name}: {errors:?}");
                }
            }
        }
        assert_eq!(BUNDLES.len(), 2);
    }

    #[test]
    fn both_languages_have_the_same_messages() {
        let en = ids(Lang::En);
        let ru = ids(Lang::Ru);
        let only_en: Vec<_> = en.difference(&ru).collect();
        let only_ru: Vec<_> = ru.difference(&en).collect();
        assert!(
            only_en.is_empty() && only_ru.is_empty(),
            "only in English: {only_en:?}\nonly in Russian: {only_ru:?}"
        );
    }

    /// Every literal id passed to `tr!` in the sources exists (in English; the test above
    /// makes Russian follow).
    #[test]
    fn every_id_the_code_uses_exists() {
        let known = ids(Lang::En);
        let mut missing = Vec::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("src is readable") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("readable");
                    // Examples in comments are not uses.
                    let code: String = text
                        .lines()
                        .filter(|l| !l.trim_start().starts_with("//"))
                        .collect::<Vec<_>>()
                        .join("\n");
                    for id in used_ids(&code) {
                        if !known.contains(&id) {
                            missing.push(format!("{}: {id}", path.display()));
                        }
                    }
                }
            }
        }
        assert!(missing.is_empty(), "unknown Fluent ids: {missing:#?}");
    }

    /// The literal first arguments after the language in `tr!(…, "id"…)` calls.
    fn used_ids(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("tr!(") {
            rest = &rest[at + 4..];
            // Skip the language expression: up to the first comma at depth 0.
            let mut depth = 0;
            let mut end = None;
            for (i, c) in rest.char_indices() {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth == 0 => break,
                    ')' | ']' | '}' => depth -= 1,
                    ',' if depth == 0 => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(end) = end else { continue };
            let after = rest[end + 1..].trim_start();
            if let Some(literal) = after.strip_prefix('"')
                && let Some(close) = literal.find('"')
            {
                out.push(literal[..close].to_string());
            }
        }
        out
    }

    #[test]
    fn russian_plurals() {
        let coins = |n: u32| tr!(Lang::Ru, "item-coin", count = n);
        assert_eq!(coins(1), "1 монета");
        assert_eq!(coins(2), "2 монеты");
        assert_eq!(coins(5), "5 монет");
        assert_eq!(coins(21), "21 монета");
        assert_eq!(coins(12), "12 монет");
        assert_eq!(tr!(Lang::En, "item-coin", count = 1), "1 coin");
        assert_eq!(tr!(Lang::En, "item-coin", count = 3), "3 coins");
    }

    #[test]
    fn no_isolation_marks() {
        let text = tr!(Lang::En, "item-coin", count = 2);
        assert!(!text.contains('\u{2068}') && !text.contains('\u{2069}'));
    }

    #[test]
    fn languages_parse_from_discord_locales() {
        assert_eq!(Lang::parse("ru"), Some(Lang::Ru));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("ru_RU"), Some(Lang::Ru));
        assert_eq!(Lang::parse("rubbish"), None);
        assert_eq!(Lang::parse("english"), None);
    }

    #[test]
    fn a_missing_id_comes_back_as_itself() {
        assert_eq!(format(Lang::En, "no-such-message", None), "no-such-message");
        assert!(!has(Lang::En, "no-such-message"));
        assert!(has(Lang::Ru, "item-coin"));
    }
}
