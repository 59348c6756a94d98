//! When a player is reminded of a turn: the times they chose before the deadline (or the
//! game's one), moved out of their quiet hours in their own time zone. Pure: the deadline,
//! the clock and the player's choices come in, instants (Unix milliseconds) go out, so the
//! rules can be tested across any offset and daylight-saving change.
//!
//! A reminder that falls in the quiet hours waits for them to end. When the deadline comes
//! before they end, it comes instead just before they begin (the player still hears of the
//! turn, on the evening before rather than never); when they have already begun, at its own
//! time: losing the turn is worse than a message at night.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

use super::config::{is_off, parse_duration};
use crate::store::MAX_REMINDERS;

/// Minutes in a day: quiet hours and digest times are minutes after local midnight.
pub const DAY_MINUTES: u16 = 24 * 60;

/// The longest a reminder may come before its deadline (the longest turn).
const MAX_OFFSET_MINUTES: u32 = 14 * DAY_MINUTES as u32;

/// Why a player's reminder settings were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("no time zone is called `{0}`")]
    UnknownZone(String),
    #[error("`{0}` is not a time of day (e.g. 23:00)")]
    BadClock(String),
    #[error("`{0}` is not a span of quiet hours (e.g. 23:00-08:00)")]
    BadQuiet(String),
    #[error("quiet hours from a time to the same time would cover the whole day")]
    QuietWholeDay,
    #[error("`{0}` is not a time before the deadline (e.g. 12h, 1h, 30m)")]
    BadOffset(String),
    #[error("`{0}` is not a length of time (e.g. 5d, 36h)")]
    BadLength(String),
    /// A length of time, but below the shortest the command takes.
    #[error("`{text}` is shorter than the shortest allowed, {min_seconds} s")]
    TooShort { text: String, min_seconds: u32 },
    #[error("at most {MAX_REMINDERS} reminders, not {0}")]
    TooManyReminders(usize),
}

/// A player's quiet hours, local minutes after midnight: from `start` until `end` (across
/// midnight when `end` is earlier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietHours {
    pub start: u16,
    pub end: u16,
}

impl QuietHours {
    pub fn new(start: u16, end: u16) -> Result<QuietHours, SettingError> {
        if start == end {
            return Err(SettingError::QuietWholeDay);
        }
        Ok(QuietHours { start, end })
    }

    /// Reads `23:00-08:00` (a dash or an en dash between two times of day).
    pub fn parse(text: &str) -> Result<QuietHours, SettingError> {
        let bad = || SettingError::BadQuiet(text.trim().to_string());
        let (from, to) = text.split_once(['-', '–']).ok_or_else(bad)?;
        let start = parse_clock(from).map_err(|_| bad())?;
        let end = parse_clock(to).map_err(|_| bad())?;
        QuietHours::new(start % DAY_MINUTES, end % DAY_MINUTES)
    }

    fn contains(self, minute: u16) -> bool {
        if self.start < self.end {
            (self.start..self.end).contains(&minute)
        } else {
            minute >= self.start || minute < self.end
        }
    }
}

