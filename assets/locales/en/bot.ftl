# The bot's own words: lobby, posts, the move picker, replies, refusals.
# Mentions (<@…>), channel links (<#…>) and timestamps (<t:…:R>) arrive ready in variables.

bot-name = Jackal
bot-player = 🤖 bot
bot-for-player = 🤖 bot for { $player }
player-unknown = a player
seat-free = (free)

## Durations and lists

duration-days = { $count ->
    [one] 1 day
   *[other] { $count } days
}
duration-hours = { $count ->
    [one] 1 hour
   *[other] { $count } hours
}
duration-minutes = { $count ->
    [one] 1 minute
   *[other] { $count } minutes
}
duration-seconds = { $count ->
    [one] 1 second
   *[other] { $count } seconds
}
more-lines = …and { $count ->
    [one] 1 more line
   *[other] { $count } more lines
}

## Settings

setting-board_size = Board
setting-players = Players
setting-tile_pack = Tiles
setting-plane_seats = Plane seats
setting-retreat_distance = Retreat distance
setting-restriction_kills = Restrictions kill
setting-missionary_blocks_attack = Missionary blocks attacks
setting-cannonball_kills = Cannonballs kill
setting-fortress_vs_cannonball = Fortresses stop cannonballs
setting-cannonball_spares_fog = Cannonballs spare closed tiles
setting-no_wasted_rum = No wasted rum
setting-no_trapped_rum = Pieces stuck in a cave serve no rum
setting-boardgame_caves = Caves as in the board game
setting-destroying_ships = Ships can be destroyed
setting-friendly_fire = Friendly fire
setting-stall_rounds = Rounds without progress before the end
setting-turn_time = Turn time
setting-reminder = Reminder before the deadline
setting-timeout = When time runs out
setting-max_missed = Missed deadlines in a row before a bot takes over
setting-timeout_level = Level of the bot that stands in

value-on = on
value-off = off
value-board = { $n }×{ $n }
value-players = { $n } players
value-players-2x2 = 2 against 2
value-pack-classic = classic
value-pack-full = full (with the expansion)
value-pack-custom = custom
value-seats-two = two seats
value-seats-one = one seat
value-seats-chosen = chosen seat
value-distance-king = king's moves
value-distance-taxicab = steps along the grid
value-distance-euclid = straight line
value-timeout-bot = a bot plays the turn
value-timeout-resign = the seat resigns
value-timeout-skip = the turn passes

settings-pick = Choose a setting to change
settings-title = Settings of game #{ $game }: { $summary }
settings-choose-value = Choose the new value of “{ $setting }”.
settings-changed = Game #{ $game }: “{ $setting }” changed. Now: { $summary }

## Lobby

lobby-title = **Jackal #{ $game }** · a new game by { $owner }
lobby-seats = **Seats**
lobby-seat = { $seat }. { $who }
lobby-sides = Teams 1 and 3 play together against teams 2 and 4.
lobby-rules = Rules changed: { $rules }
lobby-how = Press **Join** to take a seat. The owner can add bots, change the settings and start when every seat is taken.
lobby-started = ▶️ The game has started in { $place }.
lobby-started-here = ▶️ The game has started: it is played here, in this channel.
lobby-starting = ▶️ The game is starting: its thread opens in a moment.
lobby-final-post = [The final board and scores]({ $link })

button-join = Join
button-leave = Leave
button-add-bot = Add bot
button-settings = Settings
button-start = Start
button-cancel = Cancel
button-my-moves = My moves
button-reclaim = Take my seat back
button-pause-yes = Pause
button-pause-no = Keep playing
button-undo-yes = Take it back
button-undo-no = Keep the move
button-back = Back
button-play-anyway = Play it anyway
button-resign = Yes, resign

