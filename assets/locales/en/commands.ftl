# Slash commands (Discord's own localisations): a command X is `cmd-X` with `.description`,
# `.<option>` and `.<option>-description`; a choice C of option O is `choice-O-C`.
# Names: lowercase, no spaces, at most 32 characters; descriptions at most 100.

cmd-jackal = jackal
    .description = Jackal, the pirate board game

cmd-new = new
    .description = Start a new game in this channel
    .players = players
    .players-description = How many players (2 against 2: two teams of two)
    .size = size
    .size-description = The island's size
    .pack = pack
    .pack-description = Which tiles the island is made of
    .turn_time = turn_time
    .turn_time-description = Time for each turn
    .timeout = timeout
    .timeout-description = What happens when a turn's time runs out

cmd-move = move
    .description = Play a move, typed like 2 e5 coin or ship f1
    .action = action
    .action-description = Your move (start typing to see your moves in words)
    .game = game
    .game-description = Which game (default: yours in this channel)

cmd-moves = moves
    .description = Your board and your moves, in private
    .game = game
    .game-description = Which game (default: yours in this channel)

cmd-board = board
    .description = The board of a game, now or after any move
    .ply = ply
    .ply-description = After this many steps of the history (0: the start; default: now)
    .game = game
    .game-description = Which game (default: yours in this channel)

cmd-games = games
    .description = Your games: where they are, whose turn, until when

cmd-history = history
    .description = The moves of a game in words, with its board after any of them to step through
    .game = game
    .game-description = Which game (default: yours in this channel)
    .ply = ply
    .ply-description = Open at the board after this many steps (default: now)

cmd-stats = stats
    .description = A player's stats on this server: record, rating and its history, time to move
    .user = user
    .user-description = Whose (default: yours)

cmd-leaderboard = leaderboard
    .description = The best players of this server (or of every server), by rating
    .players = players
    .players-description = Count only games of this many players
    .period = period
    .period-description = All time (default), this month or this week
    .everywhere = everywhere
    .everywhere-description = Every server together (default: this one)

cmd-replay = replay
    .description = A whole game as an animation, one frame a move, each move's path drawn
    .game = game
    .game-description = Which game (default: yours in this channel)

cmd-resign = resign
    .description = Resign from a game (asks first)
    .game = game
    .game-description = Which game (default: yours in this channel)
cmd-undo = undo
    .description = Ask to take back your last move (the other players agree or refuse)
    .game = game
    .game-description = Which game (default: yours in this channel)

cmd-rules = rules
    .description = How the game works: every tile, piece and rule
    .topic = topic
    .topic-description = A tile, a piece or a rule (default: the overview)

cmd-help = help
    .description = What the bot can do, and how to play

cmd-language = language
    .description = The language the bot speaks to you (or to the whole server)
    .language = language
    .language-description = English, Russian, or your Discord language
    .server = server
    .server-description = For the whole server (needs Manage Server)

cmd-remind = remind
    .description = Your reminders: how long before a deadline, where, quiet hours, a daily digest
    .before = before
    .before-description = Up to three times before the deadline (e.g. 12h, 1h), off, or game
    .via = via
    .via-description = By direct message or by a mention in the game's thread
    .quiet = quiet
    .quiet-description = No reminders in these hours of your day (e.g. 23:00-08:00), or off
    .zone = zone
    .zone-description = Your time zone (e.g. Europe/Moscow)
    .digest = digest
    .digest-description = One message a day at this time listing your turns (e.g. 09:00), or off

cmd-vacation = vacation
    .description = Away for a while: your deadlines wait (your yearly allowance is spent only when one would pass)
    .length = length
    .length-description = How long (e.g. 5d, 36h), or off to come back now; empty: show your vacation

cmd-server = server
    .description = The server's limits: vacation days a year, the longest pause (Manage Server to change)
    .vacation_days = vacation_days
    .vacation_days-description = Vacation days each player has a year
    .max_pause_days = max_pause_days
    .max_pause_days-description = The longest pause a game may vote for, in days

cmd-pause = pause
    .description = Propose to pause a game: its deadlines stop while the pause runs (the others vote)
    .length = length
    .length-description = How long (e.g. 3d, 12h), at most what the server allows
    .game = game
    .game-description = Which game (default: yours in this channel)

cmd-extend = extend
    .description = Give the player whose turn it is more time (game owner or Manage Server)
    .length = length
    .length-description = How much more (e.g. 1d, 6h)
    .game = game
    .game-description = Which game (default: the one in this channel)

cmd-kick = kick
    .description = Remove a player (owner or server manager)
    .seat = seat
    .seat-description = The seat (team number) to remove the player from
    .game = game
    .game-description = Which game (default: the one in this channel)

cmd-cancel = cancel
    .description = Cancel a game (owner or server manager)
    .game = game
    .game-description = Which game (default: the one in this channel)

cmd-settings = settings
    .description = See or change a lobby's settings (owner or server manager)
    .setting = setting
    .setting-description = The setting to change (leave out to see them all)
    .value = value
    .value-description = Its new value
    .game = game
    .game-description = Which game (default: the one in this channel)

choice-players-2 = 2 players
choice-players-3 = 3 players
choice-players-4 = 4 players
choice-players-2x2 = 2 against 2
choice-period-all = all time
choice-period-month = this month
choice-period-week = this week
choice-size-5 = 5×5 · 5 land cells (a taster, not the full game)
choice-size-7 = 7×7 · 21 land cells
choice-size-9 = 9×9 · 45 land cells
choice-size-11 = 11×11 · 77 land cells
choice-size-13 = 13×13 · 117 land cells (the board game)
choice-pack-full = full (with the expansion)
choice-pack-classic = classic
choice-turn_time-1h = 1 hour
choice-turn_time-6h = 6 hours
choice-turn_time-12h = 12 hours
choice-turn_time-1d = 1 day
choice-turn_time-2d = 2 days
choice-turn_time-3d = 3 days
choice-turn_time-7d = 7 days
choice-timeout-bot = a bot plays the turn
choice-timeout-resign = the seat resigns
choice-timeout-skip = the turn passes
choice-language-en = English
choice-language-ru = Русский
choice-language-auto = my Discord language
choice-via-dm = direct message
choice-via-thread = the game's thread
choice-via-auto = a DM where DMs are open
