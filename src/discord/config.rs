//! The bot's configuration: the environment, with `.env` read first (dotenvy). Each key is
//! documented in `.env.example`; a bad value is refused at start with one clear line.

use std::path::PathBuf;
use std::time::Duration;

use super::shards::ShardRange;
use crate::game::worker::DEFAULT_LEASE;
use crate::game::{Database, Durability};

/// What the bot runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub token: String,
    /// `DATABASE_URL` (a PostgreSQL server) when it is set, else `DATABASE_PATH` (a file).
    pub database: Database,
    pub durability: Durability,
    /// Register the commands in this server at once (global commands can take a while to
    /// appear everywhere).
    pub dev_guild: Option<u64>,
    /// The base URL of a Discord-compatible server (a self-hosted Spacebar, a test fake):
    /// REST and the gateway go there only.
    pub api_url: Option<String>,
    /// The gateway shards this process runs (`SHARDS`); every shard, as many as Discord
    /// recommends, when unset.
    pub shards: Option<ShardRange>,
    /// How long a claim on shared work lasts (`WORK_LEASE_SECS`): what a process that dies
    /// holds up (see `game::Worker`).
    pub lease: Duration,
}

/// Why the configuration cannot be used; each says what to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error(
        "DISCORD_TOKEN is not set: put your bot's token in .env (DISCORD_TOKEN=…), from the \
         Discord developer portal → your application → Bot → Reset Token"
    )]
    MissingToken,
    #[error(
        "DATABASE_URL must be a PostgreSQL URL such as \
         postgres://jackal:password@localhost:5432/jackal (or unset, for the SQLite file of \
         DATABASE_PATH)"
    )]
    BadDatabaseUrl,
    #[error("DB_DURABILITY must be `full` or `normal`, not `{0}`")]
    BadDurability(String),
    #[error("DEV_GUILD_ID must be a server id (a number such as 123456789012345678), not `{0}`")]
    BadGuild(String),
    #[error(
        "DISCORD_API_URL must be an http:// or https:// base URL such as http://127.0.0.1:3001, \
         not `{0}`"
    )]
    BadApiUrl(String),
    #[error(
        "SHARDS must be a range of shards and how many there are in all, such as 0-3/8 \
         (shards 0 to 3 of 8) or 2/8 (shard 2 of 8), not `{0}`"
    )]
    BadShards(String),
    #[error(
        "SHARDS={0} runs only some of the bot's shards: the others need processes of their \
         own, which share a PostgreSQL database (DATABASE_URL=postgres://…); on an SQLite file \
         one process runs every shard (leave SHARDS unset)"
    )]
    PartOfShardsOnAFile(String),
    #[error("WORK_LEASE_SECS must be a number of seconds from 1 to 3600, not `{0}`")]
    BadLease(String),
}

impl Config {
    /// Reads `.env` (if there is one) into the environment, then the configuration.
    pub fn from_env() -> Result<Config, ConfigError> {
        // A missing .env is fine: the environment may hold everything.
        let _ = dotenvy::dotenv();
        Config::from_vars(|key| std::env::var(key).ok())
    }