bot-level = Choose the bot's level.
level-random = Random
level-easy = Easy
level-normal = Normal
level-hard = Hard
level-random-about = plays any legal move
level-easy-about = grabs gold and carries it home; answers at once
level-normal-about = thinks ahead, about a second a move
level-hard-about = searches wider and trusts what it sees, up to two seconds a move
bot-added = A bot took a seat.

## Public posts

thread-name = Jackal #{ $game }: { $players }
post-start = 🏴‍☠️ **Jackal #{ $game } begins!** { $players }
post-how-to-play = Press **My moves** (or use `/jackal moves`) to see your board and play; `/jackal rules` explains every tile.
post-move = **Jackal #{ $game } · move { $number }** · { $team }
post-take-back = **Jackal #{ $game } · ↩️ taken back by consent**: the board is as after move { $number }.
post-gold = Gold: { $scores }
post-next = Next: { $team }{ $deadline }
post-deadline = {" "}· deadline { $when }
post-rating = {" "}· rating { $before } → { $after } ({ $change }, ±{ $uncertainty })
post-final-line = { $won ->
    [yes] 🏆 { $team }: { $points ->
        [one] 1 point
       *[other] { $points } points
    }
   *[no] { $team }: { $points ->
        [one] 1 point
       *[other] { $points } points
    }
}
post-reminder = ⏰ { $who }, it is your turn in Jackal #{ $game }: the deadline is { $when }.
post-paused = ⏸️ The game is paused; the clock runs again { $until }.
# $place: the game's thread (its name says the game), else game-title.
dm-reminder = ⏰ Your turn ends { $when }: { $place }
game-title = Jackal #{ $game }
## Reminder settings (/jackal remind) and the daily digest
remind-summary = **Your reminders**
    • When: { $before }
    • Where: { $via }
    • Quiet hours: { $quiet } (time zone { $zone })
    • Daily digest: { $digest }
remind-before-game = as each game sets
remind-before-off = none
remind-before-list = { $list } before the deadline
remind-via-dm = by direct message
remind-via-thread = by a mention in the game's thread
remind-via-auto = by direct message where DMs are open, else in the thread
remind-quiet-span = { $from }–{ $to }
remind-quiet-none = none
remind-digest-at = at { $time }, instead of reminders of each game
remind-digest-off = off
digest-title = ☀️ Your daily Jackal digest: { $count ->
    [one] it is your turn in one game.
   *[other] it is your turn in { $count } games.
}
digest-line = #{ $game }{ $place }: your turn ends { $when }
vacation-on = 🏖️ You are on vacation until { $until } ({ $when }). Your deadlines wait for you; your allowance is spent only when one would have passed, and what you do not use comes back when you move. Left this year: { $left } of { $allowance }.
vacation-replaced = 🏖️ This replaces your vacation that was to end { $until }: it starts again from now, and the unused rest of the old one is back in your allowance.
vacation-ended-by-move = 🏖️ Welcome back: moving ended your vacation. { $given } of your allowance came back; left this year: { $left } of { $allowance }.
vacation-off = You are not on vacation. Left this year: { $left } of { $allowance }.
server-limits = This server's limits: { $vacation ->
    [one] { $vacation } vacation day
   *[other] { $vacation } vacation days
} a year for each player; pauses of at most { $pause ->
    [one] { $pause } day
   *[other] { $pause } days
}.
pause-vote-waiting = Your vote is counted: { $accepted } of { $needed } needed so far.
pause-vote-started = The pause is on: no deadline runs until it ends { $until }.
pause-vote-refused = Your vote is counted: the pause is off, the game goes on.
pause-proposed = Your proposal is in the game's thread; the others have a day to vote.
undo-waiting = Asked: { $accepted } of { $needed } agree so far. The others answer with the buttons in the game's thread, within a day; a move played meanwhile ends the request.
undo-done = Taken back: the board is as it was, and the game is on move { $number } again.
undo-refused = Your answer is counted: the move stays, the game goes on.
extended = The player to move in game #{ $game } now has more time: their turn ends { $until }.


