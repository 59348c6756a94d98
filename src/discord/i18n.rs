//! Discord's own localisations for the commands: names, descriptions, options and choices
//! in English and Russian, from `assets/locales/*/commands.ftl`, so a Russian client shows
//! `/шакал ход` and an English one `/jackal move` for the same command.
//!
//! A command `X` has the message `cmd-X` (its name) with the attributes `.description`,
//! `.<option>` (the option's name) and `.<option>-description`; a choice `C` of option `O`
//! is the message `choice-O-C`.

use std::borrow::Cow;

use super::errors::BotError;
use super::types::Data;
use crate::words::{self, Lang};

/// Discord's locale code for each language the bot speaks besides English.
const LOCALES: [(Lang, &str); 1] = [(Lang::Ru, "ru")];

type Command = poise::Command<Data, BotError>;

/// The Fluent id of a choice: `choice-<option>-<name>` with the name's characters that
/// Fluent ids do not allow turned into `-`.
fn choice_id(option: &str, choice: &str) -> String {
    let clean: String = choice
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("choice-{option}-{clean}")
}

/// Applies the localisations to every command and subcommand. Returns the Fluent ids that
/// were missing (the tests require none).
pub fn localise(commands: &mut [Command]) -> Vec<String> {
    let mut missing = Vec::new();
    for command in commands {
        localise_one(command, &mut missing);
    }
    missing
}

fn text(lang: Lang, id: &str, missing: &mut Vec<String>) -> Option<String> {
    if words::has(lang, id) {
        Some(words::format(lang, id, None))
    } else {
        missing.push(format!("{}: {id}", lang.code()));
        None
    }
}

fn localise_one(command: &mut Command, missing: &mut Vec<String>) {
    let key = format!("cmd-{}", command.name);
    if let Some(description) = text(Lang::En, &format!("{key}.description"), missing) {
        command.description = Some(Cow::Owned(description));
    }
    for (lang, locale) in LOCALES {
        if let Some(name) = text(lang, &key, missing) {
            command
                .name_localizations
                .to_mut()
                .push((Cow::Borrowed(locale), Cow::Owned(name)));
        }
        if let Some(d) = text(lang, &format!("{key}.description"), missing) {
            command
                .description_localizations
                .to_mut()
                .push((Cow::Borrowed(locale), Cow::Owned(d)));
        }
    }
    for parameter in &mut command.parameters {
        let option = parameter.name.to_string();
        let described = format!("{key}.{option}-description");
        if let Some(d) = text(Lang::En, &described, missing) {
            parameter.description = Some(Cow::Owned(d));
        }
        for (lang, locale) in LOCALES {
            if let Some(name) = text(lang, &format!("{key}.{option}"), missing) {
                parameter
                    .name_localizations
                    .to_mut()
                    .push((Cow::Borrowed(locale), Cow::Owned(name)));
            }
            if let Some(d) = text(lang, &described, missing) {
                parameter
                    .description_localizations
                    .to_mut()
                    .push((Cow::Borrowed(locale), Cow::Owned(d)));
            }
        }
        for choice in parameter.choices.to_mut().iter_mut() {
            let id = choice_id(&option, &choice.name);
            if let Some(shown) = text(Lang::En, &id, missing) {
                choice.name = Cow::Owned(shown);
            }
            for (lang, locale) in LOCALES {
                if let Some(shown) = text(lang, &id, missing) {
                    choice
                        .localizations
                        .to_mut()
                        .push((Cow::Borrowed(locale), Cow::Owned(shown)));
                }
            }
        }
    }
    for sub in &mut command.subcommands {
        localise_one(sub, missing);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord's rule for command and option names (lowercase where the script has case).
    fn valid_name(name: &str) -> bool {
        let count = name.chars().count();
        (1..=32).contains(&count)
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            && name.to_lowercase() == name
    }

    fn check(command: &Command, problems: &mut Vec<String>) {
        // The code's names are the ones English clients (and every locale without its own)
        // show; the English file names them too, so that both files read alike, and a name
        // there unlike the code's is shown to nobody (`.ply = after` once sat in it while
        // the option was `ply`, and the README followed it).
        let key = format!("cmd-{}", command.name);
        let english = |id: &str| words::format(Lang::En, id, None);
        if english(&key) != command.name {
            problems.push(format!("{key} in English is not /{}", command.name));
        }
        for p in &command.parameters {
            let id = format!("{key}.{}", p.name);
            if english(&id) != p.name {
                problems.push(format!("{id} in English is not the option `{}`", p.name));
            }
        }
        let mut names = vec![command.name.to_string()];
        names.extend(
            command
                .name_localizations
                .iter()
                .map(|(_, n)| n.to_string()),
        );
        for p in &command.parameters {
            names.push(p.name.to_string());
            names.extend(p.name_localizations.iter().map(|(_, n)| n.to_string()));
            let descriptions = p
                .description
                .iter()
                .chain(p.description_localizations.iter().map(|(_, d)| d));
            for d in descriptions {
                if d.is_empty() || d.chars().count() > 100 {
                    problems.push(format!("{}.{}: description `{d}`", command.name, p.name));
                }
            }
            for c in p.choices.iter() {
                if c.name.is_empty() || c.name.chars().count() > 100 {
                    problems.push(format!("choice `{}`", c.name));
                }
            }
        }
        for n in names {
            if !valid_name(&n) {
                problems.push(format!("name `{n}` of /{}", command.name));
            }
        }
        let descriptions = command
            .description
            .iter()
            .chain(command.description_localizations.iter().map(|(_, d)| d));
        for d in descriptions {
            if d.is_empty() || d.chars().count() > 100 {
                problems.push(format!("/{}: description `{d}`", command.name));
            }
        }
        for sub in &command.subcommands {
            check(sub, problems);
        }
    }

    #[test]
    fn every_command_is_localised_and_valid() {
        let mut commands = vec![super::super::commands::jackal()];
        let missing = localise(&mut commands);
        assert!(missing.is_empty(), "missing Fluent ids: {missing:#?}");
        let mut problems = Vec::new();
        check(&commands[0], &mut problems);
        assert!(problems.is_empty(), "{problems:#?}");
        // Russian names exist and differ.
        let jackal = &commands[0];
        assert_eq!(jackal.name_localizations[0].1, "шакал");
    }

    #[test]
    fn choice_ids_are_fluent_ids() {
        assert_eq!(choice_id("players", "2x2"), "choice-players-2x2");
        assert_eq!(choice_id("turn_time", "1h"), "choice-turn_time-1h");
    }
}
