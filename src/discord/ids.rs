//! Component custom ids: one typed value, encoded into Discord's 100-character `custom_id`
//! and parsed back when a button is pressed or a menu used. Every id carries the game, and
//! every id that acts on a position carries the ply it was drawn at, so a press on an old
//! board is recognised and refused kindly instead of playing into a newer position.
//!
//! Form: `jk1:<tag>:<game>[:<field>…]`. A version prefix lets a later release read (or
//! politely refuse) the buttons of older messages still sitting in channels and DMs.

use crate::game::{GameFormat, PeriodKind};
use crate::id::GameId;

const PREFIX: &str = "jk1";
/// Discord's limit for `custom_id`.
pub const MAX_LEN: usize = 100;

/// A lobby button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyButton {
    Join,
    Leave,
    AddBot,
    Settings,
    Start,
    Cancel,
}

impl LobbyButton {
    pub const ALL: [LobbyButton; 6] = [
        LobbyButton::Join,
        LobbyButton::Leave,
        LobbyButton::AddBot,
        LobbyButton::Settings,
        LobbyButton::Start,
        LobbyButton::Cancel,
    ];

    fn word(self) -> &'static str {
        match self {
            LobbyButton::Join => "join",
            LobbyButton::Leave => "leave",
            LobbyButton::AddBot => "bot",
            LobbyButton::Settings => "settings",
            LobbyButton::Start => "start",
            LobbyButton::Cancel => "cancel",
        }
    }
}

/// A leaderboard as its message's components name it: whose (this server's or every
/// server's), which period and format, which page. The server itself is where the press came
/// from, never a number a custom id could forge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPick {
    pub everywhere: bool,
    pub period: PeriodKind,
    pub format: Option<GameFormat>,
    pub page: u32,
}

impl BoardPick {
    fn encode(self) -> String {
        let whose = if self.everywhere { "all" } else { "here" };
        let format = self.format.map_or("any", GameFormat::word);
        format!("{whose}:{}:{format}:{}", self.period.word(), self.page)
    }

    fn parse(fields: &[&str]) -> Option<BoardPick> {
        let [whose, period, format, page] = fields else {
            return None;
        };
        Some(BoardPick {
            everywhere: match *whose {
                "all" => true,
                "here" => false,
                _ => return None,
            },
            period: PeriodKind::parse(period)?,
            format: match *format {
                "any" => None,
                word => Some(GameFormat::parse(word)?),
            },
            page: page.parse().ok()?,
        })
    }
}

/// What a leaderboard component does with its pick: a button shows it; a menu changes its
/// period or format to the value chosen, from the first page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardControl {
    Show,
    Period,
    Format,
}

impl BoardControl {
    const ALL: [BoardControl; 3] = [
        BoardControl::Show,
        BoardControl::Period,
        BoardControl::Format,
    ];

    fn tag(self) -> &'static str {
        match self {
            BoardControl::Show => "top",
            BoardControl::Period => "topperiod",
            BoardControl::Format => "topformat",
        }
    }
}

/// A step button of the history browser: each names the ply it shows, and which button it is
/// (two may show the same ply: "back" on the first board, "first").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryButton {
    First,
    Back,
    Forward,
    Last,
}

impl HistoryButton {
    pub const ALL: [HistoryButton; 4] = [
        HistoryButton::First,
        HistoryButton::Back,
        HistoryButton::Forward,
        HistoryButton::Last,
    ];