/// Reads a time of day, `23:00`, `7:30` or `7`, as minutes after midnight (`24:00` is the
/// midnight that ends a day).
pub fn parse_clock(text: &str) -> Result<u16, SettingError> {
    let text = text.trim();
    let bad = || SettingError::BadClock(text.to_string());
    let (h, m) = text.split_once([':', '.']).unwrap_or((text, "0"));
    let all_digits =
        |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(h) || !all_digits(m) {
        return Err(bad());
    }
    let (h, m): (u16, u16) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if m >= 60 || h > 24 || (h == 24 && m > 0) {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

/// Writes minutes after midnight as `HH:MM`.
pub fn format_clock(minute: u16) -> String {
    format!("{:02}:{:02}", minute / 60 % 24, minute % 60)
}

/// Reads the reminders a player asks for: up to three spans before the deadline, separated by
/// commas or spaces (`12h, 1h`, `12ч, 1 час`), as minutes; `off` (`выкл`…) for none.
pub fn parse_offsets(text: &str) -> Result<Vec<u16>, SettingError> {
    let text = text.trim();
    if is_off(text) {
        return Ok(Vec::new());
    }
    let mut minutes = Vec::new();
    for part in spans(text) {
        let part = part.as_str();
        let m = parse_duration(part)
            .filter(|s| s % 60 == 0)
            .map(|s| s / 60)
            .filter(|m| (1..=MAX_OFFSET_MINUTES).contains(m))
            .ok_or_else(|| SettingError::BadOffset(part.to_string()))?;
        minutes.push(m as u16);
    }
    if minutes.is_empty() {
        return Err(SettingError::BadOffset(text.to_string()));
    }
    // Furthest first; the same span twice is one reminder.
    minutes.sort_unstable_by(|a, b| b.cmp(a));
    minutes.dedup();
    if minutes.len() > MAX_REMINDERS {
        return Err(SettingError::TooManyReminders(minutes.len()));
    }
    Ok(minutes)
}

/// The spans of a list: split at commas, semicolons and spaces, a unit written apart from its
/// number (`1 час`) joined back to it.
fn spans(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for token in text.split([',', ';', ' ']).filter(|p| !p.is_empty()) {
        let unit_alone = token.chars().all(|c| c.is_alphabetic() || c == '.');
        match out.last_mut() {
            Some(last) if unit_alone && last.chars().all(|c| c.is_ascii_digit()) => {
                last.push_str(token)
            }
            _ => out.push(token.to_string()),
        }
    }
    out
}

/// An IANA time zone by name (`Europe/Moscow`, `UTC`), from the database compiled into the
/// bot: the same answers on every machine, whatever it has installed.
pub fn zone(name: &str) -> Result<TimeZone, SettingError> {
    let name = name.trim();
    // A bare offset (`+03:00`) or a POSIX rule would parse in some crates: only names here, so
    // a zone keeps its daylight-saving changes.
    if name.is_empty() || !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return Err(SettingError::UnknownZone(name.to_string()));
    }
    jiff::tz::db()
        .get(name)
        .map_err(|_| SettingError::UnknownZone(name.to_string()))
}

/// What decides a player's reminders of one turn.
#[derive(Clone, Debug)]
pub struct ReminderPlan {
    /// Seconds before the deadline, any order.
    pub offsets: Vec<u32>,
    pub quiet: Option<QuietHours>,
    pub zone: TimeZone,
}

fn local(zone: &TimeZone, at_ms: i64) -> Option<DateTime> {
    Some(zone.to_datetime(Timestamp::from_millisecond(at_ms).ok()?))
}

fn minute_of(dt: DateTime) -> u16 {
    dt.hour() as u16 * 60 + dt.minute() as u16
}

/// The instant the local date `dt`'s day reads `minute` (a time a daylight-saving change skips
/// is read as the time after the gap).
fn on_day_at(zone: &TimeZone, dt: DateTime, minute: u16) -> Option<i64> {
    let day = dt.date().at((minute / 60) as i8, (minute % 60) as i8, 0, 0);
    Some(
        zone.to_zoned_datetime(day)
            .ok()?
            .timestamp()
            .as_millisecond(),
    )
}

/// The first instant strictly after `after_ms` whose local time reads `minute`.
pub fn next_local(zone: &TimeZone, minute: u16, after_ms: i64) -> Option<i64> {
    let mut day = local(zone, after_ms)?;
    for _ in 0..3 {
        let at = on_day_at(zone, day, minute % DAY_MINUTES)?;
        if at > after_ms {
            return Some(at);
        }
        day = day.tomorrow().ok()?;
    }
    None
}

/// The last instant at or before `at_ms` whose local time reads `minute`.
fn last_local(zone: &TimeZone, minute: u16, at_ms: i64) -> Option<i64> {
    let mut day = local(zone, at_ms)?;
    for _ in 0..3 {
        let at = on_day_at(zone, day, minute % DAY_MINUTES)?;
        if at <= at_ms {
            return Some(at);
        }
        day = day.yesterday().ok()?;
    }
    None
}

/// What a reminder timer does when it comes up: quiet hours hold when it is sent, not only
/// when it was planned (a reminder that came due while the bot was down may come up at 3 am).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Firing {
    /// Out of the quiet hours, or on time where the plan itself chose a quiet moment (no
    /// better one was left before the deadline).
    Send,
    /// Late and in the quiet hours: it waits for their end, which comes before the deadline.
    Wait(i64),
    /// Late and in the quiet hours that last past the deadline: not sent at all.
    Drop,
}