    /// The configuration from a source of variables (the environment, or a test's map).
    /// Empty values count as unset, as `.env.example`'s blank lines are.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let get = |key: &str| {
            var(key)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let token = get("DISCORD_TOKEN").ok_or(ConfigError::MissingToken)?;
        let database = match get("DATABASE_URL") {
            Some(url) => match Database::parse(&url) {
                server @ Database::Server(_) => server,
                Database::File(_) => return Err(ConfigError::BadDatabaseUrl),
            },
            None => Database::File(
                get("DATABASE_PATH").map_or_else(|| PathBuf::from("jackal.db"), PathBuf::from),
            ),
        };
        let durability = match get("DB_DURABILITY") {
            None => Durability::Full,
            Some(v) => Durability::parse(&v).ok_or(ConfigError::BadDurability(v))?,
        };
        let dev_guild = match get("DEV_GUILD_ID") {
            None => None,
            Some(v) => Some(
                v.parse::<u64>()
                    .ok()
                    .filter(|id| *id > 0)
                    .ok_or(ConfigError::BadGuild(v))?,
            ),
        };
        let api_url = match get("DISCORD_API_URL") {
            None => None,
            Some(v) if v.starts_with("http://") || v.starts_with("https://") => {
                Some(v.trim_end_matches('/').to_string())
            }
            Some(v) => return Err(ConfigError::BadApiUrl(v)),
        };
        let shards = match get("SHARDS") {
            None => None,
            Some(v) => Some(ShardRange::parse(&v).ok_or(ConfigError::BadShards(v))?),
        };
        if let (Some(range), Database::File(_)) = (shards, &database)
            && !range.is_whole()
        {
            return Err(ConfigError::PartOfShardsOnAFile(range.to_string()));
        }
        let lease = match get("WORK_LEASE_SECS") {
            None => DEFAULT_LEASE,
            Some(v) => v
                .parse::<u64>()
                .ok()
                .filter(|s| (1..=3600).contains(s))
                .map(Duration::from_secs)
                .ok_or(ConfigError::BadLease(v))?,
        };
        Ok(Config {
            token,
            database,
            durability,
            dev_guild,
            api_url,
            shards,
            lease,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn from(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_vars(|k| map.get(k).cloned())
    }

    #[test]
    fn only_the_token_is_needed() {
        let c = from(&[("DISCORD_TOKEN", "abc")]).unwrap();
        assert_eq!(c.token, "abc");
        assert_eq!(c.database, Database::File(PathBuf::from("jackal.db")));
        assert_eq!(c.durability, Durability::Full);
        assert_eq!((c.dev_guild, c.api_url), (None, None));
        assert_eq!((c.shards, c.lease), (None, DEFAULT_LEASE));
    }

    #[test]
    fn every_key_is_read() {
        let c = from(&[
            ("DISCORD_TOKEN", " abc "),
            ("DATABASE_PATH", "/var/lib/jackal/games.db"),
            ("DB_DURABILITY", "Normal"),
            ("DEV_GUILD_ID", "123456789012345678"),
            ("DISCORD_API_URL", "http://127.0.0.1:3001/"),
            ("SHARDS", "0-1/2"),
            ("WORK_LEASE_SECS", "20"),
        ])
        .unwrap();
        assert_eq!(c.token, "abc");
        assert_eq!(
            c.database,
            Database::File(PathBuf::from("/var/lib/jackal/games.db"))
        );
        assert_eq!(c.durability, Durability::Normal);
        assert_eq!(c.dev_guild, Some(123456789012345678));
        assert_eq!(c.api_url.as_deref(), Some("http://127.0.0.1:3001"));
        assert_eq!(
            c.shards,
            ShardRange::parse("0-1/2"),
            "every shard, on a file"
        );
        assert_eq!(c.lease, Duration::from_secs(20));
    }

    #[test]
    fn bad_values_say_what_to_do() {
        assert_eq!(from(&[]), Err(ConfigError::MissingToken));
        assert_eq!(
            from(&[("DISCORD_TOKEN", "  ")]),
            Err(ConfigError::MissingToken)
        );
        let bad = |k: &str, v: &str| from(&[("DISCORD_TOKEN", "t"), (k, v)]).unwrap_err();
        assert!(
            bad("DB_DURABILITY", "fast")
                .to_string()
                .contains("`full` or `normal`")
        );
        assert!(matches!(
            bad("DEV_GUILD_ID", "my server"),
            ConfigError::BadGuild(_)
        ));
        assert!(matches!(bad("DEV_GUILD_ID", "0"), ConfigError::BadGuild(_)));
        assert!(matches!(
            bad("DISCORD_API_URL", "localhost:3001"),
            ConfigError::BadApiUrl(_)
        ));
        assert!(matches!(
            bad("DATABASE_URL", "mysql://localhost/jackal"),
            ConfigError::BadDatabaseUrl
        ));
        assert!(matches!(bad("SHARDS", "8"), ConfigError::BadShards(_)));
        assert!(
            bad("SHARDS", "0-8/8").to_string().contains("such as 0-3/8"),
            "a range past the total"
        );
        let part = bad("SHARDS", "0-1/4");
        assert_eq!(part, ConfigError::PartOfShardsOnAFile("0-1/4".into()));
        assert!(part.to_string().contains("DATABASE_URL"), "{part}");
        assert!(matches!(
            bad("WORK_LEASE_SECS", "0"),
            ConfigError::BadLease(_)
        ));
        assert!(matches!(
            bad("WORK_LEASE_SECS", "1m"),
            ConfigError::BadLease(_)
        ));
        // Empty lines of .env.example are "not set".
        assert!(from(&[("DISCORD_TOKEN", "t"), ("DEV_GUILD_ID", "")]).is_ok());
    }

    #[test]
    fn a_database_url_chooses_postgresql_over_the_file() {
        let url = "postgres://jackal:secret@db.internal:5432/jackal";
        let c = from(&[
            ("DISCORD_TOKEN", "t"),
            ("DATABASE_PATH", "games.db"),
            ("DATABASE_URL", url),
        ])
        .unwrap();
        assert_eq!(c.database, Database::Server(url.to_string()));
        // A part of the shards, beside other processes on the same server.
        let c = from(&[
            ("DISCORD_TOKEN", "t"),
            ("DATABASE_URL", url),
            ("SHARDS", "2-3/4"),
        ])
        .unwrap();
        assert_eq!(c.shards, ShardRange::parse("2-3/4"));
        // Named in messages without its password.
        assert_eq!(
            c.database.shown(),
            "postgres://jackal@db.internal:5432/jackal"
        );
    }
}