    fn word(self) -> &'static str {
        match self {
            HistoryButton::First => "first",
            HistoryButton::Back => "back",
            HistoryButton::Forward => "forward",
            HistoryButton::Last => "last",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CustomId {
    /// A button of the lobby message.
    Lobby { game: GameId, button: LobbyButton },
    /// The menu of bot levels (when there is more than one).
    BotLevel { game: GameId },
    /// The settings panel's menu of settings.
    SettingPick { game: GameId },
    /// The settings panel's menu of values for one setting.
    SettingValue { game: GameId, setting: String },
    /// "My moves" under a board post: the presser's moves, in private.
    MyMoves { game: GameId },
    /// A menu of the move picker: `path` is the groups chosen so far from the root.
    Pick {
        game: GameId,
        ply: u32,
        path: Vec<u8>,
    },
    /// Back to the picker's first menu.
    PickRoot { game: GameId, ply: u32 },
    /// Play this action (notation). A fatal one asks first (`confirmed` false), then plays
    /// when pressed again from the confirmation (`confirmed` true).
    Play {
        game: GameId,
        ply: u32,
        action: String,
        confirmed: bool,
    },
    /// The confirmation of `/jackal resign`.
    Resign { game: GameId },
    /// "Take my seat back", under the notice that a bot took a seat.
    Reclaim { game: GameId },
    /// A vote on the pause proposed in the game: for (`yes`) or against.
    PauseVote { game: GameId, yes: bool },
    /// An answer to the take-back asked in the game when its log was at `ply`: agree (`yes`)
    /// or refuse.
    UndoVote { game: GameId, ply: u32, yes: bool },
    /// A step of the history browser: show the board after `ply`.
    History {
        game: GameId,
        ply: u32,
        button: HistoryButton,
    },
    /// The history browser's menu of plies (the value is the ply).
    HistoryAt { game: GameId },
    /// A leaderboard's page buttons and menus (no game: `jk1:top…:<pick>`).
    Board {
        control: BoardControl,
        pick: BoardPick,
    },
}

/// A custom id that is not ours, from an older version, or damaged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown component id `{0}`")]
pub struct UnknownId(pub String);

impl CustomId {
    /// The game the component belongs to (`None`: a leaderboard's).
    pub fn game(&self) -> Option<GameId> {
        Some(match self {
            CustomId::Lobby { game, .. }
            | CustomId::BotLevel { game }
            | CustomId::SettingPick { game }
            | CustomId::SettingValue { game, .. }
            | CustomId::MyMoves { game }
            | CustomId::Pick { game, .. }
            | CustomId::PickRoot { game, .. }
            | CustomId::Play { game, .. }
            | CustomId::Resign { game }
            | CustomId::Reclaim { game }
            | CustomId::PauseVote { game, .. }
            | CustomId::UndoVote { game, .. }
            | CustomId::History { game, .. }
            | CustomId::HistoryAt { game } => *game,
            CustomId::Board { .. } => return None,
        })
    }

    /// The text for Discord. Panics in debug builds if it is too long: ids are built from
    /// game numbers, plies, short paths, setting ids and move notation, all short by
    /// construction; `tests::the_longest_ids_fit` holds the bound.
    pub fn encode(&self) -> String {
        let text = match self {
            CustomId::Lobby { game, button } => format!("{PREFIX}:lobby:{game}:{}", button.word()),
            CustomId::BotLevel { game } => format!("{PREFIX}:botlevel:{game}"),
            CustomId::SettingPick { game } => format!("{PREFIX}:setting:{game}"),
            CustomId::SettingValue { game, setting } => {
                format!("{PREFIX}:value:{game}:{setting}")
            }
            CustomId::MyMoves { game } => format!("{PREFIX}:moves:{game}"),
            CustomId::Pick { game, ply, path } => {
                let path: Vec<String> = path.iter().map(u8::to_string).collect();
                format!("{PREFIX}:pick:{game}:{ply}:{}", path.join("."))
            }
            CustomId::PickRoot { game, ply } => format!("{PREFIX}:root:{game}:{ply}"),
            CustomId::Play {
                game,
                ply,
                action,
                confirmed,
            } => {
                let tag = if *confirmed { "sure" } else { "play" };
                format!("{PREFIX}:{tag}:{game}:{ply}:{action}")
            }
            CustomId::Resign { game } => format!("{PREFIX}:resign:{game}"),
            CustomId::Reclaim { game } => format!("{PREFIX}:reclaim:{game}"),
            CustomId::PauseVote { game, yes } => {
                let word = if *yes { "yes" } else { "no" };
                format!("{PREFIX}:pause:{game}:{word}")
            }
            CustomId::UndoVote { game, ply, yes } => {
                let word = if *yes { "yes" } else { "no" };
                format!("{PREFIX}:undo:{game}:{ply}:{word}")
            }
            CustomId::History { game, ply, button } => {
                format!("{PREFIX}:hist:{game}:{ply}:{}", button.word())
            }
            CustomId::HistoryAt { game } => format!("{PREFIX}:histat:{game}"),
            CustomId::Board { control, pick } => {
                format!("{PREFIX}:{}:{}", control.tag(), pick.encode())
            }
        };
        debug_assert!(text.len() <= MAX_LEN, "custom id too long: {text}");
        text
    }

    pub fn parse(text: &str) -> Result<CustomId, UnknownId> {
        let unknown = || UnknownId(text.chars().take(MAX_LEN).collect());
        // Discord never sends a longer id: one is forged, and what it says (a long `play`
        // action, say) could not be encoded into an id again.
        if text.len() > MAX_LEN {
            return Err(unknown());
        }
        let mut parts = text.splitn(5, ':');
        if parts.next() != Some(PREFIX) {
            return Err(unknown());
        }
        let tag = parts.next().ok_or_else(unknown)?;
        if let Some(control) = BoardControl::ALL.into_iter().find(|c| c.tag() == tag) {
            let fields: Vec<&str> = text.split(':').skip(2).collect();
            let pick = BoardPick::parse(&fields).ok_or_else(unknown)?;
            return Ok(CustomId::Board { control, pick });
        }
        let game: GameId = parts
            .next()
            .and_then(|g| g.parse().ok())
            .ok_or_else(unknown)?;
        let rest: Vec<&str> = parts.collect();
        let ply = |i: usize| -> Result<u32, UnknownId> {
            rest.get(i).and_then(|p| p.parse().ok()).ok_or_else(unknown)
        };
        let id = match (tag, rest.as_slice()) {
            ("lobby", [word]) => CustomId::Lobby {
                game,
                button: LobbyButton::ALL
                    .into_iter()
                    .find(|b| b.word() == *word)
                    .ok_or_else(unknown)?,
            },
            ("botlevel", []) => CustomId::BotLevel { game },
            ("setting", []) => CustomId::SettingPick { game },
            ("value", [setting]) if valid_setting_word(setting) => CustomId::SettingValue {
                game,
                setting: setting.to_string(),
            },
            ("moves", []) => CustomId::MyMoves { game },
            ("pick", [_, path]) => CustomId::Pick {
                game,
                ply: ply(0)?,
                path: if path.is_empty() {
                    Vec::new()
                } else {
                    path.split('.')
                        .map(|i| i.parse().map_err(|_| unknown()))
                        .collect::<Result<_, _>>()?
                },
            },
            ("root", [_]) => CustomId::PickRoot { game, ply: ply(0)? },
            ("play" | "sure", [_, action]) if !action.is_empty() => CustomId::Play {
                game,
                ply: ply(0)?,
                action: action.to_string(),
                confirmed: tag == "sure",
            },
            ("resign", []) => CustomId::Resign { game },
            ("reclaim", []) => CustomId::Reclaim { game },
            ("pause", ["yes"]) => CustomId::PauseVote { game, yes: true },
            ("pause", ["no"]) => CustomId::PauseVote { game, yes: false },
            ("undo", [_, "yes"]) => CustomId::UndoVote {
                game,
                ply: ply(0)?,
                yes: true,
            },
            ("undo", [_, "no"]) => CustomId::UndoVote {
                game,
                ply: ply(0)?,
                yes: false,
            },
            ("hist", [_, word]) => CustomId::History {
                game,
                ply: ply(0)?,
                button: HistoryButton::ALL
                    .into_iter()
                    .find(|b| b.word() == *word)
                    .ok_or_else(unknown)?,
            },
            ("histat", []) => CustomId::HistoryAt { game },
            _ => return Err(unknown()),
        };
        Ok(id)
    }
}

/// The value of an entry of the move picker's select menu: the entry itself, so that choosing
/// an action plays it in one service call, with no need to rebuild the menu to look it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickValue {
    /// Opens the group at this index of the menu.
    Group(u8),
    /// Plays the action written in this notation.
    Action(String),
    /// An entry's index in its menu, as menus sent by earlier versions carry it.
    Index(usize),
}

impl PickValue {
    pub fn encode(&self) -> String {
        let value = match self {
            PickValue::Group(i) => format!("g{i}"),
            PickValue::Action(notation) => format!("a{notation}"),
            PickValue::Index(i) => i.to_string(),
        };
        debug_assert!(value.len() <= MAX_LEN, "pick value too long: {value}");
        value
    }