/// How late a timer may come up and still count as on time (the scheduler wakes on time;
/// later means the bot was down or stalled).
pub const ON_TIME_MS: i64 = 60_000;

impl ReminderPlan {
    /// What a reminder planned for `due_ms` does when it comes up at `now_ms`, for a turn
    /// whose deadline is `deadline_ms`.
    pub fn firing(&self, due_ms: i64, deadline_ms: i64, now_ms: i64) -> Firing {
        let Some(quiet) = self.quiet else {
            return Firing::Send;
        };
        let quiet_now =
            local(&self.zone, now_ms).is_some_and(|here| quiet.contains(minute_of(here)));
        if !quiet_now || now_ms - due_ms < ON_TIME_MS {
            return Firing::Send;
        }
        match next_local(&self.zone, quiet.end, now_ms) {
            Some(end) if end < deadline_ms => Firing::Wait(end),
            _ => Firing::Drop,
        }
    }

    /// When to remind of a turn whose deadline is `deadline_ms`, seen at `now_ms`: each chosen
    /// time that is still ahead, out of the quiet hours, earliest first, never two at once.
    pub fn times(&self, deadline_ms: i64, now_ms: i64) -> Vec<i64> {
        let mut times: Vec<i64> = self
            .offsets
            .iter()
            .map(|s| deadline_ms - *s as i64 * 1000)
            .filter(|at| *at > now_ms)
            .map(|at| self.out_of_quiet(at, deadline_ms, now_ms))
            .filter(|at| *at > now_ms && *at < deadline_ms)
            .collect();
        times.sort_unstable();
        times.dedup();
        times.truncate(MAX_REMINDERS);
        times
    }

