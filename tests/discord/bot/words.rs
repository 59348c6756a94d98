//! The words themselves, checked over every message of `assets/locales/`: nothing a Russian
//! reader sees is left in English, and every number next to a counted noun agrees with it
//! in Russian (1 напоминание, 2 напоминания, 5 напоминаний, 21 напоминание).

use std::collections::BTreeMap;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use jackal::engine::Team;
use jackal::game::end::GameEnd;
use jackal::words::narrate::Numbered;
use jackal::words::{Args, FluentValue, Lang, format};

const FILES: [&str; 3] = ["bot", "commands", "narration"];

/// Every message and attribute of a language: id (`msg` or `msg.attr`) → its pattern's
/// source, and the names of the variables it uses.
fn messages(lang: &str) -> BTreeMap<String, (Pattern<String>, Vec<String>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/locales");
    let mut out = BTreeMap::new();
    for file in FILES {
        let text = std::fs::read_to_string(root.join(lang).join(format!("{file}.ftl")))
            .expect("the file is readable");
        let resource = fluent_syntax::parser::parse(text).expect("the file parses");
        for entry in resource.body {
            let Entry::Message(m) = entry else { continue };
            if let Some(value) = m.value {
                let vars = variables(&value);
                out.insert(m.id.name.clone(), (value, vars));
            }
            for a in m.attributes {
                let vars = variables(&a.value);
                out.insert(format!("{}.{}", m.id.name, a.id.name), (a.value, vars));
            }
        }
    }
    out
}