    pub fn parse(text: &str) -> Result<PickValue, UnknownId> {
        let unknown = || UnknownId(text.chars().take(MAX_LEN).collect());
        if text.len() > MAX_LEN {
            return Err(unknown());
        }
        if let Some(notation) = text.strip_prefix('a') {
            return (!notation.trim().is_empty())
                .then(|| PickValue::Action(notation.to_string()))
                .ok_or_else(unknown);
        }
        if let Some(group) = text.strip_prefix('g') {
            return group.parse().map(PickValue::Group).map_err(|_| unknown());
        }
        text.parse().map(PickValue::Index).map_err(|_| unknown())
    }
}

/// Setting ids are lowercase words with underscores.
fn valid_setting_word(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 40
        && text.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_kinds() -> Vec<CustomId> {
        let game = GameId::new(123_456_789).unwrap();
        let mut ids: Vec<CustomId> = LobbyButton::ALL
            .into_iter()
            .map(|button| CustomId::Lobby { game, button })
            .collect();
        ids.extend([
            CustomId::BotLevel { game },
            CustomId::SettingPick { game },
            CustomId::SettingValue {
                game,
                setting: "missionary_blocks_attack".into(),
            },
            CustomId::MyMoves { game },
            CustomId::Pick {
                game,
                ply: 4_000,
                path: vec![],
            },
            CustomId::Pick {
                game,
                ply: 4_000,
                path: vec![24, 3],
            },
            CustomId::PickRoot { game, ply: 7 },
            CustomId::Play {
                game,
                ply: 12,
                action: "2 e5 cart coin bar".into(),
                confirmed: false,
            },
            CustomId::Play {
                game,
                ply: 12,
                action: "g1 drop".into(),
                confirmed: true,
            },
            CustomId::Resign { game },
            CustomId::Reclaim { game },
            CustomId::PauseVote { game, yes: true },
            CustomId::PauseVote { game, yes: false },
            CustomId::UndoVote {
                game,
                ply: 4321,
                yes: true,
            },
            CustomId::UndoVote {
                game,
                ply: 0,
                yes: false,
            },
            CustomId::HistoryAt { game },
        ]);
        ids.extend(HistoryButton::ALL.map(|button| CustomId::History {
            game,
            ply: 321,
            button,
        }));
        ids
    }

    fn board_ids() -> Vec<CustomId> {
        let mut ids = Vec::new();
        for control in BoardControl::ALL {
            for period in PeriodKind::ALL {
                for format in std::iter::once(None).chain(GameFormat::ALL.map(Some)) {
                    for (everywhere, page) in [(false, 0), (true, u32::MAX)] {
                        let pick = BoardPick {
                            everywhere,
                            period,
                            format,
                            page,
                        };
                        ids.push(CustomId::Board { control, pick });
                    }
                }
            }
        }
        ids
    }

    #[test]
    fn every_id_round_trips() {
        for id in all_kinds() {
            let text = id.encode();
            assert_eq!(CustomId::parse(&text), Ok(id.clone()), "{text}");
            assert_eq!(id.game().map(GameId::get), Some(123_456_789));
        }
        for id in board_ids() {
            let text = id.encode();
            assert!(text.len() <= MAX_LEN, "{text}");
            assert_eq!(CustomId::parse(&text), Ok(id.clone()), "{text}");
            assert_eq!(id.game(), None);
        }
    }

    /// The longest values each field can take still fit Discord's limit.
    #[test]
    fn the_longest_ids_fit() {
        let game = GameId::new(i64::MAX).unwrap();
        let ply = u32::MAX;
        // The longest canonical notation: a unit move with a full load and the longest cells.
        let action = "b m13 cart coin coin bar ball boat".to_string();
        for id in [
            CustomId::Play {
                game,
                ply,
                action,
                confirmed: true,
            },
            CustomId::Pick {
                game,
                ply,
                path: vec![255, 255, 255],
            },
            CustomId::SettingValue {
                game,
                setting: "missionary_blocks_attack".into(),
            },
        ] {
            assert!(id.encode().len() <= MAX_LEN, "{}", id.encode());
        }
    }

    #[test]
    fn foreign_and_damaged_ids_are_refused() {
        for text in [
            "",
            "roll",
            "jk0:lobby:1:join",
            "jk1:lobby:1:dance",
            "jk1:lobby:x:join",
            "jk1:lobby:0:join",
            "jk1:lobby:-5:join",
            "jk1:pick:1:2:a.b",
            "jk1:pick:1::",
            "jk1:play:1:2:",
            "jk1:value:1:DROP TABLE",
            "jk1:resign:1:extra",
            "jk1:hist:1:2",
            "jk1:hist:1:2:sideways",
            "jk1:hist:1:x:first",
            "jk1:histat:1:2",
            "jk1:top:here:all:any",
            "jk1:top:there:all:any:0",
            "jk1:top:here:year:any:0",
            "jk1:top:here:all:five:0",
            "jk1:top:here:all:any:-1",
            "jk1:topformat:all:week:duel:0:x",
        ] {
            assert!(CustomId::parse(text).is_err(), "{text}");
        }
        // Longer than Discord allows: it used to be read, and its encoding failed the
        // length check (found by tests/service/fuzz.rs).
        let long = format!("jk1:play:1:2:1 e5{}", " coin".repeat(20));
        assert!(long.len() > MAX_LEN);
        assert!(CustomId::parse(&long).is_err());
    }

    #[test]
    fn pick_values_read_back_and_old_indexes_are_still_read() {
        for value in [
            PickValue::Group(0),
            PickValue::Group(24),
            PickValue::Action("1 e5 coin".into()),
            PickValue::Action("ship w".into()),
            PickValue::Index(7),
        ] {
            assert_eq!(PickValue::parse(&value.encode()), Ok(value));
        }
        assert_eq!(PickValue::parse("3"), Ok(PickValue::Index(3)));
        for forged in ["", "a", "a  ", "g", "gx", "g300", "x1", "-1"] {
            assert!(PickValue::parse(forged).is_err(), "{forged}");
        }
        assert!(PickValue::parse(&format!("a{}", "x".repeat(MAX_LEN))).is_err());
    }
}
