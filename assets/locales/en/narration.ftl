# The game told in words: units, items, tiles, the events of a move, endings and notices.
# Used by the bot's posts and by the terminal game. Variables: $unit, $team (already worded),
# $cell (a cell name such as e5), $items (already worded), numbers ($count, $points, …).

team-numbered = Team { $team }
list-and = { $init } and { $last }
list-or = { $init } or { $last }
quoted = “{ $text }”

## Units

unit-pirate = Pirate { $n }
unit-ben = Ben Gunn
unit-friday = Friday
unit-missionary = Missionary
unit-of-team = { $unit } ({ $team })

## Items

item-cart = { $count ->
    [one] 1 wheelbarrow
   *[other] { $count } wheelbarrows
}
item-coin = { $count ->
    [one] 1 coin
   *[other] { $count } coins
}
item-bar = { $count ->
    [one] 1 gold bar
   *[other] { $count } gold bars
}
item-ball = { $count ->
    [one] 1 cannonball
   *[other] { $count } cannonballs
}
item-boat = { $count ->
    [one] 1 boat
   *[other] { $count } boats
}
items-none = nothing

## Tiles

tile-empty = empty land
tile-arrow = arrow
tile-horse = horse
tile-ice = ice
tile-maze = { $steps }-step maze
tile-trap = trap
tile-crocodile = crocodile
tile-cannibal = cannibal
tile-fortress = fortress
tile-resfort = resurrection fortress
tile-chest = { $coins ->
    [one] chest with 1 coin
   *[other] chest with { $coins } coins
}
tile-bullion = gold bar
tile-barrel = barrel of rum
tile-cannon = cannon
tile-balloon = balloon
tile-plane = plane
tile-lighthouse = lighthouse
tile-bengunn = Ben Gunn
tile-friday = Friday
tile-missionary = missionary
tile-bottles = { $count ->
    [one] 1 bottle of rum
   *[other] { $count } bottles of rum
}
tile-cave = cave
tile-earthquake = earthquake
tile-jungle = jungle
tile-weed = shaitan weed
tile-caramba = caramba
tile-boat = boat
tile-cart = wheelbarrow
tile-ball = cannonball

## Events of a move

ev-moved-step = { $unit } moved to { $cell }
ev-moved-jump = { $unit } jumped to { $cell }
ev-moved-flight = { $unit } flew to { $cell }
ev-moved-shot = { $unit } was shot to { $cell }
ev-moved-balloon = { $unit } flew by balloon to { $cell }
ev-moved-tunnel = { $unit } went through the tunnel to { $cell }
ev-moved-advance = { $unit } went deeper into the maze on { $cell }
ev-opened = { $cell } is opened: { $tile }
ev-revealed = The lighthouse shows { $cell }: { $tile }
ev-shelled = The cannonball opens { $cell }: { $tile }
ev-recruited = { $unit } joins at { $cell }
ev-converted = { $unit } is converted by the rum
ev-bottles = { $team } finds { $bottles ->
    [one] { $bottles } bottle
   *[other] { $bottles } bottles
} of rum
ev-weed = { $team } finds the shaitan weed at { $cell }: for { $turns ->
    [one] { $turns } turn
   *[other] { $turns } turns
} each team is commanded by the player before it
ev-retreated = { $unit } went to the vessel at { $cell }
ev-caramba = Caramba! Everyone ashore runs back to the ships
ev-stuck = { $unit } is stuck in the cave tunnel under { $cell }
ev-released = { $unit } comes out of the tunnel at { $cell }
ev-quaked = The earthquake swaps { $a } and { $b }
ev-launched = { $team } launches a boat at { $cell }
ev-fired = { $team } fires the cannon on { $cell }
ev-vessel-hit = { $team }'s vessel at { $cell } is hit ({ $hits ->
    [one] { $hits } hit
   *[other] { $hits } hits
})
ev-vessel-sunk = { $team }'s { $boat ->
    [yes] boat
   *[no] ship
} sinks at { $cell }
ev-eliminated = { $team } has no vessel left and is out of the game
ev-rum-served = { $team } serves rum at { $cell }
ev-appeared = { $items } on { $cell }
ev-cargo-returned = { $items } went back to { $cell }
ev-lost = { $items } lost at { $cell }
ev-delivered = { $team } scored { $points ->
    [one] 1 point
   *[other] { $points } points
}
ev-knocked-out = { $unit } was knocked out to the vessel at { $cell }
ev-joined = { $unit } joined { $team }
ev-drunk = { $unit } is drunk
ev-trapped = { $unit } fell into the trap
ev-freed = { $unit } is free
ev-seated = { $unit } took a seat in the plane
ev-vessel-moved = { $team }'s vessel sailed to { $cell }
ev-resurrected = { $unit } came back to life at { $cell }
ev-skipped = { $team } could not move and was skipped
ev-passed = { $team }'s time ran out: the turn passes