    fn out_of_quiet(&self, at: i64, deadline_ms: i64, now_ms: i64) -> i64 {
        let Some(quiet) = self.quiet else {
            return at;
        };
        let Some(here) = local(&self.zone, at) else {
            return at;
        };
        if !quiet.contains(minute_of(here)) {
            return at;
        }
        if let Some(end) = next_local(&self.zone, quiet.end, at).filter(|e| *e < deadline_ms) {
            return end;
        }
        // The minute before the quiet hours began, if that is still to come.
        match last_local(&self.zone, quiet.start, at).map(|s| s - 60_000) {
            Some(before) if before > now_ms => before,
            _ => at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3_600_000;
    const M: i64 = 60_000;

    fn ms(text: &str) -> i64 {
        text.parse::<Timestamp>().unwrap().as_millisecond()
    }

    fn plan(minutes: &[u32], quiet: Option<(&str, &str)>, zone_name: &str) -> ReminderPlan {
        ReminderPlan {
            offsets: minutes.iter().map(|m| m * 60).collect(),
            quiet: quiet.map(|(a, b)| {
                QuietHours::new(parse_clock(a).unwrap(), parse_clock(b).unwrap()).unwrap()
            }),
            zone: zone(zone_name).unwrap(),
        }
    }

    #[test]
    fn chosen_times_before_the_deadline_earliest_first() {
        let p = plan(&[60, 720, 10], None, "UTC");
        let deadline = ms("2026-12-02T12:00:00Z");
        let now = ms("2026-12-01T12:00:00Z");
        assert_eq!(
            p.times(deadline, now),
            vec![deadline - 12 * H, deadline - H, deadline - 10 * M]
        );
        // Those already past are gone; none is at or after the deadline.
        assert_eq!(
            p.times(deadline, deadline - 2 * H),
            vec![deadline - H, deadline - 10 * M]
        );
        assert!(p.times(deadline, deadline).is_empty());
    }

    #[test]
    fn a_reminder_in_quiet_hours_waits_for_their_end_in_the_players_zone() {
        // Moscow is UTC+3: 02:00 UTC is 05:00 there, inside 23:00–08:00; the end is 05:00 UTC.
        let p = plan(&[600], Some(("23:00", "08:00")), "Europe/Moscow");
        let deadline = ms("2026-12-02T12:00:00Z");
        let now = ms("2026-12-01T12:00:00Z");
        assert_eq!(p.times(deadline, now), vec![ms("2026-12-02T05:00:00Z")]);
        // The same time in UTC's own quiet hours would wait until 08:00 UTC.
        let utc = plan(&[600], Some(("23:00", "08:00")), "UTC");
        assert_eq!(utc.times(deadline, now), vec![ms("2026-12-02T08:00:00Z")]);
    }

    #[test]
    fn when_the_deadline_comes_first_the_reminder_comes_before_the_quiet_hours() {
        // Deadline 03:00 local, reminder asked 2 h before (01:00, quiet until 08:00): it comes
        // at 22:59 the evening before.
        let p = plan(&[120], Some(("23:00", "08:00")), "UTC");
        let deadline = ms("2026-12-02T03:00:00Z");
        let now = ms("2026-12-01T12:00:00Z");
        assert_eq!(p.times(deadline, now), vec![ms("2026-12-01T22:59:00Z")]);
        // Once the quiet hours have begun, at its own time.
        let late = ms("2026-12-01T23:30:00Z");
        assert_eq!(p.times(deadline, late), vec![ms("2026-12-02T01:00:00Z")]);
    }

    #[test]
    fn quiet_hours_follow_a_daylight_saving_change() {
        // Berlin leaves summer time on 2026-10-25 at 03:00 local (01:00 UTC). Quiet hours
        // 22:00–07:00: before the change 07:00 local is 05:00 UTC, after it 06:00 UTC.
        let p = plan(&[180], Some(("22:00", "07:00")), "Europe/Berlin");
        let summer_deadline = ms("2026-10-24T06:00:00Z"); // 08:00 CEST; reminder 05:00 CEST
        let winter_deadline = ms("2026-10-25T08:00:00Z"); // 09:00 CET; reminder 06:00 CET
        assert_eq!(
            p.times(summer_deadline, summer_deadline - 24 * H),
            vec![ms("2026-10-24T05:00:00Z")]
        );
        assert_eq!(
            p.times(winter_deadline, winter_deadline - 24 * H),
            vec![ms("2026-10-25T06:00:00Z")]
        );
        // New York enters summer time on 2026-03-08 at 02:00 EST: a reminder at 01:00 EST
        // (06:00 UTC) in quiet hours 01:00–06:00 waits until 06:00 EDT, 10:00 UTC.
        let ny = plan(&[360], Some(("01:00", "06:00")), "America/New_York");
        let deadline = ms("2026-03-08T12:00:00Z"); // 08:00 EDT
        assert_eq!(
            ny.times(deadline, deadline - 24 * H),
            vec![ms("2026-03-08T10:00:00Z")]
        );
    }

    #[test]
    fn reminders_moved_to_the_same_instant_are_one() {
        let p = plan(&[120, 180], Some(("00:00", "08:00")), "UTC");
        let deadline = ms("2026-12-02T10:00:00Z");
        // 07:00 and 08:00 → 08:00 and 08:00: one reminder.
        assert_eq!(
            p.times(deadline, deadline - 24 * H),
            vec![ms("2026-12-02T08:00:00Z")]
        );
    }

    #[test]
    fn settings_are_read_and_bad_ones_refused() {
        assert_eq!(parse_offsets("12h, 1h").unwrap(), vec![720, 60]);
        assert_eq!(parse_offsets("1h 1h 30m").unwrap(), vec![60, 30]);
        assert_eq!(parse_offsets("off").unwrap(), Vec::<u16>::new());
        assert_eq!(
            parse_offsets("1d 12h 1h 10m"),
            Err(SettingError::TooManyReminders(4))
        );
        assert!(matches!(
            parse_offsets("soon"),
            Err(SettingError::BadOffset(_))
        ));
        assert!(matches!(
            parse_offsets("30d"),
            Err(SettingError::BadOffset(_))
        ));
        assert_eq!(
            QuietHours::parse("23:00-08:00").unwrap(),
            QuietHours::new(1380, 480).unwrap()
        );
        assert_eq!(
            QuietHours::parse("8:00 – 9:30").unwrap(),
            QuietHours::new(480, 570).unwrap()
        );
        assert_eq!(
            QuietHours::parse("00:00-24:00"),
            Err(SettingError::QuietWholeDay)
        );
        assert_eq!(QuietHours::parse("7-7"), Err(SettingError::QuietWholeDay));
        assert!(matches!(
            QuietHours::parse("25:00-08:00"),
            Err(SettingError::BadQuiet(_))
        ));
        assert!(matches!(
            parse_clock("9:75"),
            Err(SettingError::BadClock(_))
        ));
        assert!(zone("Europe/Moscow").is_ok());
        assert!(zone("UTC").is_ok());
        assert!(matches!(
            zone("Mars/Olympus"),
            Err(SettingError::UnknownZone(name)) if name == "Mars/Olympus"
        ));
        assert!(zone("+03:00").is_err());
    }

    #[test]
    fn the_next_local_time_of_day() {
        let z = zone("Asia/Tokyo").unwrap(); // UTC+9
        let now = ms("2026-12-01T12:00:00Z"); // 21:00 there
        assert_eq!(
            next_local(&z, 9 * 60, now),
            Some(ms("2026-12-02T00:00:00Z"))
        );
        assert_eq!(
            next_local(&z, 22 * 60, now),
            Some(ms("2026-12-01T13:00:00Z"))
        );
    }

    /// A reminder that comes up late inside the quiet hours waits for their end, or is
    /// dropped when the deadline comes first; on time (the plan's own choice) or out of the
    /// quiet hours it is sent.
    #[test]
    fn quiet_hours_hold_when_a_late_reminder_comes_up() {
        let p = plan(&[180], Some(("23:00", "08:00")), "Europe/Moscow");
        // 2026-12-01: Moscow is UTC+3, so 23:00-08:00 there is 20:00-05:00 UTC.
        let due = ms("2026-12-01T17:00:00Z");
        let deadline = ms("2026-12-02T09:00:00Z");
        assert_eq!(p.firing(due, deadline, due), Firing::Send);
        assert_eq!(p.firing(due, deadline, due + 30 * M), Firing::Send);
        let late = ms("2026-12-01T23:00:00Z");
        assert_eq!(
            p.firing(due, deadline, late),
            Firing::Wait(ms("2026-12-02T05:00:00Z"))
        );
        let early_deadline = ms("2026-12-02T04:00:00Z");
        assert_eq!(p.firing(due, early_deadline, late), Firing::Drop);
        // Planned inside the quiet hours (nothing better was left) and on time: sent.
        assert_eq!(p.firing(late, early_deadline, late + M / 2), Firing::Send);
        let no_quiet = plan(&[180], None, "Europe/Moscow");
        assert_eq!(no_quiet.firing(due, deadline, late), Firing::Send);
    }
}