fn variables(pattern: &Pattern<String>) -> Vec<String> {
    fn inline(e: &InlineExpression<String>, out: &mut Vec<String>) {
        match e {
            InlineExpression::VariableReference { id } if !out.contains(&id.name) => {
                out.push(id.name.clone());
            }
            InlineExpression::Placeable { expression } => expr(expression, out),
            _ => {}
        }
    }
    fn expr(e: &Expression<String>, out: &mut Vec<String>) {
        match e {
            Expression::Inline(i) => inline(i, out),
            Expression::Select { selector, variants } => {
                inline(selector, out);
                for v in variants {
                    walk(&v.value, out);
                }
            }
        }
    }
    fn walk(p: &Pattern<String>, out: &mut Vec<String>) {
        for el in &p.elements {
            if let PatternElement::Placeable { expression } = el {
                expr(expression, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(pattern, &mut out);
    out
}

/// The text of a pattern outside its placeables (what is the same whatever is filled in).
fn literal_text(pattern: &Pattern<String>) -> String {
    pattern
        .elements
        .iter()
        .map(|el| match el {
            PatternElement::TextElement { value } => value.clone(),
            PatternElement::Placeable { .. } => " ".to_string(),
        })
        .collect()
}

/// Russian messages equal to their English ones, on purpose: each with why.
const SAME_IN_BOTH: [(&str, &str); 2] = [
    // The language menu names each language in itself, so a reader who cannot read the
    // other language still finds theirs.
    ("choice-language-en", "a language is named in itself"),
    ("choice-language-ru", "a language is named in itself"),
];

/// Point 5: a Russian reader reads Russian. A message whose Russian text is the English one,
/// letters and all, is a leftover (messages of placeables and signs alone, like
/// `{ $from }–{ $to }`, say nothing in any language).
#[test]
fn no_russian_message_is_left_in_english() {
    let en = messages("en");
    let ru = messages("ru");
    let allowed: Vec<&str> = SAME_IN_BOTH.iter().map(|(id, _)| *id).collect();
    let mut leftovers = Vec::new();
    for (id, (pattern, _)) in &ru {
        let Some((english, _)) = en.get(id) else {
            continue;
        };
        let text = literal_text(pattern);
        let has_words = text.chars().any(char::is_alphabetic);
        if has_words && pattern == english && !allowed.contains(&id.as_str()) {
            leftovers.push(id.clone());
        }
    }
    assert!(leftovers.is_empty(), "left in English: {leftovers:?}");
    for (id, why) in SAME_IN_BOTH {
        assert!(!why.is_empty());
        assert_eq!(ru[id].0, en[id].0, "{id} is no longer the same: drop it");
    }
}

/// Point 5: the help's example move keeps the notation's English words, and says that they
/// are; the credits line is Russian too.
#[test]
fn the_russian_help_explains_the_english_notation() {
    let help = format(Lang::Ru, "help-body", None);
    assert!(help.contains("2 e5 coin"), "{help}");
    assert!(help.contains("coin — монета"), "{help}");
    assert!(!help.contains(" 5d") && !help.contains(" 2d"), "{help}");
    let credits = format(Lang::Ru, "help-credits", None);
    assert!(credits.starts_with("Значки клеток"), "{credits}");
    for author in ["Lorc", "Delapouite", "Skoll", "Willdabeast"] {
        assert!(credits.contains(author), "{credits}");
        assert!(format(Lang::En, "help-credits", None).contains(author));
    }
}

/// A Russian noun's (or a verb's, after its subject's number) three forms for 1, 2 and 5,
/// in each case a message uses it in.
const COUNTED: [[&str; 3]; 31] = [
    ["монета", "монеты", "монет"],
    ["тачка", "тачки", "тачек"],
    ["слиток", "слитка", "слитков"],
    ["ядро", "ядра", "ядер"],
    ["лодка", "лодки", "лодок"],
    ["бутылка", "бутылки", "бутылок"],
    ["день", "дня", "дней"],
    ["дня", "дней", "дней"],
    ["час", "часа", "часов"],
    ["часа", "часов", "часов"],
    ["минута", "минуты", "минут"],
    ["секунда", "секунды", "секунд"],
    ["строка", "строки", "строк"],
    ["игрок", "игрока", "игроков"],
    ["очко", "очка", "очков"],
    ["вариант", "варианта", "вариантов"],
    ["ход", "хода", "ходов"],
    ["хода", "ходов", "ходов"],
    ["шаг", "шага", "шагов"],
    ["шага", "шагов", "шагов"],
    ["напоминание", "напоминания", "напоминаний"],
    ["раз", "раза", "раз"],
    ["игра", "игры", "игр"],
    ["игре", "играх", "играх"],
    ["место", "места", "мест"],
    ["пират", "пирата", "пиратов"],
    ["ступень", "ступени", "ступеней"],
    ["клетка", "клетки", "клеток"],
    ["голос", "голоса", "голосов"],
    ["круг", "круга", "кругов"],
    ["пропуск", "пропуска", "пропусков"],
];

/// The Russian plural form of `n`: 0 one (1, 21…), 1 few (2–4, 22–24…), 2 many (the rest).
fn ru_form(n: u64) -> usize {
    match (n % 10, n % 100) {
        (1, h) if h != 11 => 0,
        (2..=4, h) if !(12..=14).contains(&h) => 1,
        _ => 2,
    }
}

/// Variables that are words (names, cells, lists already in words), not numbers.
const WORD_VARIABLES: [&str; 34] = [
    "team",
    "teams",
    "winners",
    "who",
    "unit",
    "cell",
    "items",
    "cargo",
    "owner",
    "players",
    "place",
    "scores",
    "rules",
    "until",
    "when",
    "deadline",
    "left",
    "allowance",
    "length",
    "reason",
    "summary",
    "setting",
    "why",
    "text",
    "zone",
    "option",
    "permissions",
    "topic",
    "list",
    "init",
    "last",
    "language",
    "action",
    "won",
];

/// Point 15: every Russian message with a number in it, rendered with 1, 2, 5 and 21: each
/// number followed by a counted noun uses the noun's form for that number.
#[test]
fn every_russian_count_agrees_with_its_noun() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (id, (_, vars)) in messages("ru") {
        let numbers: Vec<&String> = vars
            .iter()
            .filter(|v| !WORD_VARIABLES.contains(&v.as_str()))
            .collect();
        if numbers.is_empty() {
            continue;
        }
        for n in [1u64, 2, 5, 21] {
            let mut args = Args::new();
            for v in &vars {
                if WORD_VARIABLES.contains(&v.as_str()) {
                    args.set(v.clone(), FluentValue::from("«слово»"));
                } else {
                    args.set(v.clone(), FluentValue::from(n));
                }
            }
            let text = format(Lang::Ru, &id, Some(&args));
            let words: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || ",;:()·—«»*`!?".contains(c))
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                if pair[0] != n.to_string() {
                    continue;
                }
                // A sentence's full stop is not part of the word.
                let word = pair[1].trim_end_matches('.');
                let cases: Vec<&[&str; 3]> = COUNTED.iter().filter(|f| f.contains(&word)).collect();
                if cases.is_empty() {
                    continue;
                }
                checked += 1;
                if !cases.iter().any(|f| f[ru_form(n)] == word) {
                    wrong.push(format!("{id} with {n}: «{n} {word}» in: {text}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checked > 50, "only {checked} counts were checked");
}

/// Point 15: the reported sentence itself.
#[test]
fn four_reminders_are_four_reminders() {
    let mut a = Args::new();
    a.set("count", 4);
    a.set("max", 3);
    let text = format(Lang::Ru, "err-too-many-reminders", Some(&a));
    assert!(text.contains("4 напоминания"), "{text}");
}

/// Point 15: a subject that is one player takes a verb in the singular; a list of winners
/// takes the verb of its number.
#[test]
fn verbs_agree_with_one_player_or_several() {
    let one = "🟠 <@1>";
    let mut a = Args::new();
    a.set("team", one);
    a.set("length", "2 дня");
    let proposed = format(Lang::Ru, "notice-pause-proposed", Some(&a));
    assert!(proposed.contains("<@1> предлагает "), "{proposed}");
    let team = |n| Team::new(n).expect("a team");
    let ru = Numbered(Lang::Ru);
    let en = Numbered(Lang::En);
    let alone = GameEnd::Resigned {
        team: team(1),
        winners: vec![team(2)],
        timed_out: false,
    };
    let together = GameEnd::Resigned {
        team: team(1),
        winners: vec![team(2), team(4)],
        timed_out: false,
    };
    let said = jackal::game::narrate::ending(Lang::Ru, &ru, &alone);
    assert!(said.contains("побеждает команда 2"), "{said}");
    let said = jackal::game::narrate::ending(Lang::Ru, &ru, &together);
    assert!(said.contains("побеждают команда 2 и команда 4"), "{said}");
    let said = jackal::game::narrate::ending(Lang::En, &en, &alone);
    assert!(said.ends_with("Team 2 wins."), "{said}");
    let said = jackal::game::narrate::ending(Lang::En, &en, &together);
    assert!(said.ends_with("Team 2 and Team 4 win."), "{said}");
    // Notices about one player's seat use the singular, and no past tense that would need
    // the player's gender.
    for id in [
        "notice-pause-proposed",
        "notice-away",
        "notice-held",
        "notice-back",
        "notice-extended",
        "notice-pause-lapsed",
    ] {
        let mut a = Args::new();
        for v in ["team", "until", "deadline", "length"] {
            a.set(v, "X");
        }
        let text = format(Lang::Ru, id, Some(&a));
        for plural in [
            "предлагают",
            "вернулись",
            "получили",
            "предложили",
            "их ",
            "их:",
        ] {
            assert!(!text.contains(plural), "{id}: {text}");
        }
    }
}