## The move picker

picker-heading = **Your move** · Jackal #{ $game } · move { $number } { $mark }
picker-deadline = Deadline: { $when }
picker-choose-move = Choose your move.
picker-choose-piece = Choose a piece.
picker-choose-in = { $group }: choose.
picker-piece-at = { $piece } · { $cell }
picker-ship = Ship
picker-boat = Boat on { $cell }
picker-resurrect = Resurrection
picker-rum = Rum
picker-target = → { $cell } ({ $count } options)
picker-run = { $first } … { $last }
picker-fatal = ☠ **This move is fatal**: { $action }. Play it anyway?
picker-played = ✅ Played: { $action }. The board is posted in the game's thread.
dms-closed = 📪 { $who }, your direct messages are closed to me, so I ping you here when it is your turn, and **My moves** under the board opens your moves. To get them by DM instead, allow direct messages from this server's members (the server's menu → Privacy Settings), then choose `/jackal remind via:direct message`; or choose `/jackal remind via:the game's thread` to keep them here.
picker-game-over = 🏁 Jackal #{ $game }: { $ending }
picker-turn-over = ✅ Your turn in Jackal #{ $game } (move { $number }) is over. Played: { $played }.

## Replies

board-caption = Jackal #{ $game } after { $number ->
    [0] no steps (the start)
    [one] 1 step
   *[other] { $number } steps
}
games-title = **Your games**
games-none = You are not in any game. Start one with `/jackal new`.
games-line = #{ $game } { $place } · { $state }
games-your-turn = **your turn**
status-lobby = waiting in the lobby
status-active = playing
game-choice = #{ $game } ({ $status })
history-title = **Jackal #{ $game }** · { $count ->
    [one] 1 step
   *[other] { $count } steps
}
history-empty = Nothing has been played in game #{ $game } yet.
history-at = Board after step { $number }
history-at-start = Board at the start
history-take-back = ↩️ Taken back by consent: the board is as after step { $ply }
history-taken-back = (taken back)
history-menu = Jump to a step
replay-caption = **Jackal #{ $game }** · { $count ->
    [one] 1 step
   *[other] { $count } steps
}, from the deal
resign-confirm = Resign from Jackal #{ $game }? In a duel your opponent wins; in a bigger game a bot plays your seat on.
resigned = You resigned from game #{ $game }.
reclaimed = You are back in game #{ $game }: seat { $team } is yours again.
kicked = Seat { $seat } of game #{ $game } was freed.
kicked-bot-plays = The player of seat { $seat } in game #{ $game } was removed: a bot plays the seat on.
cancelled = Game #{ $game } was cancelled.
language-set = I will speak to you in { $language }.
language-server-set = This server's language is now { $language }.
language-auto = your Discord language

