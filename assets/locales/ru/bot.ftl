# The bot's own words (replies, posts, buttons). Filled in as the bot grows.

bot-name = Jackal