death-drowned = { $unit } drowned at { $cell }
death-enemy-vessel = { $unit } landed on an enemy vessel at { $cell } and died
death-forbidden = { $unit } was carried where it may not go and died at { $cell }
death-restriction = { $unit } broke a restriction with its cargo and died at { $cell }
death-cannibal = { $unit } was eaten by the cannibal at { $cell }
death-loop = { $unit } went round in a loop and died at { $cell }
death-nowhere = { $unit } had nowhere to go and died at { $cell }
death-no-vessel = { $unit } had no vessel to go to and died at { $cell }
death-cannonball = { $unit } was hit by a cannonball at { $cell }
death-rum = { $unit } drank rum and died at { $cell }
death-friday-missionary = { $unit } died at { $cell }: Friday and a missionary met
death-eliminated = { $unit } was lost with its team at { $cell }
death-sunk = { $unit } went down with the vessel at { $cell }

## Pending choices

choice-exit = Choose where to go on from the fork.
choice-jump = Choose where to jump.
choice-flight = Choose where to fly.
choice-cave = Choose the cave to come out of.
choice-reveal = Choose a closed tile to reveal.
choice-quake = Choose a cell to shake.

## Endings

end-reason-uncatchable = the leader can no longer be caught
end-reason-no-moves = the opponent had no move left
end-reason-sunk = ships sunk
end-reason-disabled = nobody can move any more
end-reason-stall = nothing was opened, delivered or lost for too long
end-won = Game over: { $teams } { $count ->
    [one] wins
   *[other] win
} ({ $reason }).
end-draw = Game over: a draw between { $teams } ({ $reason }).
end-resigned = { $team } resigned: { $winners } { $count ->
    [one] wins
   *[other] win
}.
end-timed-out = { $team } let the turn's time run out, which resigns the game: { $winners } { $count ->
    [one] wins
   *[other] win
}.
end-cancelled = The game was cancelled.
end-thread-deleted = The game's thread was deleted, so the game was archived where it stood.

## Notices

notice-kicked = ℹ️ { $team }: the player was removed; a bot plays on.
notice-resigned = ℹ️ { $team } resigned; a bot plays on.
notice-resigned-late = ℹ️ { $team }: time ran out, which resigns the seat; a bot plays on.
notice-timed-out = ℹ️ { $team }: time ran out; a bot made the move.
notice-passed = ℹ️ { $team }: time ran out; the turn passes without a move.
notice-taken-over = ℹ️ { $team } { $missed ->
    [1] missed a deadline
   *[other] missed { $missed } deadlines in a row
}: a bot plays the seat for them from now on. They can take it back with **Take my seat back** below.
notice-reclaimed = ℹ️ { $team }: the player is back and takes the seat from the bot.
notice-away = 🏖️ { $team } is on vacation until { $until }: their deadlines wait for them.
notice-held = 🏖️ { $team } is on vacation: their turn now ends { $deadline }.
notice-back = ℹ️ { $team } is back from vacation.
notice-pause-proposed = ⏸️ { $team } proposes to pause the game for { $length }. The other players vote with the buttons below (within a day).
notice-pause-started = ⏸️ The game is paused until { $until }: no deadline runs until then (moves are still welcome).
notice-pause-refused = ⏸️ { $team } voted against the pause: the game goes on.
notice-pause-lapsed = ⏸️ The pause { $team } proposed got too few votes in a day: the game goes on.
notice-pause-over = ▶️ The pause is over: the clock runs again.
notice-extended = ⏳ { $team } has more time: their turn now ends { $deadline }.
notice-undo-proposed = ↩️ { $team } asks to take back their last move{ $others ->
    [0] {""}
    [one] {" "}and the move played after it
   *[other] {" "}and the { $others } moves played after it
}. Everyone else at the table answers with the buttons below (within a day); a move played meanwhile ends the request.
notice-undo-accepted = ↩️ Everyone agreed: { $moves ->
    [one] 1 move is
   *[other] { $moves } moves are
} taken back, and { $team } has the move again. { $moves ->
    [one] The move stays
   *[other] The moves stay
} in the history, marked as taken back.
notice-undo-refused = ↩️ { $team } refused to take the move back: the game goes on as it is.
notice-undo-lapsed = ↩️ Not everyone answered the take-back { $team } asked for within a day: the game goes on as it is.
notice-undo-voided = ↩️ A move was played before everyone answered { $team }'s take-back: it no longer applies.

## Actions in words (lists of legal moves)

action-with = {" "}with { $items }
action-move = { $unit } → { $cell }{ $cargo }
action-ship = Ship → { $cell }
action-boat = Boat { $from } → { $cell }
action-resurrect = Resurrect a pirate in the fortress on { $cell }
action-rum = Serve rum on { $cell }
action-pass = Let the turn pass
action-choose = → { $cell }{ $cargo }

## Words on the board picture

board-move = Move
board-game-over = Game over
board-draw = draw
