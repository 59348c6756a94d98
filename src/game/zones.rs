//! Time zones to suggest as a player types one (`/jackal remind zone`): today's Area/City
//! names of the zone database compiled into the bot, never the links it keeps for old systems
//! (`GB`, `W-SU`, `Zulu`, `US/Eastern`, `Etc/GMT+3`), which sort first by length and name
//! nothing a player would look for. With nothing typed, the zones of the player's Discord
//! locale come first, then the world's most used ones.

/// The areas of today's zone names (`Europe/Moscow`); everything else in the database (`GB`,
/// `Etc/…`, `US/…`, `SystemV/…`) is a link kept for compatibility.
const AREAS: [&str; 10] = [
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
];

/// Is `name` an Area/City name? Links such as `Australia/ACT` or `America/Knox_IN` are
/// written in capitals or abbreviations; a real place has a lower-case letter in its name.
fn canonical(name: &str) -> bool {
    let Some((area, place)) = name.split_once('/') else {
        return false;
    };
    AREAS.contains(&area)
        && place.chars().any(|c| c.is_ascii_lowercase())
        && !place.ends_with("_IN")
}

/// The zones of a Discord locale (`ru`, `en-US`, `pt-BR`…), most people first.
fn local(locale: &str) -> &'static [&'static str] {
    match locale {
        "ru" => &[
            "Europe/Moscow",
            "Europe/Kaliningrad",
            "Europe/Samara",
            "Asia/Yekaterinburg",
            "Asia/Omsk",
            "Asia/Novosibirsk",
            "Asia/Krasnoyarsk",
            "Asia/Irkutsk",
            "Asia/Yakutsk",
            "Asia/Vladivostok",
            "Asia/Magadan",
            "Asia/Kamchatka",
            "Europe/Volgograd",
            "Europe/Minsk",
            "Asia/Almaty",
            "Asia/Tashkent",
            "Asia/Tbilisi",
            "Asia/Yerevan",
            "Asia/Baku",
            "Asia/Bishkek",
            "Europe/Chisinau",
            "Europe/Riga",
        ],
        "uk" => &["Europe/Kyiv", "Europe/Warsaw", "Europe/Berlin"],
        "en-US" => &[
            "America/New_York",
            "America/Chicago",
            "America/Denver",
            "America/Phoenix",
            "America/Los_Angeles",
            "America/Anchorage",
            "Pacific/Honolulu",
            "America/Toronto",
            "America/Vancouver",
        ],
        "en-GB" => &["Europe/London", "Europe/Dublin"],
        "de" => &["Europe/Berlin", "Europe/Vienna", "Europe/Zurich"],
        "fr" => &[
            "Europe/Paris",
            "Europe/Brussels",
            "Europe/Zurich",
            "America/Toronto",
        ],
        "es-ES" => &["Europe/Madrid", "Atlantic/Canary"],
        "es-419" => &[
            "America/Mexico_City",
            "America/Bogota",
            "America/Lima",
            "America/Argentina/Buenos_Aires",
            "America/Santiago",
        ],
        "pt-BR" => &["America/Sao_Paulo", "America/Manaus", "America/Fortaleza"],
        "it" => &["Europe/Rome"],
        "nl" => &["Europe/Amsterdam", "Europe/Brussels"],
        "pl" => &["Europe/Warsaw"],
        "cs" => &["Europe/Prague"],
        "hu" => &["Europe/Budapest"],
        "ro" => &["Europe/Bucharest"],
        "bg" => &["Europe/Sofia"],
        "el" => &["Europe/Athens"],
        "fi" => &["Europe/Helsinki"],
        "sv-SE" => &["Europe/Stockholm"],
        "no" => &["Europe/Oslo"],
        "da" => &["Europe/Copenhagen"],
        "lt" => &["Europe/Vilnius"],
        "tr" => &["Europe/Istanbul"],
        "hi" => &["Asia/Kolkata"],
        "th" => &["Asia/Bangkok"],
        "vi" => &["Asia/Ho_Chi_Minh"],
        "id" => &["Asia/Jakarta"],
        "ja" => &["Asia/Tokyo"],
        "ko" => &["Asia/Seoul"],
        "zh-CN" => &["Asia/Shanghai"],
        "zh-TW" => &["Asia/Taipei"],
        _ => &[],
    }
}

/// The world's most used zones, after the locale's own (and for a locale the bot has no list
/// for), west to east within each continent.
const WORLD: [&str; 25] = [
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Warsaw",
    "Europe/Kyiv",
    "Europe/Istanbul",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Mexico_City",
    "America/Sao_Paulo",
    "Africa/Lagos",
    "Africa/Cairo",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Bangkok",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
];

/// Does the compiled-in database hold `name`? (A list above naming a zone a newer database
/// renamed must not offer a name the `zone` option would then refuse.)
fn known(name: &str) -> bool {
    jiff::tz::db().get(name).is_ok()
}

/// Up to `limit` zone names for what is typed, in the order to offer them: with nothing typed,
/// the locale's zones then the world's; otherwise every Area/City name containing the text
/// (spaces read as `_`), the locale's first, then those starting with it, shorter first.
pub fn zones_like(partial: &str, limit: usize, locale: Option<&str>) -> Vec<String> {
    let partial = partial.trim().to_ascii_lowercase().replace(' ', "_");
    let local = locale.map(local).unwrap_or_default();
    let mut names: Vec<String> = if partial.is_empty() {
        let mut names: Vec<String> = Vec::new();
        for name in local.iter().chain(WORLD.iter()) {
            if known(name) && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
        names
    } else {
        let mut names: Vec<String> = jiff::tz::db()
            .available()
            .map(|n| n.as_str().to_string())
            .filter(|n| canonical(n) && n.to_ascii_lowercase().contains(&partial))
            .collect();
        names.sort_by_key(|n| {
            (
                !local.contains(&n.as_str()),
                !n.to_ascii_lowercase().starts_with(&partial),
                n.len(),
                n.clone(),
            )
        });
        names
    };
    names.truncate(limit);
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_zone_is_a_canonical_zone_of_the_database() {
        let locales = [
            "ru", "uk", "en-US", "en-GB", "de", "fr", "es-ES", "es-419", "pt-BR", "it", "nl", "pl",
            "cs", "hu", "ro", "bg", "el", "fi", "sv-SE", "no", "da", "lt", "tr", "hi", "th", "vi",
            "id", "ja", "ko", "zh-CN", "zh-TW",
        ];
        for name in locales.iter().flat_map(|l| local(l)).chain(WORLD.iter()) {
            assert!(known(name) && canonical(name), "{name}");
        }
        for alias in [
            "GB",
            "W-SU",
            "Zulu",
            "Etc/GMT+3",
            "US/Eastern",
            "Australia/ACT",
        ] {
            assert!(!canonical(alias), "{alias}");
        }
        assert_eq!(zones_like("moscow", 5, None), ["Europe/Moscow"]);
    }
}
