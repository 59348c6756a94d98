//! serenity's ids and ours (`crate::id`) are the same snowflakes: the Discord edge converts
//! one into the other here, so the service never names a serenity type.

macro_rules! same_snowflake {
    ($($ours:ident),*) => {$(
        impl From<serenity::all::$ours> for crate::id::$ours {
            fn from(id: serenity::all::$ours) -> Self {
                Self::new(id.get())
            }
        }

        impl From<crate::id::$ours> for serenity::all::$ours {
            fn from(id: crate::id::$ours) -> Self {
                Self::new(id.get())
            }
        }
    )*};
}

same_snowflake!(UserId, ChannelId, GuildId, MessageId);