help-title = Jackal («Шакал») on Discord
help-credits = Board icons by Lorc, Delapouite, Skoll and Willdabeast from game-icons.net, CC BY 3.0 (recoloured and rasterised). Font: DejaVu Sans Bold (Bitstream Vera licence).
help-body =
    Pirates land on a hidden island, open its tiles and carry gold back to their ship. Games run for days: you get a DM when it is your turn.
    
    • **Start**: `/jackal new` opens a lobby here; players press **Join**, the owner presses **Start**. A thread opens for the game.
    • **Play**: press **My moves** under the board (or in your DM), or type `/jackal move 2 e5 coin`. Regret a move? `/jackal undo` asks the others to take it back (only while it opened nothing).
    • **Look**: `/jackal board`, `/jackal history`, `/jackal replay`, `/jackal games`, `/jackal rules arrow`.
    • **Manage**: `/jackal settings`, `/jackal kick`, `/jackal cancel`, `/jackal extend` (the game's owner or a server manager), `/jackal resign`.
    • **Your time**: `/jackal remind` (when and where you are reminded, quiet hours, a daily digest), `/jackal vacation 5d`, `/jackal pause 2d` (the other players vote).
    • **Score**: `/jackal stats` (yours, or anyone's), `/jackal leaderboard` (this server's or every server's, by period and number of players).
    • **Language**: `/jackal language`.

## Refusals (always private; nothing was changed)

err-unknown-game = There is no game #{ $game }.
err-already-started = Game #{ $game } has already started.
err-not-running = Game #{ $game } has not started yet.
err-finished = Game #{ $game } is over.
err-full = Every seat of game #{ $game } is taken.
err-already-seated = You already have a seat in game #{ $game }.
err-seat-taken = Seat { $seat } is taken.
err-no-such-seat = This game has no seat { $seat }.
err-seat-empty = Seat { $seat } is empty.
err-already-bot = Seat { $seat } is already played by a bot.
err-not-your-game = You are not playing in game #{ $game }.
err-nothing-to-reclaim = No bot holds a seat of yours in game #{ $game }: there is no seat to reclaim.
err-not-owner = Only the game's owner or a member with Manage Server can do that.
err-not-server-manager = Only a member with Manage Server can change the server's settings.
err-not-your-turn = It is not your turn: team { $team } is to move.
err-stale-view = That board is out of date: the game has moved on to move { $current }. Press **My moves** for the current one.
err-stale-button = That button is from an older board: the game is at move { $current } now. Press **My moves** for the current one.
err-already-played = That move was already played.
err-illegal = That move is not allowed: { $why }.
err-setting-unknown = There is no setting “{ $id }”: pick one from the list.
err-setting-value = “{ $value }” will not do for “{ $setting }”: { $takes }.
takes-turn-time = it takes a length of time from 1 minute to 14 days, such as 12h or 2d
takes-reminder = it takes a length of time shorter than the turn, such as 3h, or off
takes-range = it takes a number from { $min } to { $max }
takes-one-of = the choices are { $values }
choice-typed = { $label } (`{ $raw }`)
err-setting-pack = “{ $value }” is not a tile set that can be played: { $why }.
pack-unknown-tile = no tile is called “{ $tile }”
pack-bad-entry = “{ $entry }” is not written as tile*count, such as chest5*20
pack-too-many-special = a set holds one `{ $tile }` at most
pack-too-large = a set may hold { $max } tiles at most, not { $count }
err-setting-tiles = This game's settings cannot be played: { $why }.
err-setting-no-map = No map can be dealt from this tile set on a board this size: choose more tiles or a smaller board.
err-setting-reminder-late = A reminder { $reminder } before the deadline would come no later than the turn begins: a turn is { $turn }. Choose a shorter reminder or a longer turn.
err-setting-half-given = Give both the setting and its new value (or neither, to see them all).
err-bad-extension = You can add 1 hour to 14 days, such as 1d or 6h.
err-limit-too-long = At most { $max } days, not { $days }.
err-seats-empty = { $count ->
    [one] Seat { $seats } is still empty
   *[other] Seats { $seats } are still empty
}: wait for players to join, or add bots.
err-no-game-here = You have no game in this channel. Name one with the `game` option, or see `/jackal games`.
err-which-game = You play several games here ({ $games }): name one with the `game` option.
err-not-in-server = This command works in a server's channel, not in a DM.
err-missing-permissions = I cannot run a game here: I am missing { $permissions } in this channel. A server manager can grant them in the channel's settings.
err-not-yours = That button belongs to someone else.
err-unknown-component = That button is no longer in use. Use `/jackal moves` or `/jackal games`.
err-resign-unconfirmed = To resign, use `/jackal resign` and confirm it there.
err-too-long = The `{ $option }` you gave is far too long.
err-out-of-range = The `{ $option }` you gave is out of range (0 to { $max }).
err-bad-option = One of the options you gave is not valid.
err-no-topic = There is no rules topic “{ $topic }”. Try `/jackal rules` and pick one from the list.
err-closing = Jackal is restarting; try again in a minute.
err-internal = Something went wrong on my side; nothing was changed. Please try again.
err-unknown-zone = There is no time zone called “{ $zone }”. Use a name such as Europe/Moscow or America/New_York (the list offers them as you type).
err-bad-clock = “{ $text }” is not a time of day: write it as 23:00 or 7:30.
err-bad-quiet = “{ $text }” is not a span of quiet hours: write it as 23:00-08:00.
err-quiet-whole-day = Quiet hours from a time to the same time would cover the whole day: choose two different times, or turn reminders off.
err-bad-offset = “{ $text }” is not a time before the deadline: write it as 12h, 1h or 30m (at most 14d).
err-too-many-reminders = That is { $count } reminders; at most { $max } are allowed.
err-vacation-too-long = You have { $left } of vacation left this year (of { $days ->
    [one] { $days } day
   *[other] { $days } days
}): ask for that much at most.
err-not-on-vacation = You are not on vacation.
err-bad-length = “{ $text }” is not a length of time: write it as 5d or 36h (an hour at least).
err-too-short = “{ $text }” is too short: the shortest is { $min }.
err-pause-too-long = A pause may last at most { $days ->
    [one] { $days } day
   *[other] { $days } days
} on this server (a server manager sets it with `/jackal server`).
err-already-paused = This game is already paused; the pause ends { $until }. Propose another once it is over.
err-pause-proposed = A pause of game #{ $game } is already waiting for votes: answer it with its buttons.
err-no-pause-proposed = No pause of game #{ $game } is waiting for votes (it was decided or lapsed).
err-already-voted = You already voted on this pause of game #{ $game }.
err-no-deadline = Nobody's deadline runs in game #{ $game } right now (it is a bot's turn).
err-undo-nothing = You have no move to take back: none since the game began or since the last take-back.
err-undo-mid-move = A move is half played (a choice is waiting): finish it first, then ask.
err-undo-bot-played = That move cannot be taken back: a bot or a deadline has played since, and a bot's move is not anyone's to take back.
err-undo-revealed = That move cannot be taken back: { $whose ->
    [yours] it
   *[after] a move played after it
} { $what ->
    [lighthouse] looked at tiles from the lighthouse
    [earthquake] set off an earthquake
   *[tile] opened a tile
}, and what was seen cannot be hidden again.
err-undo-proposed = A take-back in game #{ $game } is already waiting for answers: answer it with its buttons.
err-no-undo-proposed = No take-back of game #{ $game } is waiting for answers (it was decided, lapsed, or a move was played since).
err-undo-voted = You already agreed to this take-back in game #{ $game }.

illegal-syntax = the move is not written in a form the game understands (e.g. `2 e5 coin`, `ship f1`)
illegal-ambiguous = the move fits several actions; name the cell
illegal-game-over = the game is over
illegal-choice-pending = a choice is pending: answer it with a cell first
illegal-no-choice-pending = there is no pending choice to answer
illegal-bad-choice = that is not one of the options of the pending choice
illegal-no-such-unit = your team has no living piece with that id
illegal-unit-disabled = that piece is drunk, trapped or stuck and cannot move
illegal-unreachable = that cell cannot be reached from where the piece stands
illegal-enemy-vessel = a piece cannot step onto an enemy vessel
illegal-bad-cargo = that cargo is not there, or is more than the piece can carry
illegal-enemy-fortress = an enemy holds that fortress
illegal-enemy-missionary = an enemy missionary stands there
illegal-cannot-attack = that piece cannot attack
illegal-cargo-forbidden = cargo cannot go onto a closed tile, into a fortress, the jungle or onto enemies
illegal-vessel-cannot-move = that vessel cannot move there
illegal-no-resurrection = no resurrection is possible
illegal-rum-forbidden = rum cannot be served there now
illegal-detail-no-text = nothing was written
illegal-detail-unknown-start = `{ $word }` is not a piece (1, 2, 3, b, f, m), `ship`, `boat`, `res`, `rum` or a cell
illegal-detail-not-a-cell = `{ $word }` is not a cell of this board
illegal-detail-not-an-item = `{ $word }` is not an item (coin, bar, ball, boat, cart)
illegal-detail-too-many-words = `{ $word }` is one word too many
illegal-detail-cell-missing = the cell is missing
illegal-detail-drunk = that piece is drunk
illegal-detail-trapped = that piece is caught in a trap
illegal-detail-stuck = that piece is stuck in the cave tunnel
illegal-detail-no-boat = a piece steps into the sea only to launch a boat
illegal-detail-carries-nothing = that piece carries nothing
illegal-detail-cargo-not-there = those items are not where the piece stands
illegal-detail-cargo-too-much = a piece carries one item, or a wheelbarrow and two more
illegal-detail-cargo-fog = a piece with cargo cannot enter a closed tile
illegal-detail-cargo-fortress = a piece with cargo cannot enter a fortress
illegal-detail-cargo-jungle = a piece with cargo cannot enter the jungle
illegal-detail-cargo-enemies = a piece with cargo cannot attack
illegal-detail-no-crew = nobody aboard can sail it
illegal-detail-no-rum = no rum in your stock
illegal-detail-weed-turn = nobody serves rum on a shaitan weed turn
illegal-detail-no-server = no piece of yours is there or next to it to serve
illegal-detail-rum-jungle = rum cannot be served onto the jungle
illegal-detail-rum-enemy = an enemy stands on the maze's last step
illegal-detail-rum-wasted = the rum would change nothing there

perm-view-channel = View Channel
perm-send-messages = Send Messages
perm-send-in-threads = Send Messages in Threads
perm-create-threads = Create Public Threads
perm-attach-files = Attach Files
perm-embed-links = Embed Links
perm-read-history = Read Message History

## Stats and leaderboards (/jackal stats, /jackal leaderboard)

stats-none = { $user } has not finished a rated game on this server yet.
stats-title = 📊 **Stats of { $user }** on this server
stats-rating = Rating **{ $rating }** (±{ $uncertainty }) · place **{ $place }** of { $people }
stats-rating-everywhere = {" "}· on every server { $rating }
stats-record = Games **{ $games }** · wins **{ $wins }** ({ $percent }%)
stats-move-time = Time to move: mean { $mean } · median { $median } (over { $count ->
    [one] { $count } move
   *[other] { $count } moves
})
stats-missed = Deadlines missed: { $count }
stats-favourite = Favourite opponent: { $who } ({ $games ->
    [one] { $games } game
   *[other] { $games } games
})
stats-best = Beaten most often: { $who } ({ $beaten } of { $games })
stats-bot = 🤖 { $level } bot
stats-gold = Gold carried home: { $gold } ({ $average } a game) · pirates lost: { $pirates }
stats-gold-counted = {" "}(over the last { $count ->
    [one] { $count } game: older games did not keep it
   *[other] { $count } games: older games did not keep it
})
stats-chart-title = Rating after each game
stats-chart-games = games

top-title = 🏆 **Leaderboard** · { $whose } · { $period } · { $format }
top-whose-here = this server
top-whose-everywhere = every server
top-period-all = all time
top-period-month = this month
top-period-week = this week
top-format-any = all games
top-format-duel = duels
top-format-three = 3 players
top-format-four = 4 players
top-format-pairs = 2 against 2
top-line = { $medal }**{ $place }.** { $user } — **{ $points }** · { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}
top-page = Page { $page } of { $pages } · { $people ->
    [one] { $people } player
   *[other] { $people } players
}
top-you = You: { $line }
top-not-you = You are not on this board yet: finish a rated game to get on it.
top-empty = Nobody is on this board yet: it fills as rated games finish.
top-button-here = This server
top-button-everywhere = Every server
